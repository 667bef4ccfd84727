import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { pdfLayoutText, skipPdfChecks } from '../../apps/server/src/test/pdf-tools';
import { launchBrowser, phoneOf, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { ok } from '../support/api';
import { signUpAndIn, type SignedIn } from '../support/accounts';
import { allowConsole } from '../support/page-errors';

const baseUrl = inject('baseUrl');

type DivanInvoice = { id: string; number: string; total: number; vat: number; vatRate: number };

/**
 * Ajustes › Pagos (issue 27, slice 3) in Chromium, on the sandbox's Billing: a new therapist's first
 * «Contratar» asks who Diván invoices (Spain, a NIF, Madrid), goes on to the hosted Checkout once they are
 * saved, and after paying Premium monthly finds Diván's invoice on Ajustes › Pagos — its PDF with IVA
 * at 21 % and the total — with the billing data and the tax they give.
 */
describe.skipIf(!hasChromium || !baseUrl)('plans: Ajustes › Pagos after a first Premium', () => {
  let browser: Browser;
  let me: SignedIn;
  let page: Page;
  const money = (cents: number) => new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' }).format(cents / 100);
  const invoices = async () =>
    (await ok(me.api.request<{ items: DivanInvoice[] }>('GET', `/workspaces/${me.workspaceId}/billing/invoices`))).items;

  beforeAll(async () => {
    browser = await launchBrowser();
    me = await signUpAndIn(browser, baseUrl, 'Irene');
    page = me.page;
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('asks for the billing data at the first «Contratar», saves them and goes on to the Checkout', async () => {
    allowConsole({
      text: /status of 409/,
      url: /\/billing\/checkout$/,
      because: 'the first Checkout is refused until the billing data are saved (billing_details_missing)',
    });
    await page.goto('/plans');
    await page.getByTestId('plan-advance').getByRole('button', { name: 'Contratar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Datos de facturación' });
    await dialog.getByText(/a ese nombre y NIF irán las facturas de Diván/).waitFor();
    // The shared schema's Spanish messages, before anything is sent.
    await dialog.getByLabel('NIF, NIE o CIF').fill('12345678A');
    await dialog.getByRole('button', { name: 'Guardar y continuar al pago' }).click();
    await dialog.getByText('El NIF o CIF no es válido: revisa el carácter de control.').waitFor();
    await dialog.getByText('El campo nombre o razón social es obligatorio').waitFor();
    await dialog.getByLabel('Nombre o razón social').fill('Irene Gil Soto');
    await dialog.getByLabel('NIF, NIE o CIF').fill('12345678Z');
    await dialog.getByLabel('Dirección').fill('Calle de Alcalá 10');
    await dialog.getByLabel('Código postal').fill('28001');
    await dialog.getByLabel('Ciudad').fill('Madrid');
    expect(await dialog.getByLabel('País').inputValue()).toBe('ES');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'plans-payments-01-details-dialog');
    await dialog.getByRole('button', { name: 'Guardar y continuar al pago' }).click();

    await page.waitForURL(/\/sandbox\/stripe\/checkout\/cs_test_/);
    await page
      .getByText(/29,00\s€/)
      .first()
      .waitFor();
    await page.getByLabel('Número de tarjeta').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Suscribirse' }).click();
    await page.waitForURL(/\/plans\/payment-success\?session_id=cs_test_/);
    await page.getByRole('heading', { name: 'Ya tienes Premium' }).waitFor({ timeout: 30_000 });
    const ws = await ok(me.api.request<{ plan: { id: string } }>('GET', `/workspaces/${me.workspaceId}`));
    expect(ws.plan.id).toBe('advance');
  });

  it('shows on Ajustes › Pagos the billing data, the IVA they give and Diván’s one invoice', async () => {
    await page.goto('/settings/profile');
    await page.getByRole('navigation', { name: 'Ajustes' }).getByRole('link', { name: 'Pagos', exact: true }).click();
    await page.waitForURL(/\/settings\/payments$/);
    await page.getByRole('heading', { name: 'Pagos', level: 2, exact: true }).waitFor();
    const form = page.getByRole('form', { name: 'Datos de facturación de Diván' });
    await expect.poll(() => form.getByLabel('Nombre o razón social').inputValue()).toBe('Irene Gil Soto');
    expect(await form.getByLabel('NIF, NIE o CIF').inputValue()).toBe('12345678Z');
    expect(await form.getByLabel('Código postal').inputValue()).toBe('28001');
    await page.getByTestId('divan-tax').getByText('Las facturas de Diván llevarán IVA del 21 %.').waitFor();
    await page.getByRole('button', { name: 'Gestionar tarjetas' }).waitFor();

    // Diván's invoice is issued when the provider says the plan is paid: a moment after the success page.
    await expect.poll(async () => (await invoices()).length, { timeout: 30_000 }).toBe(1);
    const [invoice] = await invoices();
    expect(invoice).toMatchObject({ vatRate: 21, vat: 609, total: 3509 });
    await page.reload();
    const row = page.getByTestId('divan-invoice');
    await row.getByText(invoice!.number).waitFor();
    expect((await row.getByTestId('divan-invoice-total').textContent())?.replace(/\u00a0/g, ' ')).toBe(money(3509).replace(/\u00a0/g, ' '));
    expect(await row.count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'plans-payments-02-settings');
  });

  it('downloads the invoice’s PDF from the keyboard: IVA at 21 % and the total', async () => {
    const [invoice] = await invoices();
    const button = page.getByRole('button', { name: `Descargar el PDF de la factura ${invoice!.number}` });
    await button.focus();
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const pdf = await readFile((await download.path())!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    if (skipPdfChecks) return;
    const text = pdfLayoutText(pdf)
      .replace(/\u00a0/g, ' ')
      .replace(/\s+/g, ' ');
    expect(text).toContain(invoice!.number);
    expect(text).toContain('IVA');
    expect(text).toContain('21');
    expect(text).toContain('35,09 €');
    expect(text).toContain('12345678Z');
  });

  it('fits a phone', async () => {
    const phone = await phoneOf(browser, me.context);
    const mobile = await phone.newPage();
    await mobile.goto('/settings/payments');
    await mobile.getByTestId('divan-invoice').waitFor();
    await shot(mobile, 'plans-payments-03-phone');
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await phone.close();
  });

  it('a business elsewhere in the EU: VIES not knowing its NIF-IVA means IVA, and once corrected and verified, none', async () => {
    const form = page.getByRole('form', { name: 'Datos de facturación de Diván' });
    const vat = page.getByTestId('vat-check');
    await form.getByLabel('Nombre o razón social').fill('Cabinet Irène SARL');
    await form.getByLabel('País').selectOption('FR');
    await form.getByLabel('NIF-IVA (opcional)').fill('FR12111111111');
    await form.getByLabel('Código postal').fill('75001');
    await form.getByLabel('Ciudad').fill('París');
    await form.getByRole('button', { name: 'Guardar datos' }).click();
    // The provider's verdict arrives by its webhook: the page, read again, says it.
    await expect
      .poll(async () => {
        await page.reload();
        return vat.textContent();
      })
      .toContain('VIES no reconoce este NIF-IVA');
    await page.getByTestId('divan-tax').getByText('Las facturas de Diván llevarán IVA del 21 %.').waitFor();
    await shot(page, 'plans-payments-04-vies-unknown');
    await form.getByLabel('NIF-IVA (opcional)').fill('FR40303265045');
    await form.getByRole('button', { name: 'Guardar datos' }).click();
    await expect
      .poll(async () => {
        await page.reload();
        return vat.textContent();
      })
      .toBe('NIF-IVA comprobado en VIES: CABINET IRÈNE SARL.');
    await page
      .getByTestId('divan-tax')
      .getByText(/sin IVA/)
      .waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'plans-payments-05-vies-verified');
  });
});
