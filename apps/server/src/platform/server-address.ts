import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * The address the server last listened on, kept in DATA_DIR: the operator commands run in another
 * process, without the server's PORT, and `npm run demo` must print where the app really is (it said
 * localhost:3000 whatever port the server had been started on).
 */
const FILE = 'last-public-url';

/** The URL people open: PUBLIC_URL when set, else localhost on the port actually bound (PORT=0 included). */
export function listeningUrl(publicUrl: string, publicUrlSet: boolean, address: AddressInfo | string | null): string {
  if (publicUrlSet || !address || typeof address === 'string') return publicUrl;
  return `http://localhost:${address.port}`;
}

export function rememberPublicUrl(dataDir: string, url: string): void {
  try {
    writeFileSync(join(dataDir, FILE), `${url}\n`);
  } catch {
    // A read-only data dir: the commands fall back to the configured URL.
  }
}

/**
 * Where an operator command says the app is: the configured URL when this command was given PORT or
 * PUBLIC_URL, else the one the server last listened on, else the configured default.
 */
export function appUrlForCommands(dataDir: string, publicUrl: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.PUBLIC_URL || env.PORT) return publicUrl;
  try {
    const last = readFileSync(join(dataDir, FILE), 'utf8').trim();
    if (/^https?:\/\/\S+$/.test(last)) return last;
  } catch {
    // Never started from this data dir.
  }
  return publicUrl;
}
