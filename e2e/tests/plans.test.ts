import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, phoneOf, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { ok } from '../support/api';
import { signUpAndIn, type SignedIn } from '../support/accounts';
import { allowConsole } from '../support/page-errors';

const baseUrl = inject('baseUrl');

/**
 * Diván's own plans (issue 27) in Chromium, on the built-in sandbox's Billing: a new therapist in trial
 * sees the days left, compares the plans monthly and yearly, buys Premium yearly through the hosted
 * Checkout with a declined card first and 4242 then, and lands on the success page once the webhook —
 * not the redirect — applied the plan.
 */
describe.skipIf(!hasChromium || !baseUrl)('plans: a therapist in trial buys Premium yearly through Checkout', () => {
  let browser: Browser;
  let me: SignedIn;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    me = await signUpAndIn(browser, baseUrl, 'Paula');
    page = me.page;
    // Whom Diván invoices, given first: the dialog that asks for them is plans-payments.test.ts's.
    await ok(
      me.api.request('PUT', `/workspaces/${me.workspaceId}/billing/details`, {
        name: 'Paula Martín Gil',
        country: 'ES',
        taxId: '12345678Z',
        line1: 'Calle de Alcalá 10',
        city: 'Madrid',
        postalCode: '28001',
      }),
    );
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the trial’s days left, and the three plans with prices per user + IVA, monthly or yearly', async () => {
    const notice = page.getByTestId('plan-notice');
    await notice.getByText('Te quedan 14 días de prueba').waitFor();
    await notice.getByRole('link', { name: 'Ver planes' }).click();
    await page.waitForURL(/\/plans$/);
    await page.getByRole('heading', { name: 'Planes', level: 1 }).waitFor();
    const premium = page.getByTestId('plan-advance');
    await premium.getByText('29,00 €').first().waitFor();
    await page.getByTestId('plan-team').getByRole('button', { name: 'Consultar precio' }).waitFor();
    // Yearly, by keyboard: Radix checks the radio its arrow focuses while the key is down (a person's key
    // stays down longer than the focus takes; a press of no duration does not).
    await page.getByRole('radio', { name: /Mensual/ }).focus();
    await page.keyboard.down('ArrowRight');
    await expect.poll(() => page.getByRole('radio', { name: /Anual/ }).getAttribute('aria-checked')).toBe('true');
    await page.keyboard.up('ArrowRight');
    await expect.poll(() => page.getByRole('radio', { name: /Anual/ }).getAttribute('aria-checked')).toBe('true');
    await premium.getByText('290,00 €').first().waitFor();
    await page
      .getByTestId('estimate-advance')
      .getByText(/1 usuario activo/)
      .waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'plans-01-yearly');
  });

  it('pays on the hosted Checkout (a declined card first), and waits for the webhook on the success page', async () => {
    allowConsole({
      text: /status of 422/,
      url: /\/sandbox\/stripe\/checkout\//,
      because: 'the hosted Checkout answers a declined card with its form again, as 422',
    });
    await page.getByTestId('plan-advance').getByRole('button', { name: 'Contratar' }).click();
    await page.waitForURL(/\/sandbox\/stripe\/checkout\/cs_test_/);
    await page.getByText('Pago a').getByText('Diván').waitFor();
    await page
      .getByText(/290,00\s€/)
      .first()
      .waitFor();
    await page.getByLabel('Número de tarjeta').fill('4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Suscribirse' }).click();
    await page.getByText('Tarjeta rechazada').waitFor();
    await shot(page, 'plans-02-checkout-declined');
    await page.getByLabel('Número de tarjeta').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Suscribirse' }).click();
    await page.waitForURL(/\/plans\/payment-success\?session_id=cs_test_/);
    await page.getByRole('heading', { name: 'Ya tienes Premium' }).waitFor({ timeout: 30_000 });
    await shot(page, 'plans-03-success');
    // The workspace says so everywhere: the trial notice is gone, the plan is Premium, yearly, renewing.
    const ws = await me.api.request<{ plan: { id: string; renovationEnabled: boolean; periodEnd: string } }>(
      'GET',
      `/workspaces/${me.workspaceId}`,
    );
    expect(ws.body.plan).toMatchObject({ id: 'advance', renovationEnabled: true });
    expect((Date.parse(ws.body.plan.periodEnd) - Date.now()) / 86_400_000).toBeGreaterThan(364);
    await page.getByRole('link', { name: 'Ir a facturación' }).click();
    await page.waitForURL(/\/billing$/);
    await page
      .getByRole('link', { name: /Facturar en lote/ })
      .or(page.getByRole('button', { name: /Facturar en lote/ }))
      .first()
      .waitFor();
    expect(await page.getByTestId('plan-notice').count()).toBe(0);
  });

  it('marks Premium as the plan bought, and sends a second purchase to the plan settings', async () => {
    await page.goto('/plans');
    const premium = page.getByTestId('plan-advance');
    await premium.getByText('Tu plan', { exact: true }).waitFor();
    await page
      .getByRole('link', { name: /Ajustes › Plan/ })
      .first()
      .waitFor();
    await shot(page, 'plans-04-bought');
  });

  it('fits a phone', async () => {
    const phone = await phoneOf(browser, me.context);
    const mobile = await phone.newPage();
    await mobile.goto('/plans');
    await mobile.getByTestId('plan-basic').waitFor();
    await shot(mobile, 'plans-05-phone');
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await phone.close();
  });
});
