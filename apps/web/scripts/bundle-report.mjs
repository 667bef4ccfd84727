// Gzipped JS a browser downloads for a screen: the entry, then each lazy route module on the way to
// it, with all their static imports. Reads dist/.vite/manifest.json, so run it after `vite build`.
// Usage: node scripts/bundle-report.mjs   (exits 1 when a budget is exceeded)
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const manifest = JSON.parse(readFileSync(`${dist}.vite/manifest.json`, 'utf8'));

const screens = {
  'sign-in': { budget: 120, modules: ['src/app/layouts/auth-layout.tsx', 'src/features/auth/routes/sign-in.tsx'] },
  'shell (dashboard)': { budget: 200, modules: ['src/app/layouts/shell-layout.tsx', 'src/app/routes/dashboard.tsx'] },
};

// A module that is also a shared chunk is keyed by chunk name, so look it up by its `src` too.
const bySrc = Object.fromEntries(Object.entries(manifest).map(([key, v]) => [v.src ?? key, key]));
const byName = Object.fromEntries(
  Object.entries(manifest).filter(([, v]) => v.isDynamicEntry && !v.src).map(([key, v]) => [v.name, key]),
);

function collect(key, files) {
  const name = key.split('/').pop().replace(/\.tsx?$/, '');
  const entry = manifest[key] ?? manifest[bySrc[key]] ?? manifest[byName[name]];
  if (!entry) throw new Error(`not in manifest: ${key}`);
  if (files.has(entry.file)) return;
  files.add(entry.file);
  for (const dep of entry.imports ?? []) collect(dep, files);
}

let failed = false;
for (const [name, { budget, modules }] of Object.entries(screens)) {
  const files = new Set();
  collect('index.html', files);
  for (const m of modules) collect(m, files);
  const js = [...files].filter((f) => f.endsWith('.js'));
  const size = js.reduce((sum, f) => sum + gzipSync(readFileSync(dist + f)).length, 0) / 1024;
  const ok = size <= budget;
  failed ||= !ok;
  console.log(`${ok ? 'ok  ' : 'OVER'} ${name}: ${size.toFixed(1)} KB gzipped JS in ${js.length} files (budget ${budget} KB)`);
}
process.exit(failed ? 1 : 0);
