import { fileURLToPath, URL } from 'node:url';
import { defineConfig, type PluginOption, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/** React's imports answered by preact/compat: ~20 KB of framework on a phone instead of React DOM's ~67 KB. */
const preact: { find: RegExp; replacement: string }[] = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];

/**
 * A small public bundle (the booking pages, the patient's companion) for production, as decision 0021
 * has them: React's code run on preact/compat, built after the app into the same dist/ (which is not
 * emptied), its own manifest, and core's modules tree-shaken to what a page uses.
 */
export function publicBundleConfig(name: 'booking' | 'companion'): UserConfig {
  return defineConfig({
    plugins: [react() as unknown as PluginOption, tailwindcss() as unknown as PluginOption],
    resolve: { alias: [{ find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) }, ...preact] },
    build: {
      outDir: 'dist',
      emptyOutDir: false,
      manifest: `.vite/${name}-manifest.json`,
      // Every browser we serve preloads modules itself (Safari 17+, Firefox 115+).
      modulePreload: { polyfill: false },
      target: 'es2022',
      rollupOptions: {
        input: { [name]: fileURLToPath(new URL(`./${name}.html`, import.meta.url)) },
        // As the app's: core's modules have no side effects, so only what a page uses is kept.
        treeshake: { moduleSideEffects: (id) => !/[\\/]packages[\\/]core[\\/]/.test(id) },
      },
    },
  });
}
