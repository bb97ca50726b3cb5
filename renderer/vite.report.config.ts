/**
 * `npm run build:report`: the report's two bundles of the renderer's chart modules, in dist/report/.
 * - `--mode runtime`: report-runtime.js, one IIFE that every HTML report inlines (mounts the interactive charts);
 * - `--mode svg`: charts-svg.js, an ES module with `renderSVG` for Node (the static SVG of every report chart).
 * Both bundle d3, so neither reads node_modules at run time.
 */
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

export default defineConfig(({ mode }) => {
  const runtime = mode !== 'svg';
  return {
    root: fileURLToPath(new URL('.', import.meta.url)),
    publicDir: false,
    logLevel: 'warn',
    build: {
      outDir: fileURLToPath(new URL('../dist/report', import.meta.url)),
      emptyOutDir: runtime,
      target: 'es2022',
      minify: runtime,
      sourcemap: false,
      reportCompressedSize: false,
      lib: runtime
        ? {
            entry: fileURLToPath(new URL('src/report/runtime.ts', import.meta.url)),
            formats: ['iife'],
            name: 'TransientLabReport',
            fileName: () => 'report-runtime.js',
          }
        : { entry: fileURLToPath(new URL('src/report/svg.ts', import.meta.url)), formats: ['es'], fileName: () => 'charts-svg.js' },
    },
  };
});
