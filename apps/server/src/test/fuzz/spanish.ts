/**
 * A heuristic for "this message is not Spanish": words that Zod, Fastify, busboy and Node write in their
 * English defaults. A Spanish message never holds them as whole words ("inválido" is not "invalid").
 */
const ENGLISH =
  /\b(invalid|expected|required|must|received|should|unexpected|unsupported|cannot|does not|is not|not found|bad request|too (big|small|many|long|large)|body|querystring|params|failed|missing|malformed|reach(ed)?|limit)\b/i;

export function englishIn(text: string): string | undefined {
  return ENGLISH.exec(text)?.[0];
}
