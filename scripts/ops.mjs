// Operator commands: `npm run backup`, `npm run restore -- <file>`, `npm run admin -- <command>`, `npm run demo`,
// `npm run storage:move -- --to <s3|disk>`.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt, root } from './build-if-stale.mjs';

ensureBuilt({ only: ['apps/server'] });
const res = spawnSync(process.execPath, [join(root, 'apps/server/dist/ops.js'), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(res.status ?? 1);
