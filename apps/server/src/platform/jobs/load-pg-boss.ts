import { createRequire } from 'node:module';
import type PgBoss from 'pg-boss';

type PgBossClass = typeof PgBoss;

/**
 * pg-boss's `db.js` requires `pg` at load for the pool it makes when given no `db`. We always give it
 * ours; on PGlite, loading `pg` would only cost ~16 MB of resident memory (docs/decisions/0007). So
 * there, while pg-boss loads, `pg` resolves to a stub that refuses to be used; the real `pg` stays
 * unloaded (and is loaded normally by anything else that asks later).
 */
export async function loadPgBoss(kind: 'pglite' | 'postgres'): Promise<PgBossClass> {
  if (kind === 'postgres') return (await import('pg-boss')).default;
  const require = createRequire(import.meta.url);
  const pgPath = require.resolve('pg', { paths: [require.resolve('pg-boss')] });
  const cache = require.cache;
  if (cache[pgPath]) return (await import('pg-boss')).default;
  const refuse = () => {
    throw new Error('pg-boss must use the database adapter given to it, not a pool of its own');
  };
  cache[pgPath] = { id: pgPath, filename: pgPath, loaded: true, exports: { Pool: refuse } } as unknown as NodeJS.Module;
  try {
    return (await import('pg-boss')).default;
  } finally {
    delete cache[pgPath];
  }
}
