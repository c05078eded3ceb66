import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The web page: a Preact single-page application built into `ui/dist`, which `reg serve` serves at the same
 * URLs as the record IRIs. Hashed files land in `/assets/` (cached for a year); `index.html` is the shell.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  publicDir: 'public',
  logLevel: 'warn',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  server: {
    // `npm run ui:dev` proxies the API to a registry running on the default address.
    proxy: Object.fromEntries(
      ['/api', '/sparql', '/.well-known', '/healthz', '/readyz'].map((path) => [
        path,
        process.env.REG_UI_API ?? 'http://127.0.0.1:8080',
      ]),
    ),
  },
});
