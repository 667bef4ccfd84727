// Four tabs of one browser restored after the access token expired all need a new one at the same
// moment. They must not present the same refresh token four times (the server would take it for a theft
// and end the device session): one tab refreshes, the others use what it stored.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { launchBrowser, newContext } from '../support/browser';
import { hasChromium } from '../support/env';
import { apiAs, signUp } from '../support/api';
import { linkIn, waitForMail } from '../support/mail';

const baseUrl = inject('baseUrl');

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

/** A browser context signed in as a new therapist, with four tabs on the patient list. */
async function fourSignedInTabs(browser: Browser, name: string, opts: { withoutWebLocks?: boolean } = {}) {
  const context = await newContext(browser, baseUrl);
  // As on plain http at a LAN address, where browsers give no Web Locks: the BroadcastChannel fallback.
  if (opts.withoutWebLocks) await context.addInitScript(() => delete (Navigator.prototype as { locks?: unknown }).locks);
  const email = `${name}.${Date.now()}@example.com`;
  await signUp('Inés', email);
  const mail = await waitForMail(baseUrl, email, (m) => m.text.includes('/verify-email/'));
  const first = await context.newPage();
  await first.goto(linkIn(mail, '/verify-email'));
  await first.waitForURL(`${baseUrl}/`);
  const tabs = [first];
  for (let i = 0; i < 3; i++) tabs.push(await context.newPage());
  await Promise.all(tabs.map((tab) => tab.goto('/patients')));
  await Promise.all(tabs.map((tab) => tab.getByRole('heading', { name: 'Aún no tienes pacientes' }).waitFor()));
  if (opts.withoutWebLocks) expect(await first.evaluate(() => 'locks' in navigator)).toBe(false);
  return { context, tabs };
}

/** Closes the "browser" (no app running), expires the token, restores the four tabs at once; returns the refresh answers. */
async function restoreAfterExpiry(context: BrowserContext, tabs: Page[], round: number) {
  const refreshes: Promise<number>[] = [];
  const listen = (res: Response) => {
    if (res.url().includes('/api/v1/realms/therapists/token')) refreshes.push(Promise.resolve(res.status()));
  };
  context.on('response', listen);
  const before = await readAuth(tabs[0]!);
  // The browser is closed (no app running: a page of the same origin without it), and the token expires.
  await Promise.all(tabs.map((tab) => tab.goto('/api/v1/health')));
  await expireAccessToken(tabs[0]!);

  // The browser restores its four tabs at once.
  await Promise.all(tabs.map((tab) => tab.goto('/patients')));
  // Every tab shows the patient list, which it can only fetch with a valid access token.
  await Promise.all(tabs.map((tab) => tab.getByRole('heading', { name: 'Aún no tienes pacientes' }).waitFor({ timeout: 15_000 })));
  context.off('response', listen);

  for (const tab of tabs) expect(new URL(tab.url()).pathname, `round ${round}`).toBe('/patients');
  const after = await readAuth(tabs[0]!);
  expect(after.state.loggedIn).toBe(true);
  expect(after.state.refreshToken).not.toBe(before.state.refreshToken);
  // The device session is alive on the server.
  const me = await apiAs(after.state.accessToken!).get('/me');
  expect(me.status, `round ${round}`).toBe(200);
  return Promise.all(refreshes);
}

describe.skipIf(!hasChromium || !baseUrl)('several tabs refresh an expired session at once', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('four tabs restored together after expiry stay signed in, with one refresh, three times over', async () => {
    const { context, tabs } = await fourSignedInTabs(browser, 'pestanas');
    for (let round = 1; round <= 3; round++) {
      const answers = await restoreAfterExpiry(context, tabs, round);
      expect(answers, `round ${round}: one tab refreshed, the others used what it stored`).toEqual([200]);
    }
    const { state } = await readAuth(tabs[0]!);
    const rotated = await apiAs(state.refreshToken!).get('/realms/therapists/token?appVersion=1.0.0');
    expect(rotated.status).toBe(200);
    await context.close();
  });

  it('without Web Locks (BroadcastChannel), the tabs stay signed in too', async () => {
    const { context, tabs } = await fourSignedInTabs(browser, 'sin-locks', { withoutWebLocks: true });
    for (let round = 1; round <= 3; round++) {
      // Tabs starting in the same instant may both refresh; the server's grace answers them alike.
      const answers = await restoreAfterExpiry(context, tabs, round);
      expect(answers.length, `round ${round}`).toBeGreaterThanOrEqual(1);
      expect(
        answers.every((status) => status === 200),
        `round ${round}: ${answers.join(', ')}`,
      ).toBe(true);
    }
    await context.close();
  });
});
