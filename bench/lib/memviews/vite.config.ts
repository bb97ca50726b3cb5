/** Builds the memory-views harness page (bench/lib/memviews/page) into a folder given by the caller. */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('./page', import.meta.url)),
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  build: { emptyOutDir: true, target: 'es2022', sourcemap: false, minify: false },
});
