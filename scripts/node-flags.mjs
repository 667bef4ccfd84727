// The Node flags the server runs with, by database (`npm start` → scripts/start.sh; the benches start
// their servers with the same). On the embedded PGlite, a one-practice server kept small: a 1 MB young
// generation (docs/decisions/0007: −15–25 MB idle). On PostgreSQL, a server for a clinic's throughput:
// a 16 MB young generation, which spends a fifth less CPU per invoice issued (docs/decisions/0016).
// Run directly, prints them for a shell: `node scripts/node-flags.mjs`.
import { pathToFileURL } from 'node:url';

/** @param {NodeJS.ProcessEnv} env */
export function nodeFlags(env = process.env) {
  const young = env.DATABASE_URL ? 16 : 1;
  return [`--max-semi-space-size=${young}`, '--v8-pool-size=1'];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(nodeFlags().join(' '));
