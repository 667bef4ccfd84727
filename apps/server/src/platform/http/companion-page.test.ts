import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../../test/test-app';

const INDEX = '<!doctype html><title>Diván</title><div id="root"></div>';
const COMPANION = '<!doctype html><title>Diván</title><link rel="manifest" href="/companion.webmanifest"><div id="root"></div>';

/** The patient's companion (issue 15): its own entry of the web build for /p and /p/…, never the app's. */
describe('the companion page', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'divan-web-'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'companion.html'), COMPANION);
    writeFileSync(join(dist, 'companion-sw.js'), 'self.addEventListener("fetch", () => {});');
    t = await createTestApp({ webDist: dist });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it.each(['/p', '/p/', '/p/connect/abcdefghijklmnopqrstuvwxyz', '/p/0b7c8a52-7a53-4a0e-9d52-1f4f2a0a9c11/chat'])(
    'is companion.html at %s, not cached, framed by no other site',
    async (url) => {
      const res = await t.get(url, { headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(COMPANION);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    },
  );

  it("leaves the app's own screens that start with p to the app", async () => {
    for (const url of ['/patients', '/profile', '/pagos']) expect((await t.get(url)).body).toBe(INDEX);
  });

  it('serves the service worker, never cached', async () => {
    const res = await t.get('/companion-sw.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });
});
