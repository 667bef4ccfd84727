// Four tabs of one browser restored after the access token expired all need a new one at the same
// moment. They must not present the same refresh token four times (the server would take it for a theft
// and end the device session): one tab refreshes, the others use what it stored.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext } from '../support/browser';
import { hasChromium } from '../support/env';
import { linkIn, waitForMail } from '../support/mail';

const baseUrl = inject('baseUrl');
const email = `pestanas.${Date.now()}@example.com`;
const headers = { 'Content-Type': 'application/json', 'X-Client-Version': '1.0.0' };

type StoredAuth = { state: { accessToken: string | null; refreshToken: string | null; loggedIn: boolean } };
const readAuth = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('auth') ?? '{}') as StoredAuth);

/**
 * Rewinds the stored access token's expiry to a minute ago, as after a night with the laptop closed
 * (the signature no longer matches either: the server refuses it as it would an expired one).
 */
async function expireAccessToken(page: Page) {
  await page.evaluate(() => {
    const saved = JSON.parse(localStorage.getItem('auth')!) as StoredAuth;
    const [head, body] = saved.state.accessToken!.split('.');
    const claims = JSON.parse(atob(body!.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, number>;
    claims.exp = Math.floor(Date.now() / 1000) - 60;
    const rewound = btoa(JSON.stringify(claims)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    saved.state.accessToken = `${head}.${rewound}.caducado`;
    localStorage.setItem('auth', JSON.stringify(saved));
  });
}

describe.skipIf(!hasChromium || !baseUrl)('several tabs refresh an expired session at once', () => {
  let browser: Browser;
  let context: BrowserContext;
  const tabs: Page[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await newContext(browser, baseUrl);
    const res = await fetch(`${baseUrl}/api/v1/realms/therapists/users`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ firstName: 'Inés', email, password: 'Consulta2025' }),
    });
    expect(res.status).toBe(201);
    const mail = await waitForMail(baseUrl, email, (m) => m.text.includes('/verify-email/'));
    const first = await context.newPage();
    await first.goto(linkIn(mail, '/verify-email'));
    await first.waitForURL(`${baseUrl}/`);
    tabs.push(first);
    for (let i = 0; i < 3; i++) tabs.push(await context.newPage());
    await Promise.all(tabs.slice(1).map((tab) => tab.goto('/patients')));
    await first.goto('/patients');
    await Promise.all(tabs.map((tab) => tab.getByRole('heading', { name: 'Aún no tienes pacientes' }).waitFor()));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('four tabs restored together after expiry stay signed in, with one refresh, three times over', async () => {
    for (let round = 1; round <= 3; round++) {
      const refreshes: string[] = [];
      const listen = (req: { url(): string }) => {
        if (req.url().includes('/api/v1/realms/therapists/token')) refreshes.push(req.url());
      };
      context.on('request', listen);
      const before = await readAuth(tabs[0]!);
      // The browser is closed (no app running: a page of the same origin without it), and the token expires.
      await Promise.all(tabs.map((tab) => tab.goto('/api/v1/health')));
      await expireAccessToken(tabs[0]!);

      // The browser restores its four tabs at once.
      await Promise.all(tabs.map((tab) => tab.goto('/patients')));
      // Every tab shows the patient list, which it can only fetch with a valid access token.
      await Promise.all(tabs.map((tab) => tab.getByRole('heading', { name: 'Aún no tienes pacientes' }).waitFor({ timeout: 15_000 })));
      context.off('request', listen);

      for (const tab of tabs) expect(new URL(tab.url()).pathname, `round ${round}`).toBe('/patients');
      expect(refreshes, `round ${round}: one tab refreshed, the others used what it stored`).toHaveLength(1);
      const after = await readAuth(tabs[0]!);
      expect(after.state.loggedIn).toBe(true);
      expect(after.state.refreshToken).not.toBe(before.state.refreshToken);

      // The device session is alive on the server: its access token works and its refresh token rotates.
      const me = await fetch(`${baseUrl}/api/v1/me`, { headers: { ...headers, Authorization: `Bearer ${after.state.accessToken}` } });
      expect(me.status).toBe(200);
    }
    const { state } = await readAuth(tabs[0]!);
    const rotated = await fetch(`${baseUrl}/api/v1/realms/therapists/token?appVersion=1.0.0`, { headers: { ...headers, Authorization: `Bearer ${state.refreshToken}` } });
    expect(rotated.status).toBe(200);
  });
});
