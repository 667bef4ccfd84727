import { fileURLToPath, URL } from 'node:url';
import { defineConfig, type Plugin, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
// Relative on purpose: Vite's config loader leaves package imports to Node, which can't run core's .ts source.
import { APP_VERSION } from '../../packages/core/src/version';

/** Identifies this build in the device info sent with auth calls (`platformVersion = 1.0.0+<build id>`). */
const BUILD_ID = process.env.BUILD_ID ?? Date.now().toString(36);

/** The file the update checker polls; the server serves it from dist like any static asset. */
function versionFile(): Plugin {
  return {
    name: 'divan-version-file',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'version.json', source: JSON.stringify({ version: APP_VERSION }) });
    },
  };
}

/** The dev server answers the public booking addresses with booking.html, as the API server does with dist/booking.html. */
function bookingPagesInDev(): Plugin {
  return {
    name: 'divan-booking-pages-dev',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        if (req.url && /^\/v1\/reservations(\/|$)/.test(req.url)) req.url = '/booking.html';
        // The patient's companion (vite.companion.config.ts in production).
        else if (req.url && /^\/p(\/[^.]*)?(\?.*)?$/.test(req.url)) req.url = '/companion.html';
        next();
      });
    },
  };
}

export default defineConfig({
  // The plugins' types come from the hoisted Vite (a newer major pulled in by Vitest); at run time they
  // work with this app's Vite 7, so only the type identity differs.
  plugins: [react() as unknown as PluginOption, tailwindcss() as unknown as PluginOption, versionFile(), bookingPagesInDev()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  define: {
    __APP_VERSION__: JSON.stringify(APP_VERSION),
    __BUILD_ID__: JSON.stringify(BUILD_ID),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    // Terser, not esbuild: ~2 % less gzipped JS for every page (shell 159.4 → ~156 KB), safe transforms only.
    minify: 'terser',
    terserOptions: { compress: { passes: 2 } },
    // Each import() carries the files to preload with it. The entry, React and the router are loaded
    // before any of them runs, so their names are left out of every list (screens.ts holds ~140 lists:
    // docs/bundle-budget.md). A module that did need one still gets it through its imports.
    modulePreload: {
      resolveDependencies: (_file, deps, { hostType }) =>
        hostType === 'js' ? deps.filter((d) => !/(^|\/)(index|framework|react-router)-[\w-]+\.js$/.test(d)) : deps,
    },
    rollupOptions: {
      // The app. The public booking pages (booking.html) are built after it by vite.booking.config.ts.
      input: { index: fileURLToPath(new URL('./index.html', import.meta.url)) },
      // packages/core builds Zod schemas at module top level, which Rollup must assume has side effects;
      // they have none, and saying so keeps Zod out of every page that only needs an error message.
      treeshake: { moduleSideEffects: (id) => !/[\\/]packages[\\/]core[\\/]/.test(id) },
      output: {
        // The framework rarely changes between deploys: separate chunks stay cached across releases. The
        // router apart: the sign-in page does not load it (src/app/guest, docs/bundle-budget.md).
        manualChunks(id) {
          if (/node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(id)) return 'framework';
          if (/node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/.test(id)) return 'react-router';
          return undefined;
        },
      },
    },
  },
  server: {
    port: 5173,
    // The payments sandbox's hosted pages (no Stripe keys) are served by the API server too.
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: true, ws: true }, '/sandbox': { target: 'http://localhost:3000' } },
  },
});
