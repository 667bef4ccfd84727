import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { allowConsole, launchBrowser, newContext, scriptKilobytes, seedLocalStorage, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { publicApi } from '../support/api';
import { linkIn, waitForMail } from '../support/mail';

const baseUrl = inject('baseUrl');

describe.skipIf(!hasChromium || !baseUrl)('error pages, outdated client and bundle size', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the 404 page for an unknown path, with ways out', async () => {
    const page = await (await newContext(browser, baseUrl)).newPage();
    await page.goto('/esto-no-existe');
    await page.getByRole('heading', { name: 'No encontramos esta página' }).waitFor();
    expect(await page.getByRole('button', { name: 'Volver atrás' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Ir al inicio' }).isVisible()).toBe(true);
    await shot(page, '20-not-found');
    await page.goto('/500');
    await page.getByRole('button', { name: 'Recargar' }).waitFor();
    await shot(page, '21-server-error');
    await page.goto('/503');
    await page.getByRole('link', { name: 'Ir al inicio' }).waitFor();
    await page.context().close();
  });

  it('shows a persistent reload banner when the server says the client is outdated', async () => {
    const page = await (await newContext(browser, baseUrl)).newPage();
    allowConsole({ text: /status of 426/, url: /\/realms\/therapists\/code$/, because: 'the test answers «outdated client»' });
    await page.route('**/api/v1/realms/therapists/code', (route) =>
      route.fulfill({
        status: 426,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'outdated_client', message: 'outdated' }),
      }),
    );
    await page.goto('/sign-in');
    await page.getByLabel('Email', { exact: true }).fill('quien@example.com');
    await page.getByLabel('Contraseña', { exact: true }).fill('Cualquiera1');
    await page.getByRole('button', { name: 'Continuar', exact: true }).click();
    const banner = page.getByTestId('outdated-banner');
    await banner.waitFor();
    expect(await banner.getByRole('button', { name: 'Recargar' }).isVisible()).toBe(true);
    await shot(page, '22-outdated-client');
    await page.context().close();
  });

  it('keeps the JavaScript of the sign-in page and the shell within budget', async () => {
    const page = await (await newContext(browser, baseUrl)).newPage();
    const signIn = await scriptKilobytes(page, '/sign-in');
    console.log(`gzipped JS loaded: /sign-in ${signIn.toFixed(1)} KB`);
    await page.context().close();
    // The budget (apps/web/docs/bundle-budget.md): the page loads React (~67 KB) and not the router (the
    // guest app, src/app/guest), so every module added to the entry or the sign-in form counts.
    expect(signIn).toBeLessThanOrEqual(110);

    // The signed-in shell (dashboard): a confirmed account, its session put where the web app keeps it.
    const email = `presupuesto-${Date.now()}@example.com`;
    const device = {
      appVersion: '1.0.0',
      deviceManufacturer: 'unknown',
      deviceModel: 'unknown',
      platformType: 'web',
      platformVersion: 'e2e',
    };
    const post = <T = unknown>(path: string, body: unknown) => publicApi.post<T>(`/realms/therapists${path}`, body);
    expect((await post('/users', { firstName: 'Presupuesto', email, password: 'Contraseña1' })).status).toBe(201);
    const token = linkIn(await waitForMail(baseUrl, email, (m) => m.text.includes('/verify-email/')), '/verify-email')
      .split('/')
      .pop();
    const session = (await post<Record<string, unknown>>('/signup/challenge', { code: token, ...device })).body;
    const auth = {
      state: {
        userId: session.userId,
        accessToken: session.accessToken,
        refreshToken: session.refreshToken,
        profile: session.profile,
        loggedIn: true,
      },
      version: 1,
    };
    const context = await newContext(browser, baseUrl);
    await seedLocalStorage(context, [{ name: 'auth', value: JSON.stringify(auth) }]);
    const shellPage = await context.newPage();
    const shell = await scriptKilobytes(shellPage, '/');
    await shellPage.getByRole('heading', { level: 1 }).first().waitFor();
    console.log(`gzipped JS loaded: / (signed in) ${shell.toFixed(1)} KB`);
    await context.close();
    // Menus, toasts, the palette and the phone sheet load on first use, not with the shell. 170.4 → 165.3 once
    // the screens inside the shell load through the shell layout's module; 156.8 with the dashboard in the shell
    // layout's chunk and Terser (apps/web/docs/bundle-budget.md, 08/12/2026); 157.3 with the dashboard's check
    // for unreviewed risk flags (issue 32; its card loads only when there is one). Issue 26's target is 150.
    expect(shell).toBeLessThanOrEqual(158);
  });
});
