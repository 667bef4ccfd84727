import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, scriptKilobytes, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { signUpAndIn, type SignedIn } from '../support/accounts';
import { site } from '../support/api';
import { madridIsoDay } from '../support/days';
import { codeIn, linkIn, waitForMail } from '../support/mail';

const baseUrl = inject('baseUrl');

type Session = { id: string; day: string; from: string; status: string; patient: { id: string; name: string } | null };
const every = (from: string, to: string) => Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((d) => [d, [{ from, to }]]));

/**
 * Open booking from the visitor's side (issue 14), in Chromium: the public page of a therapist's
 * service on a phone in the Canary Islands (an hour behind Madrid, so each hour shows both clocks), a
 * blocked day offered nothing, a slot booked as a new patient with the mailed code; the session in the
 * therapist's calendar and the patient in the list; the booking cancelled from the mailed link; the
 * page embedded by embed.js in a page of another origin; the pages' JavaScript within 80 KB gzipped.
 */
describe.skipIf(!hasChromium || !baseUrl)('public booking', () => {
  let browser: Browser;
  let me: SignedIn;
  let visitor: BrowserContext;
  let page: Page;
  let serviceId: string;
  let manageLink: string;
  const blocked = madridIsoDay(3);
  const email = `nora-${Date.now()}@example.com`;

  beforeAll(async () => {
    browser = await launchBrowser();
    me = await signUpAndIn(browser, baseUrl, 'Lucía');
    serviceId = (
      await me.call<{ id: string }>('POST', '/booking-services', {
        title: 'Primera consulta',
        description: 'Una primera sesión para conocernos y ver cómo puedo ayudarte.',
        schedule: every('09:00', '14:00'),
        priceCents: 6000,
        modality: 'online',
        durationMinutes: 50,
        gapMinutes: 10,
        minNotice: { amount: 1, unit: 'hours' },
        maxNotice: { amount: 2, unit: 'months' },
      })
    ).id;
    await me.call('POST', '/availability-overrides', { dates: [{ day: blocked, allDay: true }] });
    visitor = await browser.newContext({
      baseURL: baseUrl,
      locale: 'es-ES',
      timezoneId: 'Atlantic/Canary',
      viewport: { width: 375, height: 812 },
      colorScheme: 'light',
    });
    page = await visitor.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('books a free hour on a phone as a new patient, with the code mailed to them', async () => {
    await page.goto(`/v1/reservations/${me.workspaceId}`);
    await page.getByRole('heading', { name: /Lucía/ }).first().waitFor();
    await shot(page, 'booking-public-01-index-phone');
    await page.getByRole('link', { name: 'Reservar Primera consulta' }).click();
    await page.waitForURL(new RegExp(`/v1/reservations/${me.workspaceId}/${me.userId}/${serviceId}$`));

    // The blocked day offers nothing; a free one shows its hours in the visitor's zone and Madrid's.
    if (blocked.slice(0, 7) !== madridIsoDay(0).slice(0, 7)) await page.getByRole('button', { name: 'Mes siguiente' }).click();
    const blockedDay = page
      .getByRole('grid')
      .getByRole('button', { name: /sin horas libres/ })
      .and(page.locator(`[data-day="${blocked}"]`));
    await blockedDay.waitFor();
    expect(await blockedDay.getAttribute('aria-disabled')).toBe('true');
    await page
      .getByRole('grid')
      .getByRole('button', { name: /con horas libres/ })
      .first()
      .click();
    const first = page.getByRole('button', { name: /^\d\d:\d\d.*Madrid/ }).first();
    await first.waitFor();
    await shot(page, 'booking-public-02-slots-phone');
    expect(JSON.stringify(await seriousA11yViolations(page), null, 1)).toBe('[]');
    await first.click();

    // The form keeps what was typed when a field is refused.
    await page.getByRole('heading', { name: 'Tus datos' }).waitFor();
    await page.getByLabel('Nombre').fill('Nora');
    await page.getByLabel('Apellidos').fill('Vidal');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.locator('#phone-error').waitFor();
    expect(await page.getByLabel('Nombre').inputValue()).toBe('Nora');
    await page.getByLabel('Teléfono').fill('612 345 678');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Continuar' }).click();

    await page.getByRole('heading', { name: 'Confirma tu email' }).waitFor();
    const code = codeIn(await waitForMail(baseUrl, email, (mail) => /código/i.test(mail.subject) || /código/i.test(mail.text)));
    await page.getByLabel('Código').fill(code);
    await page.getByRole('button', { name: 'Confirmar reserva' }).click();
    await page.getByRole('heading', { name: 'Reserva confirmada' }).waitFor();
    await shot(page, 'booking-public-03-booked-phone');

    const confirmation = await waitForMail(baseUrl, email, (mail) => mail.text.includes('/v1/reservations/manage/'));
    manageLink = linkIn(confirmation, '/v1/reservations/manage');
  });

  it("puts the session in the therapist's calendar and the new patient in the list", async () => {
    const from = `${madridIsoDay(-1)}T00:00:00Z`;
    const to = `${madridIsoDay(40)}T00:00:00Z`;
    const [session] = (await me.call<{ items: Session[] }>('GET', `/sessions?from=${from}&to=${to}`)).items;
    expect(session).toMatchObject({ status: 'pending', patient: { name: 'Nora Vidal' } });

    await me.page.goto(`/calendar?view=week&date=${session!.day}`);
    await me.page.locator(`.ec-event[data-session-id="${session!.id}"]`).filter({ hasText: 'Nora Vidal' }).waitFor();
    await me.page.goto('/patients');
    await me.page
      .getByRole('link', { name: /Nora Vidal/ })
      .first()
      .waitFor();
  });

  it('cancels from the mailed link, after asking', async () => {
    await page.goto(manageLink);
    await page.getByRole('heading', { name: 'Tu reserva' }).waitFor();
    await shot(page, 'booking-public-04-manage-phone');
    await page.getByRole('button', { name: 'Cancelar reserva' }).click();
    await page.getByRole('button', { name: 'Sí, cancelar la reserva' }).click();
    await page.getByRole('heading', { name: 'Reserva cancelada' }).waitFor();
    const from = `${madridIsoDay(-1)}T00:00:00Z`;
    const to = `${madridIsoDay(40)}T00:00:00Z`;
    const [session] = (await me.call<{ items: Session[] }>('GET', `/sessions?from=${from}&to=${to}`)).items;
    expect(session?.status).toBe('canceled');
  });

  it('works inside a page of another origin once the therapist allows it, with the code from «Insertar en tu web»', async () => {
    // Another origin: the same machine by another name and port. Its page is whatever the therapist pastes.
    const host = new URL(baseUrl).hostname === 'localhost' ? '127.0.0.1' : 'localhost';
    let pasted = '';
    const theirs: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="es"><head><title>Consulta Lucía</title></head><body><h1>Consulta Lucía</h1>${pasted}</body></html>`,
      );
    });
    await new Promise<void>((resolve, reject) => theirs.once('error', reject).listen(0, host, resolve));
    const origin = `http://${host}:${(theirs.address() as AddressInfo).port}`;
    try {
      const before = await site.get(`/v1/reservations/${me.workspaceId}`, { timeoutMs: 30_000 });
      expect(before.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
      expect(before.headers.get('content-security-policy')).not.toContain(origin);

      const setup = me.page;
      await setup.goto('/calendar/services');
      const embed = setup.getByRole('region', { name: 'Insertar en tu web' });
      await embed.getByLabel('Añadir una web').fill(`${origin}/reservas`);
      await embed.getByRole('button', { name: 'Añadir' }).click();
      // Core's rule at the field: only the origin, no path.
      await embed.getByText('Escribe solo el origen de tu web, como https://www.tuconsulta.es').waitFor();
      await embed.getByLabel('Añadir una web').fill(origin);
      await embed.getByRole('button', { name: 'Añadir' }).click();
      await embed.getByRole('button', { name: 'Guardar webs' }).click();
      await embed.getByRole('list', { name: 'Webs permitidas' }).getByText(origin).waitFor();
      await expect
        .poll(async () => (await me.call<{ allowedOrigins: string[] }>('GET', '/booking-embed')).allowedOrigins)
        .toEqual([origin]);
      await shot(setup, 'booking-public-05-embed-setup');
      pasted = await embed.getByLabel('Código: Dentro de tu página', { exact: true }).inputValue();
      expect(pasted).toContain(`${baseUrl}/embed.js`);

      const after = await site.get(`/v1/reservations/${me.workspaceId}`, { timeoutMs: 30_000 });
      expect(after.headers.get('content-security-policy')).toContain(`frame-ancestors 'self' ${origin}`);

      const outside = await (await browser.newContext({ locale: 'es-ES', viewport: { width: 1024, height: 800 } })).newPage();
      await outside.goto(origin);
      const frame = outside.frameLocator('iframe');
      await frame.getByRole('link', { name: 'Reservar Primera consulta' }).waitFor();
      // The iframe takes its content's height (posted by the page), not a fixed box with a scroll bar.
      await expect.poll(async () => (await outside.locator('iframe').boundingBox())?.height ?? 0).toBeGreaterThan(300);
      await shot(outside, 'booking-public-06-embedded');

      // The button code: the page opens over the site in a dialog; Escape pressed inside the booking
      // page (focus in the cross-origin frame) closes it and the focus is back on the button.
      pasted = await embed.getByLabel('Código: Botón «Reservar cita»', { exact: true }).inputValue();
      await outside.goto(origin);
      const open = outside.getByRole('button', { name: 'Reservar cita' });
      await open.click();
      const dialog = outside.getByRole('dialog', { name: 'Reserva online' });
      await dialog.frameLocator('iframe').getByRole('link', { name: 'Reservar Primera consulta' }).focus();
      // The page closes on keydown, and the frame goes with it: Playwright's press can then wait for ever on
      // the keyup of a frame that no longer exists (seen in full runs), so the dialog going is what we wait for.
      await Promise.race([outside.keyboard.press('Escape'), dialog.waitFor({ state: 'detached' })]);
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => open.evaluate((el) => el === document.activeElement)).toBe(true);
      await outside.context().close();
    } finally {
      theirs.close();
    }
  });

  it('keeps the JavaScript of the booking pages within 80 KB gzipped', async () => {
    // Each in a fresh context: nothing cached from the other.
    const measure = async (path: string) => {
      const fresh = await (await browser.newContext({ baseURL: baseUrl })).newPage();
      const kb = await scriptKilobytes(fresh, path);
      await fresh.context().close();
      return kb;
    };
    const index = await measure(`/v1/reservations/${me.workspaceId}`);
    const service = await measure(`/v1/reservations/${me.workspaceId}/${me.userId}/${serviceId}`);
    console.log(`gzipped JS loaded: booking index ${index.toFixed(1)} KB, service ${service.toFixed(1)} KB`);
    expect(index).toBeLessThanOrEqual(80);
    expect(service).toBeLessThanOrEqual(80);
  });

  it('writes a price of a thousand euros or more with the thousands point, «1.234,56 €», on the index and the service page', async () => {
    const intensive = (
      await me.call<{ id: string }>('POST', '/booking-services', {
        title: 'Programa intensivo',
        schedule: every('15:00', '19:00'),
        priceCents: 123456,
        modality: 'online',
        durationMinutes: 50,
        gapMinutes: 10,
        minNotice: { amount: 1, unit: 'hours' },
        maxNotice: { amount: 2, unit: 'months' },
      })
    ).id;
    const price = /^1\.234,56\s€$/;
    // A new visitor: this test's browser keeps the index it read before the service existed for 30 s
    // (the public pages' max-age), as a visitor's would.
    const newcomer = await browser.newContext({ baseURL: baseUrl, locale: 'es-ES', viewport: { width: 375, height: 812 } });
    const page = await newcomer.newPage();
    await page.goto(`/v1/reservations/${me.workspaceId}`);
    await page.getByRole('link', { name: 'Reservar Programa intensivo' }).waitFor();
    await page.getByText(price).first().waitFor();
    await page.goto(`/v1/reservations/${me.workspaceId}/${me.userId}/${intensive}`);
    await page
      .getByRole('heading', { name: /Programa intensivo/ })
      .first()
      .waitFor();
    await page.getByText(price).first().waitFor();
    await shot(page, 'booking-public-07-thousands-phone');
    await newcomer.close();
  });
});
