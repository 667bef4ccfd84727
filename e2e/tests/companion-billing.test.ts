import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { allowConsole, launchBrowser, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { signUpAndIn, type SignedIn } from '../support/accounts';
import { codeIn, linkIn, waitForMail } from '../support/mail';

const baseUrl = inject('baseUrl');

type Invoice = { id: string; number: string | null; paymentStatus: string };

/** YYYY-MM-DD `years` ago today. */
const yearsAgo = (years: number) => {
  const d = new Date();
  d.setFullYear(d.getFullYear() - years);
  return d.toISOString().slice(0, 10);
};

/**
 * The patient's «Consentimientos» and «Facturas» in the companion (issue 15), in Chromium on a phone:
 * a therapist with Stripe connected on the built-in sandbox (through its onboarding page) sends a
 * consent and issues an invoice (API) to a patient connected by the mailed link and code. The patient
 * sees the consent waiting, signs it on the signing page reached from «Firmar» and downloads it signed;
 * pays the invoice on the sandbox checkout and sees it «Pagada», downloads its PDF; saves a card,
 * switches «Cobros automáticos» off and on (mouse and keyboard) and removes the card after confirming.
 */
describe.skipIf(!hasChromium || !baseUrl)('companion: consents, invoices and the saved card', () => {
  let browser: Browser;
  let me: SignedIn;
  let phone: BrowserContext;
  let page: Page;
  let patientId = '';
  let invoice: Invoice;
  const email = `elena-${Date.now()}@example.com`;
  const title = 'Consentimiento informado de Elena Martín';
  const money = (text: string) => text.replace(/\s/g, '\\s');
  const tab = (name: string) => page.getByRole('navigation', { name: 'Secciones' }).getByRole('link', { name });

  beforeAll(async () => {
    browser = await launchBrowser();
    me = await signUpAndIn(browser, baseUrl, 'Sara');
    const res = await me.api.put('/me/billing', {
      fullName: 'Sara López Vidal',
      taxId: '12345678Z',
      line1: 'Calle Mayor 1',
      city: 'Madrid',
      zipCode: '28013',
      country: 'España',
      withholdingRate: 15,
    });
    expect(res.status).toBe(200);
    // Stripe connected through the sandbox's onboarding page, as in the payments test.
    await me.page.goto('/settings/billing');
    const account = me.page.getByTestId('payment-account');
    await account.getByRole('button', { name: 'Conectar con Stripe' }).click();
    await me.page.waitForURL(/\/sandbox\/stripe\/connect\//);
    await me.page.getByRole('button', { name: 'Completar datos de prueba' }).click();
    await me.page.waitForURL(/\/settings\/billing$/);
    await account.getByTestId('account-status').getByText('Activa').waitFor();

    patientId = (
      await me.call<{ id: string }>('POST', '/patients', { firstName: 'Elena', lastName: 'Martín', email, birthdate: yearsAgo(34) })
    ).id;
    phone = await browser.newContext({
      baseURL: baseUrl,
      locale: 'es-ES',
      timezoneId: 'Europe/Madrid',
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 1,
      colorScheme: 'light',
      hasTouch: true,
      isMobile: true,
      acceptDownloads: true,
    });
    page = await phone.newPage();

    // Connected from the mailed link with a mailed code.
    await me.call('POST', `/patients/${patientId}/connect`, { email });
    await page.goto(linkIn(await waitForMail(baseUrl, email, (m) => m.text.includes('/p/connect/')), '/p/connect'));
    await page.getByRole('button', { name: 'Enviarme un código' }).click();
    await page.getByRole('heading', { name: 'Escribe el código' }).waitFor();
    const code = await waitForMail(baseUrl, email, (m) => m.subject === 'Tu código de acceso a Diván');
    await page.getByRole('textbox', { name: 'Código' }).fill(codeIn(code));
    await page.getByRole('button', { name: 'Conectar' }).click();
    await page.waitForURL(new RegExp(`/p/${patientId}$`));

    const template = await me.call<{ id: string }>('POST', '/consent-templates', {
      name: 'Consentimiento informado',
      documentTitle: 'Consentimiento informado de {{paciente.nombre}}',
      data: { patient: ['fullName'] },
      sections: [{ title: 'Tratamiento', body: '<p>Atención psicológica en sesiones semanales.</p>' }],
      signatures: { patient: true },
    });
    await me.call('POST', '/consents', { patientId, templateId: template.id });
    const draft = await me.call<Invoice>('POST', '/invoices', {
      therapistId: me.userId,
      patientId,
      lines: [{ description: 'Sesión de psicoterapia', unitPriceCents: 6000 }],
    });
    invoice = await me.call<Invoice>('POST', `/invoices/${draft.id}/issue`);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the consent waiting for the signature, signs it from «Firmar» and downloads it signed', async () => {
    await tab('Consentimientos').click();
    await page.waitForURL(new RegExp(`/p/${patientId}/consentimientos$`));
    const row = page.getByTestId('consent-row').filter({ hasText: title });
    await row.getByTestId('consent-status').getByText('Pendiente de firmar').waitFor();
    await row.getByText(/^Enviado el \d{2}\/\d{2}\/\d{4} · Firma antes del \d{2}\/\d{2}\/\d{4}$/).waitFor();
    await page.getByText('Tienes 1 documento pendiente de firmar.').waitFor();
    expect(await row.getByRole('button', { name: /^Descargar/ }).count()).toBe(0);
    await shot(page, 'companion-billing-01-consents-phone');
    expect(JSON.stringify(await seriousA11yViolations(page), null, 1)).toBe('[]');

    await row.getByRole('button', { name: `Firmar ${title}` }).click();
    await page.waitForURL(/\/consents\/sign\//);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByRole('radio', { name: 'Escribir' }).click();
    await page.getByLabel('Escribe tu nombre como firma').fill('Elena Martín');
    await page.getByRole('button', { name: 'Firmar', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Documento firmado' }).waitFor();

    // The signing page leads back to the companion it was opened from.
    await page.getByRole('link', { name: 'Volver a tus documentos en Diván' }).click();
    await page.waitForURL(new RegExp(`/p/${patientId}/consentimientos$`));
    await row.getByTestId('consent-status').getByText('Firmado').waitFor();
    await row.getByText(/^Enviado el \d{2}\/\d{2}\/\d{4} · Firmado el \d{2}\/\d{2}\/\d{4}$/).waitFor();
    expect(await row.getByRole('button', { name: /^Firmar/ }).count()).toBe(0);
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: `Descargar ${title}` }).click()]);
    expect(download.suggestedFilename()).toBe(`${title}.pdf`);
    const bytes = await (await download.createReadStream()).toArray();
    expect(Buffer.concat(bytes).subarray(0, 5).toString()).toBe('%PDF-');
    await shot(page, 'companion-billing-02-consent-signed-phone');
  });

  it('says when the invoices cannot be read, and reads them again with «Reintentar»', async () => {
    await page.route('**/invoices', (route) => route.abort('internetdisconnected'));
    allowConsole({ text: /net::ERR_INTERNET_DISCONNECTED/, url: /\/invoices$/, because: 'the test drops the invoices read' });
    await page.goto(`/p/${patientId}/facturas`);
    const failure = page.getByTestId('invoices').getByTestId('error-state');
    await failure.getByRole('heading', { name: 'No se han podido cargar las facturas' }).waitFor();
    await page.unroute('**/invoices');
    await failure.getByRole('button', { name: 'Reintentar' }).click();
    await page.getByTestId('invoice-row').first().waitFor();
  });

  it('pays the invoice on the checkout, comes back to a notice and sees it «Pagada»; its PDF downloads', async () => {
    await page.goto(`/p/${patientId}`);
    await tab('Facturas').click();
    await page.waitForURL(new RegExp(`/p/${patientId}/facturas$`));
    const row = page.getByTestId('invoice-row').filter({ hasText: invoice.number! });
    await row.getByTestId('invoice-status').getByText('Pendiente de pago').waitFor();
    expect(await row.getByTestId('invoice-due').textContent()).toMatch(new RegExp(`^${money('60,00 €')}$`));
    await row.getByText(/^\d{2}\/\d{2}\/\d{4} · Sara/).waitFor();
    await page.getByTestId('card-block').getByRole('heading', { name: 'No tienes tarjeta guardada' }).waitFor();
    await shot(page, 'companion-billing-03-invoices-phone');
    expect(JSON.stringify(await seriousA11yViolations(page), null, 1)).toBe('[]');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: `Descargar PDF, factura ${invoice.number}` }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Factura .+\.pdf$/);

    await row.getByRole('button', { name: new RegExp(`^Pagar ${money('60,00 €')}`) }).click();
    await page.waitForURL(/\/sandbox\/stripe\/checkout\//);
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await page.waitForURL(new RegExp(`/p/${patientId}/facturas`));
    await page
      .getByTestId('return-notice')
      .getByText(/^Pago completado/)
      .waitFor();
    // The address drops ?estado= so a reload does not repeat the notice.
    await expect.poll(() => new URL(page.url()).search).toBe('');
    // The webhook marks it paid a moment later: the section reads again by itself.
    await row.getByTestId('invoice-status').getByText('Pagada').waitFor({ timeout: 20_000 });
    expect(await row.getByRole('button', { name: /^Pagar/ }).count()).toBe(0);
    expect(await row.getByTestId('invoice-due').count()).toBe(0);
    expect((await me.call<Invoice>('GET', `/invoices/${invoice.id}`)).paymentStatus).toBe('paid');
    await shot(page, 'companion-billing-04-invoice-paid-phone');
  });

  it('saves a card, switches «Cobros automáticos» off and on, and removes the card after confirming', async () => {
    const block = page.getByTestId('card-block');
    if (!page.url().endsWith('/facturas')) await page.goto(`/p/${patientId}/facturas`);
    await block.getByRole('button', { name: 'Guardar una tarjeta' }).click();
    await page.waitForURL(/\/sandbox\/stripe\/checkout\//);
    await page.getByRole('button', { name: 'Guardar tarjeta' }).click();
    await page.waitForURL(new RegExp(`/p/${patientId}/facturas`));
    await page
      .getByTestId('return-notice')
      .getByText(/^Tarjeta guardada/)
      .waitFor();
    // The webhook records the card a moment later: the block reads again by itself.
    await block.getByTestId('saved-card').waitFor({ timeout: 20_000 });
    await block.getByRole('heading', { name: 'Tarjeta guardada' }).waitFor();
    expect((await block.getByTestId('saved-card').innerText()).replace(/\s+/g, ' ')).toMatch(
      /^Visa •••• terminada en 4242 Caduca \d{2}\/\d{2}$/,
    );
    const toggle = block.getByRole('switch', { name: 'Cobros automáticos' });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await shot(page, 'companion-billing-05-card-phone');
    expect(JSON.stringify(await seriousA11yViolations(page), null, 1)).toBe('[]');

    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    await expect
      .poll(async () => (await me.call<{ autoCharge: boolean }>('GET', `/patients/${patientId}/payment-method`)).autoCharge)
      .toBe(false);
    await page.reload();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    await expect
      .poll(async () => (await me.call<{ autoCharge: boolean }>('GET', `/patients/${patientId}/payment-method`)).autoCharge)
      .toBe(true);

    // The server refusing (here, a network failure): the switch goes back and says why, in Spanish.
    await page.route('**/card/auto-charge', (route) => route.abort('internetdisconnected'));
    allowConsole({ text: /net::ERR_INTERNET_DISCONNECTED/, url: /\/card\/auto-charge$/, because: 'the test drops the switch' });
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    await block
      .getByRole('alert')
      .getByText(/conexión/i)
      .waitFor();
    await page.unroute('**/card/auto-charge');
    expect((await me.call<{ autoCharge: boolean }>('GET', `/patients/${patientId}/payment-method`)).autoCharge).toBe(true);

    await block.getByRole('button', { name: 'Quitar tarjeta' }).click();
    const dialog = page.getByRole('dialog', { name: '¿Quitar la tarjeta guardada?' });
    await dialog.waitFor();
    await shot(page, 'companion-billing-06-remove-card-phone');
    await dialog.getByRole('button', { name: 'Quitar tarjeta' }).click();
    await block.getByRole('heading', { name: 'No tienes tarjeta guardada' }).waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(await block.getByRole('switch').count()).toBe(0);
  });

  it('writes an amount of a thousand euros or more with the thousands point, «1.234,56 €», as every screen does', async () => {
    const draft = await me.call<Invoice>('POST', '/invoices', {
      therapistId: me.userId,
      patientId,
      // Past 400 € an invoice names its buyer with a NIF.
      buyer: { kind: 'patient', fullName: 'Elena Martín', taxId: '12345678Z' },
      lines: [{ description: 'Bono de veinte sesiones', unitPriceCents: 123456 }],
    });
    const big = await me.call<Invoice & { totalCents: number }>('POST', `/invoices/${draft.id}/issue`);
    expect(big.totalCents).toBe(123456);
    await page.goto(`/p/${patientId}/facturas`);
    const row = page.getByTestId('invoice-row').filter({ hasText: big.number! });
    await row.getByTestId('invoice-status').getByText('Pendiente de pago').waitFor();
    expect(await row.getByTestId('invoice-due').textContent()).toMatch(new RegExp(`^${money('1.234,56 €').replace('.', '\\.')}$`));
    await row.getByRole('button', { name: new RegExp(`^Pagar ${money('1.234,56 €').replace('.', '\\.')}`) }).waitFor();
  });
});
