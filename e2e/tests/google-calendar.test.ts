import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { ACCOUNT_EMAIL, MEET_LINK, type FakeEvent } from '../../apps/server/src/test/fake-google-calendar/store';
import { signUpAndIn, type SignedIn } from '../support/accounts';
import { publicApi } from '../support/api';
import { allowConsole, launchBrowser, phoneOf, seriousA11yViolations, shot } from '../support/browser';
import { dmy, mondayInAWeek, shiftDay } from '../support/days';
import { hasChromium } from '../support/env';
import { fakeGoogle } from '../support/fake-google';

const baseUrl = inject('baseUrl');
const control = inject('googleCalendarControl');

type Session = { id: string; day: string; from: string; to: string; startsAt: string; endsAt: string; status: string };
type Slots = { days: { day: string; slots: { therapist: { from: string } }[] }[] };
const every = (from: string, to: string) => Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((d) => [d, [{ from, to }]]));

/** The instant of a wall-clock time in Madrid. */
function madrid(day: string, time: string): Date {
  const guess = new Date(`${day}T${time}:00Z`);
  const wall = (tz: string) => new Date(guess.toLocaleString('en-US', { timeZone: tz })).getTime();
  return new Date(guess.getTime() - (wall('Europe/Madrid') - wall('UTC')));
}

/** Polls `read` until `done` holds (every 250 ms, 10 s by default): the sync is a job a moment after the write. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (last: ${JSON.stringify(last)?.slice(0, 600)})`);
    await new Promise((r) => setTimeout(r, 250));
    last = await read();
  }
  return last;
}

const ofSession = (events: FakeEvent[], sessionId: string) =>
  events.find(
    (e) => (e.extendedProperties as { private?: { divanSessionId?: string } } | undefined)?.private?.divanSessionId === sessionId,
  );

/**
 * Google Calendar (issue 30) in Chromium against the fake Google (OAuth + Calendar API, started by the global
 * setup): connect from Ajustes › Integraciones (the consent page approves at once), choose the calendar whose
 * busy times count; a session created, moved and canceled in Diván appears, moves and disappears in the
 * «Diván» calendar within 10 s, titled by initials only; an online session with Google Meet gets its link in
 * the session's dialog; a busy event typed in Google shows as a grey block in the calendar and, after
 * Google's push, takes that hour off the public booking page; disconnecting revokes the grant and stops.
 */
