import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

/**
 * The dashboard's build: `npm run build:web` (and `npm start`, when web/ changed) writes
 * dist/web, which the server serves (src/web/dashboard.ts). esbuild compiles the TSX; file
 * names under assets/ carry a content hash, so the server marks them immutable. Each text file
 * over 1 KiB is also written compressed (`.br`, `.gz`) at build time, which the server sends to
 * browsers that accept it: nothing is compressed per request.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  publicDir: 'public',
  logLevel: 'warn',
  esbuild: { jsx: 'automatic' },
  plugins: [compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 })],
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
