/** PostgreSQL's unique_violation (23505), as node-postgres and PGlite raise it (drizzle may wrap it in `cause`). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}
