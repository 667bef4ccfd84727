import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { allowConsole, launchBrowser, shareSession, shot } from '../support/browser';
import { signUpAndIn, type SignedIn } from '../support/accounts';
import { site } from '../support/api';
import { madridIsoDay, mondayInAWeek } from '../support/days';
import { hasChromium } from '../support/env';

/**
 * What a therapist met in the browser (issue 24): the calendar's page error, React Router's warnings,
 * the dashboard after a workspace switch, past sessions left «Pendiente», broken links, the patient's
 * tabs at 1440 px, holidays open to booking, time zones, /dev/mail's dates. The support fails each test
 * on any page error or console error or warning, so a test that only walks a screen checks that too.
 */
const baseUrl = inject('baseUrl');
type Session = { id: string; status: string; cancellationReason: string | null };

/** Whether `el` is inside what its scrolling box shows (the time grid scrolls, the page does not). */
const inView = (el: Locator) =>
  el.evaluate((node) => {
    let box = node.parentElement;
    while (box && !(box.scrollHeight > box.clientHeight && /auto|scroll/.test(getComputedStyle(box).overflowY))) box = box.parentElement;
    if (!box) return false;
    const [a, b] = [node.getBoundingClientRect(), box.getBoundingClientRect()];
    return a.top >= b.top && a.bottom <= b.bottom;
  });