describe.skipIf(!hasChromium || !baseUrl || !control)('Google Calendar', () => {
  const google = fakeGoogle(control);
  const monday = mondayInAWeek();
  const tuesday = shiftDay(monday, 1);
  const wednesday = shiftDay(monday, 2);
  let browser: Browser;
  let me: SignedIn;
  let page: Page;
  let phone: BrowserContext | undefined;
  let patientId: string;
  let serviceId: string;
  const card = () => page.locator('div.rounded-xl').filter({ has: page.getByRole('heading', { name: 'Google Calendar', exact: true }) });

  beforeAll(async () => {
    browser = await launchBrowser();
    me = await signUpAndIn(browser, baseUrl, 'Elena');
    page = me.page;
    patientId = (await me.call<{ id: string }>('POST', '/patients', { firstName: 'Inés', lastName: 'Castaño Ruiz' })).id;
    serviceId = (
      await me.call<{ id: string }>('POST', '/booking-services', {
        title: 'Primera consulta',
        schedule: every('09:00', '14:00'),
        priceCents: 6000,
        modality: 'online',
        durationMinutes: 50,
        gapMinutes: 10,
        minNotice: { amount: 1, unit: 'hours' },
        maxNotice: { amount: 2, unit: 'months' },
      })
    ).id;
  });
  afterAll(async () => {
    await phone?.close();
    await browser?.close();
  });

  it('an answer from Google that is refused, or a «no», is said in Spanish with the way back', async () => {
    await page.goto('/settings/integrations/google/callback?error=access_denied');
    await page
      .getByRole('alert')
      .getByText(/Has cancelado el permiso en Google/)
      .waitFor();
    // A state Diván never gave (or one already used) is refused by the server.
    allowConsole({ text: /status of 400/, url: /\/google-calendar\/callback$/, because: 'the server refuses a state it never gave' });
    await page.goto('/settings/integrations/google/callback?code=4%2Fnot-a-code&state=not-a-state');
    await page
      .getByRole('alert')
      .getByText(/La conexión con Google ha caducado o ya se usó/)
      .waitFor();
    await shot(page, 'google-calendar-00-callback-refused');
    await page.getByRole('link', { name: 'Volver a Integraciones' }).click();
    await page.waitForURL(`${baseUrl}/settings/integrations`);
    await card().getByRole('button', { name: 'Conectar con Google' }).waitFor();
  });

  it('connects from Ajustes › Integraciones and chooses the calendar whose busy times count', async () => {
    await page.goto('/settings/integrations');
    const c = card();
    await c.getByRole('button', { name: 'Conectar con Google' }).waitFor();
    await c.getByText(/a partir de ahora/).waitFor();
    await c.getByText(/nunca el motivo de consulta/).waitFor();
    await shot(page, 'google-calendar-01-not-connected');

    await c.getByRole('button', { name: 'Conectar con Google' }).click();
    // Google's consent (the fake approves at once) → the callback page → back to Integraciones.
    await page.waitForURL(`${baseUrl}/settings/integrations`);
    await page.getByText('Google Calendar conectado').waitFor();
    await c.getByText(ACCOUNT_EMAIL, { exact: true }).waitFor();
    expect(await c.getByRole('radio', { name: /Iniciales del paciente/ }).isChecked()).toBe(true);

    const primary = c.getByRole('checkbox', { name: new RegExp(ACCOUNT_EMAIL.replace('.', '\\.')) });
    expect(await primary.isChecked()).toBe(false);
    await primary.check();
    await page.getByText('Calendarios guardados').waitFor();
    expect(await primary.isChecked()).toBe(true);
    // The busy calendar is watched: Google will push its changes to Diván.
    await until(google.channels, (chs) => chs.some((ch) => ch.calendarId === ACCOUNT_EMAIL), 'a watch channel on the primary calendar');

    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'google-calendar-02-connected');
    phone = await phoneOf(browser, me.context);
    const small = await phone.newPage();
    await small.goto('/settings/integrations');
    await small.getByText(ACCOUNT_EMAIL, { exact: true }).waitFor();
    await shot(small, 'google-calendar-03-connected-phone');
    // Nothing wider than the phone: the page does not scroll sideways, and the card fits.
    const outside = await small.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((el) => {
          if (el.getBoundingClientRect().right <= 391) return false;
          for (let p = el.parentElement; p; p = p.parentElement) if (/auto|scroll|hidden/.test(getComputedStyle(p).overflowX)) return false;
          return true;
        })
        .map((el) => `${el.tagName}.${String(el.className).slice(0, 80)} ${Math.round(el.getBoundingClientRect().right)}`)
        .slice(0, 12),
    );
    expect(outside).toEqual([]);
    const wide = await small.evaluate(() => {
      const heading = [...document.querySelectorAll('h2')].find((h) => h.textContent?.trim() === 'Google Calendar');
      const box = heading?.closest('.rounded-xl');
      return [...(box?.querySelectorAll('*') ?? [])]
        .filter((el) => el.getBoundingClientRect().right > 390)
        .map((el) => `${el.tagName} ${Math.round(el.getBoundingClientRect().right)}`);
    });
    expect(wide).toEqual([]);
    await small.close();
  });

  it('a session created, moved and canceled in Diván appears, moves and disappears in Google within 10 s', async () => {
    const made = await me.call<{ session: Session }>('POST', '/sessions', { patientId, day: tuesday, from: '10:00', to: '10:50' });
    const id = made.session.id;
    const created = ofSession(await until(google.divanEvents, (es) => !!ofSession(es, id), 'the new session in Google'), id)!;
    expect(new Date(created.start!.dateTime!).toISOString()).toBe(madrid(tuesday, '10:00').toISOString());
    expect(created.summary).toBe('Sesión · I. C.');

    await me.call('PATCH', `/sessions/${id}`, { day: tuesday, from: '12:00', to: '12:50' });
    await until(
      google.divanEvents,
      (es) =>
        ofSession(es, id)?.start?.dateTime !== undefined &&
        new Date(ofSession(es, id)!.start!.dateTime!).getTime() === madrid(tuesday, '12:00').getTime(),
      'the moved session in Google',
    );

    await me.call('POST', `/sessions/${id}/cancel`, { reason: 'therapist' });
    await until(google.divanEvents, (es) => !ofSession(es, id), 'the canceled session gone from Google');

    // Nothing of the patient but the initials reached Google.
    const everything = JSON.stringify(await google.allEvents());
    expect(everything).not.toContain('Castaño');
    expect(everything).not.toContain('Inés');
  });

  it('an online session with Google Meet, made in the form, shows its Meet link in the session', async () => {
    await page.goto(`/calendar?view=week&date=${monday}&new=1&patientId=${patientId}`);
    const form = page.getByRole('dialog', { name: 'Nueva sesión' });
    await form.getByTestId('picked-patient').getByText('Inés Castaño Ruiz').waitFor();
    await form.getByLabel('Día').fill(dmy(tuesday));
    await form.getByLabel('De', { exact: true }).fill('16:00');
    await expect.poll(() => form.getByLabel('A', { exact: true }).inputValue()).toBe('16:50');
    await form.getByLabel('Modalidad').selectOption('online');
    await form.getByLabel('Videollamada').selectOption('google_meet');
    await form.getByText(/El enlace de Meet se crea en tu Google Calendar/).waitFor();
    await form.getByRole('button', { name: 'Crear sesión' }).click();
    await page.getByText('Sesión creada').first().waitFor();
    await form.waitFor({ state: 'detached' });

    const list = await me.call<{ items: Session[] }>(
      'GET',
      `/sessions?from=${madrid(tuesday, '00:00').toISOString()}&to=${madrid(wednesday, '00:00').toISOString()}`,
    );
    const meet = list.items.find((s) => s.from === '16:00' && s.status === 'pending')!;
    expect(meet).toMatchObject({ modality: 'online', videoConference: 'google_meet' });
    const event = ofSession(
      await until(google.divanEvents, (es) => !!ofSession(es, meet.id)?.hangoutLink, 'the Meet link in Google'),
      meet.id,
    )!;
    expect(event.hangoutLink).toBe(MEET_LINK);

    await page.goto(`/calendar?view=week&date=${monday}&session=${meet.id}`);
    const dialog = page.getByRole('dialog', { name: 'Inés Castaño Ruiz' });
    const join = dialog.getByRole('link', { name: /Unirse con Google Meet/ });
    await join.waitFor();
    expect(await join.getAttribute('href')).toBe(MEET_LINK);
    await shot(page, 'google-calendar-04-meet-link');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('a busy event typed in Google is a grey block in the calendar and, after the push, leaves the booking page', async () => {
    const slotsAt = async (day: string) => {
      const r = await publicApi.get<Slots>(
        `/public/reservations/${me.workspaceId}/${me.userId}/${serviceId}/slots?month=${day.slice(0, 7)}&timeZone=Europe/Madrid`,
      );
      expect(r.status).toBe(200);
      return (r.body.days.find((d) => d.day === day)?.slots ?? []).map((s) => s.therapist.from);
    };
    expect(await slotsAt(wednesday)).toContain('11:00');

    await google.addBusy(madrid(wednesday, '11:00'), madrid(wednesday, '12:00'), { summary: 'Dentista' });
    const { statuses } = await google.push(ACCOUNT_EMAIL);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200)).toBe(true);
    await until(
      () => slotsAt(wednesday),
      (slots) => !slots.includes('11:00'),
      'the busy hour gone from the booking page',
      60_000,
    );
    expect(await slotsAt(wednesday)).toContain('10:00');

    // The visitor's page does not offer it either.
    const visitor = await browser.newContext({
      baseURL: baseUrl,
      locale: 'es-ES',
      timezoneId: 'Europe/Madrid',
      viewport: { width: 390, height: 844 },
    });
    const booking = await visitor.newPage();
    await booking.goto(`/v1/reservations/${me.workspaceId}/${me.userId}/${serviceId}`);
    const month = booking.getByRole('grid');
    await month.waitFor();
    const day: Locator = month.locator(`[data-day="${wednesday}"]`);
    if (!(await day.count())) await booking.getByRole('button', { name: 'Mes siguiente' }).click();
    await day.click();
    await booking
      .getByRole('button', { name: /^10:00/ })
      .first()
      .waitFor();
    expect(await booking.getByRole('button', { name: /^11:00/ }).count()).toBe(0);
    await shot(booking, 'google-calendar-05-booking-without-busy-hour');
    await visitor.close();

    // In the therapist's calendar: a grey block, no detail, not a session.
    await page.goto(`/calendar?view=week&date=${monday}`);
    const block = page.locator('.ec-bg-event.dv-busy');
    await block.first().waitFor();
    expect((await block.first().textContent())?.trim()).toBe('Ocupado en Google');
    expect(await block.first().getAttribute('role')).toBeNull();
    expect(await block.first().getAttribute('data-session-id')).toBeNull();
    expect(await page.getByText('Dentista').count()).toBe(0);
    await block.first().scrollIntoViewIfNeeded();
    await shot(page, 'google-calendar-06-calendar-busy');
    // On a phone, the day's view shows it too.
    const small = await phone!.newPage();
    await small.goto(`/calendar?view=day&date=${wednesday}`);
    const phoneBlock = small.locator('.ec-bg-event.dv-busy');
    await phoneBlock.first().waitFor();
    await phoneBlock.first().scrollIntoViewIfNeeded();
    await shot(small, 'google-calendar-07-calendar-busy-phone');
    await small.close();
  });

  it('disconnects after confirming: the grant is revoked, the channels stopped, and nothing more syncs', async () => {
    const revokedBefore = (await google.revocations()).length;
    await page.goto('/settings/integrations');
    const c = card();
    await c.getByRole('button', { name: 'Desconectar' }).click();
    const confirm = page.getByRole('alertdialog', { name: '¿Desconectar Google Calendar?' });
    await confirm.getByText(/se quedan en el calendario «Diván» de Google/).waitFor();
    await shot(page, 'google-calendar-08-disconnect');
    await confirm.getByRole('button', { name: 'Desconectar' }).click();
    await page.getByText('Google Calendar desconectado').waitFor();
    await c.getByRole('button', { name: 'Conectar con Google' }).waitFor();
    expect((await google.revocations()).length).toBeGreaterThan(revokedBefore);
    expect((await google.channels()).filter((ch) => ch.calendarId === ACCOUNT_EMAIL)).toEqual([]);

    // A new session stays in Diván.
    const made = await me.call<{ session: Session }>('POST', '/sessions', { patientId, day: tuesday, from: '18:00', to: '18:50' });
    await new Promise((r) => setTimeout(r, 3000));
    expect(ofSession(await google.allEvents(), made.session.id)).toBeUndefined();
    // And the calendar shows no grey blocks any more.
    await page.goto(`/calendar?view=week&date=${monday}`);
    await page.locator(`.ec-event[data-session-id="${made.session.id}"]`).waitFor();
    expect(await page.locator('.ec-bg-event.dv-busy').count()).toBe(0);
  });
});
