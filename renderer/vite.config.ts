/**
 * Production build of the renderer (`npm run build:renderer` → dist/renderer/). Browser mode serves that
 * folder; the desktop app loads the same files from its app:// protocol. Relative base: both hosts serve it
 * from their own origin root, and nothing is ever fetched from another host.
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
  },
  worker: { format: 'es' },
});
