// Bundles the server into dist/main.js (and the ops scripts) for a fast start; npm packages stay external,
// the workspace's own TypeScript (packages/core) is bundled in.
import { build } from 'esbuild';
import { copyFileSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((d) => !d.startsWith('@divan/'));
await build({
  entryPoints: { main: 'src/main.ts', ops: 'src/ops.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: [...external, ...external.map((d) => `${d}/*`)],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
// Worker threads run a file of their own, found beside the bundle (`new URL('./…', import.meta.url)`).
copyFileSync('src/platform/documents/office-worker.cjs', 'dist/office-worker.cjs');
console.log('server built: apps/server/dist/main.js');
