/**
 * The graph harness: a page that mounts the graph module alone, fed by the engine over a tiny HTTP bridge
 * (bench/lib/graph-server.ts). Built into dist/graph-harness/ by the graph e2e test and the graph bench; not
 * part of the app's build.
 */
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('./src/graph/harness', import.meta.url)),
  base: './',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/graph-harness', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // ELK is a 1.5 MB chunk, loaded only when the ELK layout is chosen (the bench compares it with dagre).
    chunkSizeWarningLimit: 1600,
  },
  worker: { format: 'es' },
});
