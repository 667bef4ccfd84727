import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { servesApp } from './web-app';

const INDEX = '<!doctype html><html lang="es"><head><title>Diván</title></head><body><div id="root"></div></body></html>';

describe('the web app behind the API', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    // A built-looking web dist: index.html and one hashed asset.
    dist = mkdtempSync(join(tmpdir(), 'divan-web-'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    t = await createTestApp({ webDist: dist });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  // curl, uptime monitors and link previews: `*/*`, no Accept at all; browsers: text/html.
  const accepts: Record<string, Record<string, string>> = {
    '*/*': { accept: '*/*' },
    none: {},
    html: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
  };

  it.each(['/', '/patients', '/patients/0b7c8a52-7a53-4a0e-9d52-1f4f2a0a9c11/history', '/settings/profile', '/sign-in?next=%2Fpatients'])(
    'serves the app at %s whatever the Accept header',
    async (url) => {
      for (const [name, headers] of Object.entries(accepts)) {
        const res = await t.get(url, { headers });
        expect([name, res.statusCode, res.headers['content-type']]).toEqual([name, 200, 'text/html; charset=utf-8']);
        expect(res.headers['cache-control']).toBe('no-cache');
        expect(res.body).toBe(INDEX);
      }
    },
  );

  it('answers HEAD / for uptime monitors', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('keeps the JSON 404 for the API, whatever the Accept header', async () => {
    for (const headers of Object.values(accepts)) {
      const res = await t.get('/api/v1/nope', { headers });
      expect({ s: res.statusCode, b: json(res) }).toEqual({ s: 404, b: { code: 'not_found', message: 'No encontrado.' } });
    }
  });

  it('answers 404 for asset paths that do not exist, and serves those that do', async () => {
    for (const headers of Object.values(accepts)) {
      const res = await t.get('/assets/missing.js', { headers });
      expect(res.statusCode).toBe(404);
      expect(json(res)).toMatchObject({ code: 'not_found' });
    }
    expect((await t.get('/favicon.ico')).statusCode).toBe(404);
    const asset = await t.get('/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers other methods on screen paths with the JSON 404', async () => {
    const res = await t.post('/patients', {});
    expect(res.statusCode).toBe(404);
    expect(json(res)).toMatchObject({ code: 'not_found' });
  });
});

describe('servesApp', () => {
  it('tells screens from files and API paths', () => {
    for (const url of ['/', '/patients', '/patients/abc/overview', '/verify-email/abc.def_ghi-', '/workspaces/new?x=a.js'])
      expect([url, servesApp('GET', url, undefined)]).toEqual([url, true]);
    for (const url of ['/api/v1/nope', '/api', '/dev/mail', '/assets/missing.js', '/assets', '/robots.txt', '/favicon.ico'])
      expect([url, servesApp('GET', url, '*/*')]).toEqual([url, false]);
    // A browser navigating to a file path gets the app (and its 404 page), never under /assets/ or /api/.
    expect(servesApp('GET', '/old-page.php', 'text/html')).toBe(true);
    expect(servesApp('GET', '/assets/missing.js', 'text/html')).toBe(false);
    expect(servesApp('GET', '/api/v1/nope', 'text/html')).toBe(false);
    expect(servesApp('POST', '/patients', 'text/html')).toBe(false);
  });
});
