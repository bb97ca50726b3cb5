/**
 * Bundles the preload (`npm run build:preload` → dist/preload/preload.cjs). A sandboxed preload runs as one
 * plain CommonJS script whose `require` knows only a few modules (`electron` among them): the contract's
 * METHODS/EVENTS lists are bundled in, `electron` stays a require.
 */
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  logLevel: 'warn',
  build: {
    lib: { entry: fileURLToPath(new URL('./index.ts', import.meta.url)), formats: ['cjs'], fileName: () => 'preload.cjs' },
    outDir: fileURLToPath(new URL('../../dist/preload', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    sourcemap: false,
    rollupOptions: { external: ['electron'] },
  },
});
