// Gzipped JS a browser downloads for a screen: the entry, then each lazy route module on the way to
// it, with all their static imports. Reads dist/.vite/manifest.json, booking-manifest.json and companion-manifest.json, so run it after the web build.
// Usage: node scripts/bundle-report.mjs   (exits 1 when a budget is exceeded)
//
// `modules` is what the screen loads before anyone touches it: its routes, plus anything they import
// dynamically as soon as they render (list it here too, or this figure falls below the browser's:
// bench/ measures the same pages in Chromium). `later` is what loads on first use, for information:
// it is not counted in the budget.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
// The app's build, and the public booking pages' own (vite.booking.config.ts).
const manifest = {
  ...JSON.parse(readFileSync(`${dist}.vite/manifest.json`, 'utf8')),
  ...JSON.parse(readFileSync(`${dist}.vite/booking-manifest.json`, 'utf8')),
  // The patient's companion (vite.companion.config.ts).
  ...JSON.parse(readFileSync(`${dist}.vite/companion-manifest.json`, 'utf8')),
};

// `entry`: the HTML page the screen is served from (default index.html, the app).
const screens = {
  'sign-in': {
    // 117 KB on 02/12/2026 with React Router; the guest entry (src/app/guest) serves it without.
    budget: 110,
    modules: ['src/app/guest/guest-app.tsx'],
    later: { 'form schemas (first input)': ['src/features/auth/schemas.ts'] },
  },
  'shell (dashboard)': {
    // 162 KB on 02/12/2026 (199 before Zod and CASL left the dashboard); 165.3 on 08/12/2026 (170.4 before the
    // screens inside the shell loaded through the shell layout); 156.6 with the dashboard in the shell layout's chunk
    // and Terser; issue 26 aims at 150.
    budget: 158,
    // screens.ts: the shell layout's import; the dashboard and the others load through the shell layout
    // (more-screens.ts, the others' preload lists, on the first input). The month's money
    // (revenue-card, its own chunk) loads as soon as the dashboard shows for whoever reads invoices.
    modules: [
      'src/app/router.tsx',
      'src/app/screens.ts',
      'src/app/layouts/shell-layout.tsx',
      'src/features/analytics/components/revenue-card.tsx',
      // «Continuar viendo» and «Vídeos populares» (the training library) load as the dashboard shows.
      'src/features/learning/components/learning-dashboard.tsx',
    ],
    later: {
      'other screens’ preload lists (first input)': ['src/app/more-screens.ts'],
      'menus (first open)': [
        'src/features/workspaces/components/workspace-switcher-items.tsx',
        'src/app/components/theme-menu-items.tsx',
        'src/app/components/user-menu-items.tsx',
      ],
      'toasts (first press or key)': ['../../node_modules/sonner/dist/index.mjs', 'src/app/components/app-toaster.tsx'],
      'command palette': ['src/app/components/command-palette.tsx'],
      'phone menu': ['src/app/components/mobile-nav.tsx'],
      // Right after the dashboard shows, for members who read chats (not for Recepción).
      '«Mensajes sin leer» card': ['src/features/chat/components/unread-chats-card.tsx'],
    },
  },
  // The training library's video page with an MP4 (native <video>, no player library): at most 60 KB beyond
  // the signed-in shell (`beyond`: only what it adds to those modules counts). A Vimeo-hosted video adds
  // @vimeo/player, loaded only then.
  'learning video (MP4)': {
    budget: 60,
    beyond: ['src/app/router.tsx', 'src/app/screens.ts', 'src/app/layouts/shell-layout.tsx'],
    modules: ['src/app/more-screens.ts', 'src/app/routes/learning.tsx', 'src/features/learning/routes/video-route.tsx'],
    later: { 'Vimeo player (a Vimeo-hosted video)': ['../../node_modules/@vimeo/player/dist/player.es.js'] },
  },
  // booking.html: its own entry, React and src/public-booking/ only (no router, query library, Zod or Radix).
  'public booking (index, therapist)': { entry: 'booking.html', budget: 80, modules: [] },
  'public booking (service)': {
    entry: 'booking.html',
    budget: 80,
    modules: ['src/public-booking/service-page.tsx'],
    later: { 'form, code and result (first hour picked)': ['src/public-booking/steps.ts'] },
  },
  'public booking (manage link)': {
    entry: 'booking.html',
    budget: 80,
    modules: ['src/public-booking/manage-page.tsx'],
    later: { '«Cambiar fecha» (calendar)': ['src/public-booking/manage-move.tsx'] },
  },
  // companion.html: the patient's companion (/p/…), on preact/compat as the booking pages. Its first
  // screen is «Entrar» or the connected files, and the page a connect mail opens; a file's page loads later.
  'companion (sign-in, files, connect link)': {
    entry: 'companion.html',
    budget: 100,
    modules: [],
    later: {
      'a file (chat)': ['src/companion/file-page.tsx'],
      '«Consentimientos»': ['src/companion/file-page.tsx', 'src/companion/consents-section.tsx'],
      '«Facturas» (and the card)': ['src/companion/file-page.tsx', 'src/companion/invoices-section.tsx'],
    },
  },
};

// A module that is also a shared chunk is keyed by chunk name, so look it up by its `src` too.
const bySrc = Object.fromEntries(Object.entries(manifest).map(([key, v]) => [v.src ?? key, key]));
const byName = Object.fromEntries(
  Object.entries(manifest)
    .filter(([, v]) => v.isDynamicEntry && !v.src)
    .map(([key, v]) => [v.name, key]),
);

function collect(key, files) {
  const name = key
    .split('/')
    .pop()
    .replace(/\.(tsx?|mjs)$/, '');
  const entry = manifest[key] ?? manifest[bySrc[key]] ?? manifest[byName[name]];
  if (!entry) throw new Error(`not in manifest: ${key}`);
  if (files.has(entry.file)) return;
  files.add(entry.file);
  for (const dep of entry.imports ?? []) collect(dep, files);
}

// Level 9, as bench/ gzips what Chromium received.
const sizes = new Map();
const gzipKB = (files) =>
  [...files]
    .filter((f) => f.endsWith('.js'))
    .reduce((sum, f) => {
      if (!sizes.has(f)) sizes.set(f, gzipSync(readFileSync(dist + f), { level: 9 }).length / 1024);
      return sum + sizes.get(f);
    }, 0);

let failed = false;
for (const [name, { entry = 'index.html', budget, modules, beyond, later = {} }] of Object.entries(screens)) {
  const files = new Set();
  collect(entry, files);
  for (const m of beyond ?? []) collect(m, files);
  const base = beyond ? gzipKB(files) : 0;
  for (const m of modules) collect(m, files);
  const size = gzipKB(files);
  const ok = size - base <= budget;
  failed ||= !ok;
  const count = [...files].filter((f) => f.endsWith('.js')).length;
  const what = beyond
    ? `${(size - base).toFixed(1)} KB gzipped JS beyond the shell (${size.toFixed(1)} KB in ${count} files)`
    : `${size.toFixed(1)} KB gzipped JS in ${count} files`;
  console.log(`${ok ? 'ok  ' : 'OVER'} ${name}: ${what} (budget ${budget} KB)`);
  const extras = Object.entries(later).map(([what, mods]) => {
    const more = new Set(files);
    try {
      for (const m of mods) collect(m, more);
    } catch (error) {
      return `${what} ? (${error.message})`;
    }
    return `${what} +${(gzipKB(more) - size).toFixed(1)}`;
  });
  if (extras.length) console.log(`     then on first use (KB, not in the budget): ${extras.join(' · ')}`);
}
process.exit(failed ? 1 : 0);
