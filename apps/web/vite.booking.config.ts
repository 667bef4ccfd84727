import { fileURLToPath, URL } from 'node:url';
import { defineConfig, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/**
 * The public booking pages (booking.html → src/public-booking/) for production, built after the app
 * into the same dist/. Their code is React's, run on preact/compat: a patient opening the page on a phone
 * downloads ~20 KB of framework instead of React DOM's ~67 KB, well within the page's 80 KB budget
 * (decision 0021). The dev server (vite.config.ts) serves the same pages on React; e2e tests this build.
 */
const preact: { find: RegExp; replacement: string }[] = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];

export default defineConfig({
  plugins: [react() as unknown as PluginOption, tailwindcss() as unknown as PluginOption],
  resolve: { alias: [{ find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) }, ...preact] },
  build: {
    outDir: 'dist',
    // The app's build is already there.
    emptyOutDir: false,
    manifest: '.vite/booking-manifest.json',
    // Every browser we serve preloads modules itself (Safari 17+, Firefox 115+).
    modulePreload: { polyfill: false },
    target: 'es2022',
    rollupOptions: {
      input: { booking: fileURLToPath(new URL('./booking.html', import.meta.url)) },
      // As the app's: core's modules have no side effects, so only what a page uses is kept.
      treeshake: { moduleSideEffects: (id) => !/[\\/]packages[\\/]core[\\/]/.test(id) },
    },
  },
});
