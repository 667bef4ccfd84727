import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appUrlForCommands, listeningUrl, rememberPublicUrl } from './server-address';

const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'divan-address-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('where the operator commands say the app is', () => {
  it('prints the port the server was started on, not 3000, when the command is run without PORT', () => {
    const dir = dataDir();
    // `PORT=4100 npm start` wrote this; `npm run demo` then runs without PORT (its config says 3000).
    rememberPublicUrl(dir, listeningUrl('http://localhost:4100', false, { address: '0.0.0.0', family: 'IPv4', port: 4100 }));
    expect(appUrlForCommands(dir, 'http://localhost:3000', {})).toBe('http://localhost:4100');
  });

  it('keeps what the command itself was given, and the default for a data dir never served', () => {
    const dir = dataDir();
    rememberPublicUrl(dir, 'http://localhost:4100');
    expect(appUrlForCommands(dir, 'http://localhost:5000', { PORT: '5000' })).toBe('http://localhost:5000');
    expect(appUrlForCommands(dir, 'https://consulta.example.es', { PUBLIC_URL: 'https://consulta.example.es' })).toBe(
      'https://consulta.example.es',
    );
    expect(appUrlForCommands(dataDir(), 'http://localhost:3000', {})).toBe('http://localhost:3000');
  });

  it('is the bound port (PORT=0 picks one) unless PUBLIC_URL says otherwise', () => {
    expect(listeningUrl('http://localhost:0', false, { address: '::', family: 'IPv6', port: 38211 })).toBe('http://localhost:38211');
    expect(listeningUrl('https://consulta.example.es', true, { address: '::', family: 'IPv6', port: 3000 })).toBe(
      'https://consulta.example.es',
    );
  });
});
