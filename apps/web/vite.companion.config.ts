import { fileURLToPath, URL } from 'node:url';
import { defineConfig, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/**
 * The patient's companion (companion.html → src/companion/, served for /p and /p/…) for production,
 * built after the app and the booking pages into the same dist/. As the booking pages (decision 0021):
 * React's code run on preact/compat, its own manifest, a first screen within 100 KB of gzipped JS.
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
    // The app's and the booking pages' builds are already there.
    emptyOutDir: false,
    manifest: '.vite/companion-manifest.json',
    modulePreload: { polyfill: false },
    target: 'es2022',
    rollupOptions: {
      input: { companion: fileURLToPath(new URL('./companion.html', import.meta.url)) },
      // As the app's: core's modules have no side effects, so only what a page uses is kept.
      treeshake: { moduleSideEffects: (id) => !/[\\/]packages[\\/]core[\\/]/.test(id) },
    },
  },
});