describe.skipIf(!hasChromium || !baseUrl)('defects met in the browser', () => {
  let browser: Browser;
  let me: SignedIn;
  let desk: BrowserContext;
  let page: Page;
  let phone: BrowserContext;
  let lucia = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    me = await signUpAndIn(browser, baseUrl, 'Irene');
    // Wide as the screens the issue was seen on.
    desk = await browser.newContext({
      baseURL: baseUrl,
      locale: 'es-ES',
      timezoneId: 'Europe/Madrid',
      viewport: { width: 1440, height: 820 },
      colorScheme: 'light',
    });
    await shareSession(desk, me.context);
    page = await desk.newPage();
    phone = await browser.newContext({
      baseURL: baseUrl,
      locale: 'es-ES',
      timezoneId: 'Europe/Madrid',
      viewport: { width: 390, height: 844 },
      colorScheme: 'light',
      isMobile: true,
      hasTouch: true,
    });
    await shareSession(phone, me.context);
    await me.context.close();
    lucia = (await me.call<{ id: string }>('POST', '/patients', { firstName: 'Lucía', lastName: 'Romero' })).id;
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('opens a week of evening sessions on the evening, and hovering, selecting and opening raise no page error', async () => {
    const monday = mondayInAWeek();
    const late = await me.call<{ session: { id: string } }>('POST', '/sessions', {
      patientId: lucia,
      day: monday,
      from: '20:30',
      to: '21:20',
    });
    await page.goto(`/calendar?view=week&date=${monday}`);
    const event = page.locator(`.ec-event[data-session-id="${late.session.id}"]`);
    await event.waitFor();
    // It opened at 08:00, the 20:30 session two screens below.
    await expect.poll(() => inView(event)).toBe(true);
    await shot(page, 'issue24-01-calendar-evening-1440');

    // The hour under the mouse is one of the grid's own events: drawing it threw on reading `badges`.
    const box = (await event.boundingBox())!;
    const tuesday = (await page.locator('.ec-time-grid .ec-body .ec-day').nth(1).boundingBox())!;
    await page.mouse.move(tuesday.x + tuesday.width / 2, box.y + 4, { steps: 4 });
    await page.mouse.down();
    await page.mouse.move(tuesday.x + tuesday.width / 2, box.y + box.height, { steps: 6 });
    await page.mouse.up();
    const form = page.getByRole('dialog', { name: 'Nueva sesión' });
    await form.waitFor();
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    await event.click();
    await page.getByRole('dialog', { name: /Lucía Romero/ }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('opens /settings and /patients/:id on their first tab with no router warning', async () => {
    await page.goto('/settings');
    await page.waitForURL(`${baseUrl}/settings/profile`);
    await page.goto(`/patients/${lucia}`);
    await page.waitForURL(`${baseUrl}/patients/${lucia}/overview`);
  });

  it('fits the patient’s ten tabs at 1440 px, «Ajustes» included, and scrolls them on a phone', async () => {
    const nav = page.getByRole('navigation', { name: 'Secciones del paciente' });
    await nav.getByRole('link', { name: 'Ajustes' }).waitFor();
    expect(await nav.evaluate((n) => n.scrollWidth <= n.clientWidth)).toBe(true);
    await shot(page, 'issue24-02-patient-tabs-1440');
    const mobile = await phone.newPage();
    await mobile.goto(`/patients/${lucia}/settings`);
    const strip = mobile.getByRole('navigation', { name: 'Secciones del paciente' });
    // The current section is scrolled into view, and the strip says there is more on its other side.
    await expect.poll(() => strip.getAttribute('data-fade')).toBe('start');
    await shot(mobile, 'issue24-03-patient-tabs-390');
    await mobile.close();
  });

  it('asks to close past sessions still «Pendiente»: completed, no-show and canceled, by mouse and keyboard', async () => {
    const made: string[] = [];
    for (const [offset, from, to] of [
      [-3, '12:00', '12:50'],
      [-2, '10:00', '10:50'],
      [-1, '11:00', '11:50'],
    ] as const)
      made.push(
        (await me.call<{ session: { id: string } }>('POST', '/sessions', { patientId: lucia, day: madridIsoDay(offset), from, to })).session
          .id,
      );
    await page.goto('/');
    const card = page.getByRole('region', { name: 'Sesiones por cerrar' });
    await card.getByRole('listitem').nth(2).waitFor();
    await shot(page, 'issue24-04-sessions-to-close-1440');
    const mobile = await phone.newPage();
    await mobile.goto('/');
    await mobile.getByRole('region', { name: 'Sesiones por cerrar' }).getByRole('listitem').nth(2).waitFor();
    await shot(mobile, 'issue24-05-sessions-to-close-390');
    await mobile.close();

    const status = async (id: string) => me.call<Session>('GET', `/sessions/${id}`);
    await card
      .getByRole('button', { name: /^Completada: Lucía Romero/ })
      .first()
      .click();
    await expect.poll(async () => (await status(made[0]!)).status).toBe('completed');
    await expect.poll(() => card.getByRole('listitem').count()).toBe(2);
    // By keyboard: «No asistió» is a cancellation for a no-show.
    await card
      .getByRole('button', { name: /^No asistió: / })
      .first()
      .focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => status(made[1]!)).toMatchObject({ status: 'canceled', cancellationReason: 'no_show' });
    await expect.poll(() => card.getByRole('listitem').count()).toBe(1);
    // «Cancelada» asks why, the first reason focused.
    await card.getByRole('button', { name: /^Cancelada: / }).click();
    await card.getByRole('group', { name: /^Motivo de la cancelación/ }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Por el paciente');
    await page.keyboard.press('Enter');
    await expect.poll(async () => status(made[2]!)).toMatchObject({ status: 'canceled', cancellationReason: 'patient' });
    await card.waitFor({ state: 'detached' });
  });

  it('shows «Sesiones de hoy» once after switching workspace', async () => {
    const res = await me.api.post('/workspaces', { name: 'Clínica Olmo', template: 'clinic' });
    expect(res.status).toBe(201);
    await page.goto('/');
    const today = page.getByRole('region', { name: 'Sesiones de hoy' });
    await today.waitFor();
    await page.getByRole('button', { name: /Cambiar de espacio de trabajo/ }).click();
    await page.getByRole('menuitemradio', { name: /Clínica Olmo/ }).click();
    await page.getByText('Ahora estás en Clínica Olmo').waitFor();
    await page.getByRole('region', { name: 'Tareas' }).waitFor();
    await expect.poll(() => today.count()).toBe(1);
    // Back to the first, for the tests after this one.
    await page.getByRole('button', { name: /Cambiar de espacio de trabajo/ }).click();
    await page.getByRole('menuitemradio', { name: /Consulta de Irene/ }).click();
    await expect.poll(() => today.count()).toBe(1);
  });

  it('says plainly that a broken invitation or booking link is not valid, with the way out and no «Reintentar»', async () => {
    allowConsole(
      { text: /status of (400|404)/, url: /\/api\/v1\/invitations\/abc123$/, because: 'a link that is not one' },
      { text: /status of (400|404)/, url: /\/bookings\/abc123$/, because: 'a link that is not one' },
    );
    await page.goto('/workspaces/join/abc123');
    await page.getByRole('heading', { name: 'Este enlace de invitación no es válido' }).waitFor();
    expect(await page.getByText(/inválido|invitationId/).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Reintentar' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Ir al inicio', exact: true }).isVisible()).toBe(true);
    await shot(page, 'issue24-06-join-broken-1440');
    const mobile = await phone.newPage();
    await mobile.goto('/v1/reservations/manage/abc123');
    await mobile.getByRole('heading', { name: 'Este enlace no es válido o ha caducado' }).waitFor();
    await mobile.getByText(/email de tu reserva/).waitFor();
    expect(await mobile.getByText(/caracteres/).count()).toBe(0);
    expect(await mobile.getByRole('button', { name: 'Reintentar' }).count()).toBe(0);
    await shot(mobile, 'issue24-07-manage-broken-390');
    await mobile.close();
  });

  it('says holidays are bookable until blocked and blocks them in one press; zones read as places', async () => {
    await page.goto('/calendar/services');
    const notice = page.getByTestId('holiday-notice');
    await notice.getByText(/Los festivos se pueden reservar como cualquier otro día mientras no los bloquees/).waitFor();
    const block = notice.getByRole('button', { name: /^Bloquear / });
    const count = Number(/(\d+) festivos/.exec((await block.textContent()) ?? '')?.[1] ?? 1);
    await shot(page, 'issue24-08-holidays-1440');
    await block.click();
    await notice.waitFor({ state: 'detached' });
    expect((await me.call<{ items: unknown[] }>('GET', '/availability-overrides')).items.length).toBeGreaterThanOrEqual(count);

    await page.getByRole('button', { name: 'Nuevo servicio' }).click();
    const zone = page.getByRole('dialog', { name: 'Nuevo servicio' }).getByLabel('Zona horaria');
    expect(await zone.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent)).toMatch(/^Madrid \(UTC\+[12]\)$/);
    const labels = await zone.evaluate((s: HTMLSelectElement) => [...s.options].map((o) => o.textContent));
    expect(labels).toContain('Ciudad de México (UTC−6)');
    expect(labels.some((l) => l?.includes('/'))).toBe(false);
    await zone.scrollIntoViewIfNeeded();
    await shot(page, 'issue24-09-service-zone-1440');
    await page.keyboard.press('Escape');
  });

  it('dates /dev/mail DD/MM/YYYY HH:mm, and has a favicon for pages without one', async () => {
    await page.goto(`/dev/mail?to=${encodeURIComponent(me.email)}`);
    expect(await page.locator('small').first().textContent()).toMatch(
      new RegExp(`^Para ${me.email.replace(/[.+]/g, '\\$&')} · \\d{2}/\\d{2}/\\d{4} \\d{2}:\\d{2} · `),
    );
    await shot(page, 'issue24-10-dev-mail');
    const icon = await site.get('/favicon.ico');
    expect([icon.status, icon.headers.get('content-type')?.startsWith('image/')]).toEqual([200, true]);
  });
});
