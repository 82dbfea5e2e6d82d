import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The dashboard's build: `npm run build:web` (and `npm start`, when web/ changed) writes
 * dist/web, which the server serves (src/web/dashboard.ts). esbuild compiles the TSX; file
 * names under assets/ carry a content hash, so the server marks them immutable.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  publicDir: 'public',
  logLevel: 'warn',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // No data: URIs in the CSS or the scripts: every asset is a file of its own.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    rollupOptions: {
      onwarn(warning, warn) {
        // React Server Components markers ("use client") mean nothing in a client-only bundle.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
