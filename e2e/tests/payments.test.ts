import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { allowConsole, launchBrowser, newContext, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { signUpAndIn, type SignedIn } from '../support/accounts';
import { linkIn, waitForMail } from '../support/mail';

const baseUrl = inject('baseUrl');

type Invoice = {
  id: string;
  number: string | null;
  status: string;
  kind: string;
  paymentStatus: string;
  paymentType: string | null;
  totalCents: number;
  rectifies: { id: string } | null;
};

/**
 * Card payments on the built-in sandbox (no Stripe keys), in Chromium: the therapist connects Stripe
 * through the sandbox's onboarding page, mails a patient the link to save a card, the patient (signed
 * out, on a phone) saves it on the sandbox's checkout page, the card shows in the patient's tab, a
 * pending invoice is charged and turns «Pagada» when the webhook says so, then is refunded with its
 * rectifying invoice; a 0,40 € invoice says why it cannot be charged. Data comes through the API.
 */
describe.skipIf(!hasChromium || !baseUrl)('payments: connect Stripe, save a card by link, charge and refund', () => {
  let browser: Browser;
  let me: SignedIn;
  let page: Page;
  let patient: BrowserContext;
  let patientId = '';
  let invoiceId = '';
  const patientEmail = `lucia.${Date.now()}@example.com`;
  const money = (text: string) => text.replace(/\s/g, '\\s');
  const issue = async (cents: number) => {
    const draft = await me.call<Invoice>('POST', '/invoices', {
      therapistId: me.userId,
      patientId,
      lines: [{ description: 'Sesión de psicoterapia', unitPriceCents: cents }],
    });
    return me.call<Invoice>('POST', `/invoices/${draft.id}/issue`);
  };
  const screenshots = resolve(import.meta.dirname, '../screenshots');
  /** Desktop, then the same screen on a phone; with `part`, that part alone too (a close look at the new card or panel). */
  const shots = async (name: string, part?: Locator) => {
    await shot(page, `${name}-desktop`);
    if (part) await part.screenshot({ path: join(screenshots, `${name}-desktop-part.png`) });
    await page.setViewportSize({ width: 375, height: 812 });
    await shot(page, `${name}-phone`);
    if (part) await part.screenshot({ path: join(screenshots, `${name}-phone-part.png`) });
    await page.setViewportSize({ width: 1280, height: 820 });
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    me = await signUpAndIn(browser, baseUrl, 'Marta');
    page = me.page;
    const res = await me.api.put('/me/billing', {
      fullName: 'Marta Ruiz Sanz',
      taxId: '12345678Z',
      line1: 'Calle Mayor 1',
      city: 'Madrid',
      zipCode: '28013',
      country: 'España',
      withholdingRate: 15,
    });
    expect(res.status).toBe(200);
    patientId = (await me.call<{ id: string }>('POST', '/patients', { firstName: 'Lucía', lastName: 'Romero', email: patientEmail })).id;
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('connects Stripe from Ajustes › Facturación through the sandbox onboarding page', async () => {
    await page.goto('/settings/billing');
    const card = page.getByTestId('payment-account');
    await card.getByRole('heading', { name: 'Cobros con tarjeta (Stripe)' }).waitFor();
    await card.getByTestId('account-status').getByText('Sin conectar').waitFor();
    await card.getByTestId('test-mode').waitFor();
    await card.getByText(/no se mueve dinero real/i).waitFor();
    await card.getByRole('button', { name: 'Conectar con Stripe' }).click();
    await page.waitForURL(/\/sandbox\/stripe\/connect\//);
    await page.getByRole('button', { name: 'Completar datos de prueba' }).click();
    // Back through settings/billing/stripe-onboarding (sync), then to the settings, which say what Stripe answered.
    await page.waitForURL(/\/settings\/billing$/);
    await card.getByTestId('account-status').getByText('Activa').waitFor();
    await card.getByText('Cuenta de Stripe conectada: ya puedes cobrar con tarjeta.').waitFor();
    // Stripe's dashboard opens in a new tab, through settings/billing/stripe-dashboard (its links are single-use).
    const [tab] = await Promise.all([
      page.context().waitForEvent('page'),
      card.getByRole('link', { name: /Abrir panel de Stripe/ }).click(),
    ]);
    await tab.waitForURL(/\/sandbox\/stripe\/dashboard\//);
    await tab.close();
    await shots('payments-01-settings', card);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it("shows the workspace's own account apart, not connected", async () => {
    await page.goto('/settings/workspace/billing');
    const card = page.getByTestId('payment-account');
    await card.getByTestId('account-status').getByText('Sin conectar').waitFor();
    await card.getByRole('button', { name: 'Conectar con Stripe' }).waitFor();
    await shots('payments-02-workspace-settings', card);
  });

  it('mails the patient a link to save a card from their «Facturación» tab', async () => {
    await page.goto(`/patients/${patientId}/billing`);
    const section = page.getByTestId('patient-card');
    await section.getByRole('heading', { name: 'Tarjeta y cobros' }).waitFor();
    await section.getByText('Sin tarjeta guardada').waitFor();
    await section.getByText(/los guarda Stripe/).waitFor();
    await section.getByRole('button', { name: 'Enviar enlace para guardar tarjeta' }).click();
    await section.getByText(`Enlace enviado por email a ${patientEmail}.`).waitFor();
    await section
      .getByTestId('pending-link')
      .getByText(/Hay un enlace esperando a que la guarde: caduca el \d{2}\/\d{2}\/\d{4} a las \d{2}:\d{2}\./)
      .waitFor();
    await shots('payments-03-patient-card-link', section);
  });

  it('the patient opens the mailed link on a phone and saves a card on the sandbox checkout', async () => {
    const mail = await waitForMail(baseUrl, patientEmail, (m) => m.text.includes('/pago/'));
    expect(mail.subject).toContain('Marta');
    patient = await newContext(browser, baseUrl, { mobile: true });
    const phone = await patient.newPage();
    await phone.goto(linkIn(mail, '/pago'));
    await phone.getByRole('heading', { name: 'Guarda tu tarjeta' }).waitFor();
    await phone.getByTestId('test-mode').waitFor();
    expect(await phone.getByTestId('mandate').textContent()).toContain('Al guardar tu tarjeta autorizas a Marta');
    await shot(phone, 'payments-04-public-card-phone');
    expect(await seriousA11yViolations(phone)).toEqual([]);
    await phone.getByRole('button', { name: 'Guardar tarjeta' }).click();
    await phone.waitForURL(/\/sandbox\/stripe\/checkout\//);
    expect(await phone.getByLabel('Número de tarjeta').inputValue()).toBe('4242 4242 4242 4242');
    await phone.getByRole('button', { name: 'Guardar tarjeta' }).click();
    await phone.waitForURL(/\/pago\/[\w-]+\?estado=tarjeta$/);
    await phone.getByRole('heading', { name: 'Tarjeta guardada. Ya puedes cerrar esta página.' }).waitFor();
    await shot(phone, 'payments-05-public-card-saved-phone');
  });

  it("shows the saved card in the patient's tab, with automatic charges on", async () => {
    const section = page.getByTestId('patient-card');
    // The card is recorded by the webhook: read the tab again until it shows.
    await expect
      .poll(
        async () => {
          await page.reload();
          await section.getByRole('heading', { name: 'Tarjeta y cobros' }).waitFor();
          return section.getByTestId('saved-card').count();
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toBe(1);
    expect(await section.getByTestId('saved-card').textContent()).toMatch(
      /^Visa ···· 4242Caduca \d{2}\/\d{2} · mandato aceptado el \d{2}\/\d{2}\/\d{4}$/,
    );
    expect(await section.getByRole('switch', { name: 'Cobros automáticos' }).getAttribute('aria-checked')).toBe('true');
    await section.getByRole('button', { name: 'Quitar tarjeta' }).waitFor();
    await shots('payments-06-patient-card-saved', section);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('charges a pending invoice after confirming; the webhook marks it «Pagada»', async () => {
    invoiceId = (await issue(6000)).id;
    await page.goto(`/billing/editor/${invoiceId}`);
    const panel = page.getByTestId('payment-panel');
    await panel.getByTestId('test-mode').waitFor();
    await shots('payments-07-invoice-pending', panel);
    await panel.getByRole('button', { name: 'Cobrar con tarjeta' }).click();
    const confirm = page.getByRole('alertdialog', {
      name: new RegExp(`^¿Cobrar ${money('60,00 €')} con la tarjeta guardada del paciente\\?$`),
    });
    await confirm.getByRole('button', { name: new RegExp(`^Cobrar ${money('60,00 €')}$`) }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByText('Pagada', { exact: true }).waitFor({ timeout: 20_000 });
    await panel.getByText('Stripe ha confirmado el cobro: la factura está pagada.').waitFor();
    await panel.getByTestId('attempts').getByText('Cobrado').waitFor();
    expect(await me.call<Invoice>('GET', `/invoices/${invoiceId}`)).toMatchObject({ paymentStatus: 'paid', paymentType: 'stripe_connect' });
    expect(await panel.getByRole('button', { name: 'Cobrar con tarjeta' }).count()).toBe(0);
    await shots('payments-08-invoice-paid', panel);
  });

  it('refunds it whole, with a reason, and links the rectifying invoice', async () => {
    const panel = page.getByTestId('payment-panel');
    await panel.getByRole('button', { name: 'Devolver' }).click();
    const dialog = page.getByRole('dialog', { name: /^Devolver el pago de la factura/ });
    await dialog.getByRole('radio', { name: /^Todo: 60,00/ }).waitFor();
    // A part cannot be more than what was paid; the reason is required.
    await dialog.getByRole('radio', { name: 'Una parte' }).check();
    await dialog.getByLabel('Importe a devolver (€)').fill('100');
    await dialog.getByRole('button', { name: 'Devolver', exact: true }).click();
    await dialog.getByText(new RegExp(`^Escribe un importe mayor que 0 y como mucho ${money('60,00 €')}`)).waitFor();
    await dialog.getByRole('radio', { name: /^Todo: 60,00/ }).check();
    await dialog.getByRole('button', { name: new RegExp(`^Devolver ${money('60,00 €')}$`) }).click();
    await dialog.getByText('Escribe el motivo: aparece en la factura rectificativa.').waitFor();
    await shot(page, 'payments-09-refund-dialog');
    await dialog.getByLabel('Motivo').fill('Sesión cancelada por la terapeuta');
    await dialog.getByRole('button', { name: new RegExp(`^Devolver ${money('60,00 €')}$`) }).click();
    await dialog.waitFor({ state: 'detached' });
    const done = panel.getByTestId('refund-done');
    await done.getByText(/Se ha emitido la factura rectificativa/).waitFor();
    const { items } = await me.call<{ items: Invoice[] }>('GET', '/invoices?status=issued');
    const rectifying = items.find((i) => i.rectifies?.id === invoiceId)!;
    expect(rectifying).toMatchObject({ kind: 'rectifying', totalCents: -6000 });
    await panel.getByTestId('refunds').getByText('Devuelto').waitFor();
    await panel.getByTestId('refunds').getByText('Motivo: Sesión cancelada por la terapeuta').waitFor();
    await expect.poll(async () => (await me.call<Invoice>('GET', `/invoices/${invoiceId}`)).paymentStatus).toBe('refunded');
    await shots('payments-10-invoice-refunded', panel);
    await done.getByRole('link', { name: rectifying.number! }).click();
    await page.getByRole('heading', { name: `Factura ${rectifying.number}` }).waitFor();
  });

  it('says why a 0,40 € invoice cannot be charged', async () => {
    const low = await issue(40);
    await page.goto(`/billing/editor/${low.id}`);
    const panel = page.getByTestId('payment-panel');
    const button = panel.getByRole('button', { name: 'Cobrar con tarjeta' });
    await panel.getByTestId('charge-block').getByText('Solo se pueden cobrar con tarjeta importes superiores a 0,50 €.').waitFor();
    expect(await button.isDisabled()).toBe(true);
    // The reason is the button's description for screen readers too; the manual payment stays.
    expect(await button.getAttribute('aria-describedby')).toBe(await panel.getByTestId('charge-block').getAttribute('id'));
    await page.getByRole('button', { name: 'Registrar pago' }).waitFor();
    await shots('payments-11-invoice-too-low', panel);
  });

  it('the patient pays an invoice from a pay link; the link then says it is paid', async () => {
    const inv = await issue(6000);
    const { url } = await me.call<{ url: string }>('POST', `/invoices/${inv.id}/pay-link`, { send: false });
    const phone = await patient.newPage();
    await phone.goto(url);
    const box = phone.getByTestId('invoice');
    await box.getByText(inv.number!, { exact: true }).waitFor();
    await box.getByText(new RegExp(`^${money('60,00 €')}$`)).waitFor();
    await shot(phone, 'payments-12-public-invoice-phone');
    expect(await seriousA11yViolations(phone)).toEqual([]);
    await phone.getByRole('button', { name: new RegExp(`^Pagar ${money('60,00 €')}$`) }).click();
    await phone.waitForURL(/\/sandbox\/stripe\/checkout\//);
    await phone.getByRole('button', { name: /^Pagar/ }).click();
    await phone.waitForURL(/\/pago\/[\w-]+\?estado=pagado$/);
    await phone.getByRole('heading', { name: 'Pago recibido: tu terapeuta lo verá en cuanto el banco lo confirme.' }).waitFor();
    await expect.poll(async () => (await me.call<Invoice>('GET', `/invoices/${inv.id}`)).paymentStatus, { timeout: 15_000 }).toBe('paid');
    await phone.goto(url);
    await phone.getByRole('heading', { name: 'Esta factura ya está pagada' }).waitFor();
    expect(await phone.getByRole('button', { name: /^Pagar/ }).count()).toBe(0);
  });

  it('the public page says when a link is not valid', async () => {
    const phone = await patient.newPage();
    allowConsole({
      text: /status of 404/,
      url: /\/public\/payment-links\/este-enlace-no-existe-0123456789abcdef$/,
      because: 'a link that does not exist',
    });
    await phone.goto('/pago/este-enlace-no-existe-0123456789abcdef');
    await phone.getByRole('heading', { name: 'Este enlace no es válido o ha caducado' }).waitFor();
    await phone.getByText(/Pide uno nuevo a tu terapeuta/).waitFor();
  });

  it("sells a session pack from the patient's tab; a completed session consumes it", async () => {
    await page.goto(`/patients/${patientId}/billing`);
    const packs = page.getByTestId('packs');
    await packs.getByText('No tiene bonos.').waitFor();
    await page.getByRole('button', { name: 'Vender bono' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByLabel('Sesiones').fill('4');
    await dialog.getByLabel('Precio del bono (€)').fill('200,00');
    await dialog.getByRole('button', { name: new RegExp(`Emitir factura de ${money('200,00 €')}`) }).click();
    await packs.getByText('Bono de 4 sesiones').waitFor();
    await packs.getByText(/0 de 4 usadas · quedan 4/).waitFor();
    // A session completed through the API consumes it.
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const { session } = await me.call<{ session: { id: string } }>('POST', '/sessions', {
      patientId,
      therapistId: me.userId,
      day,
      from: '10:00',
      to: '10:50',
      price: 5000,
    });
    await me.call('POST', `/sessions/${session.id}/complete`);
    await page.reload();
    await packs.getByText(/1 de 4 usadas · quedan 3/).waitFor();
    await shots('payments-13-packs', packs);
  });

  it("charges and refunds from the row of an invoice in the patient's tab, each after confirming", async () => {
    const inv = await issue(4500);
    await page.goto(`/patients/${patientId}/billing`);
    const menu = page.getByRole('button', { name: new RegExp(`^Acciones de la factura ${inv.number} `) });
    await menu.click();
    await page.getByRole('menuitem', { name: 'Cobrar con tarjeta…' }).click();
    const ask = page.getByRole('alertdialog', { name: new RegExp(`¿Cobrar ${money('45,00 €')} con la tarjeta guardada\\?`) });
    await ask.getByRole('button', { name: new RegExp(`^Cobrar ${money('45,00 €')}$`) }).click();
    await expect.poll(async () => (await me.call<Invoice>('GET', `/invoices/${inv.id}`)).paymentStatus, { timeout: 15_000 }).toBe('paid');
    await page.reload();
    await menu.click();
    await page.getByRole('menuitem', { name: 'Devolver…' }).click();
    const dialog = page.getByRole('dialog', { name: /^Devolver el pago de la factura/ });
    await dialog.getByLabel('Motivo').fill('Cobro duplicado');
    await dialog.getByRole('button', { name: new RegExp(`^Devolver ${money('45,00 €')}$`) }).click();
    await expect
      .poll(async () => (await me.call<Invoice>('GET', `/invoices/${inv.id}`)).paymentStatus, { timeout: 15_000 })
      .toBe('refunded');
  });
});
