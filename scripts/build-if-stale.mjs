// Builds the web app and the server only when their sources are newer than their build output,
// so `npm start` on a built checkout starts at once.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const e of readdirSync(path)) if (e !== 'node_modules' && e !== 'dist') max = Math.max(max, newest(join(path, e)));
  return max;
}

const targets = [
  {
    name: 'web app',
    workspace: 'apps/web',
    output: 'apps/web/dist/index.html',
    sources: [
      'apps/web/src',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/public',
      'packages/core/src',
      'apps/web/package.json',
    ],
  },
  {
    name: 'server',
    workspace: 'apps/server',
    output: 'apps/server/dist/main.js',
    sources: ['apps/server/src', 'apps/server/build.mjs', 'packages/core/src', 'apps/server/package.json'],
  },
];

export function ensureBuilt({ only } = {}) {
  if (!existsSync(join(root, 'node_modules'))) {
    console.error('Dependencies are missing: run `npm install` first.');
    process.exit(1);
  }
  for (const t of targets) {
    if (only && !only.includes(t.workspace)) continue;
    const built = newest(join(root, t.output));
    const changed = Math.max(...t.sources.map((s) => newest(join(root, s))));
    if (built && built >= changed) continue;
    console.log(`Building the ${t.name}…`);
    const res = spawnSync('npm', ['run', 'build', '-w', t.workspace], { cwd: root, stdio: 'inherit' });
    if (res.status !== 0) {
      console.error(`Building the ${t.name} failed.`);
      process.exit(res.status ?? 1);
    }
  }
}
