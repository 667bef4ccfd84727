import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { allowConsole, launchBrowser, newContext, seriousA11yViolations, shareSession, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { signUpAndIn, type SignedIn } from '../support/accounts';
import { dmy, mondayInAWeek, shiftDay } from '../support/days';

const baseUrl = inject('baseUrl');

type Session = {
  id: string;
  day: string;
  from: string;
  to: string;
  status: string;
  paymentStatus: string;
  paymentType: string | null;
  series?: { id: string; index: number } | null;
};

describe.skipIf(!hasChromium || !baseUrl)(
  'calendar: a weekly series, moved by drag and by keyboard, canceled from one on, closed and paid',
  () => {
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let me: SignedIn;
    let lucia = '';
    let pablo = '';
    const first = mondayInAWeek();

    const call = <T>(method: string, path: string, body?: unknown): Promise<T> => me.call<T>(method, path, body);
    /** Lucía's sessions over the series' six weeks, by start. */
    const series = async () =>
      (await call<{ items: Session[] }>('GET', `/sessions?from=${shiftDay(first, -1)}T00:00:00Z&to=${shiftDay(first, 41)}T00:00:00Z`))
        .items;
    const eventOf = (id: string): Locator => page.locator(`.ec-event[data-session-id="${id}"]`);
    /** An event's accessible name, as the browser computes it for a screen reader. */
    const nameOf = async (ev: Locator) => /^- button "(.*?)"/.exec(await ev.ariaSnapshot())?.[1] ?? '';
    const dialog = (name: string | RegExp) => page.getByRole('dialog', { name });

    beforeAll(async () => {
      browser = await launchBrowser();
      me = await signUpAndIn(browser, baseUrl, 'Carmen');
      ({ context, page } = me);
      lucia = (await call<{ id: string }>('POST', '/patients', { firstName: 'Lucía', lastName: 'Romero' })).id;
      pablo = (await call<{ id: string }>('POST', '/patients', { firstName: 'Pablo', lastName: 'Paz' })).id;
      await call('PUT', `/patients/${pablo}/treatment`, { status: 'paused' });
    });
    afterAll(async () => {
      await browser?.close();
    });

    it('creates a weekly series from «Nueva sesión» opened with the patient', async () => {
      await page.goto(`/calendar?new=1&patientId=${lucia}`);
      const form = dialog('Nueva sesión');
      await form.getByTestId('picked-patient').getByText('Lucía Romero').waitFor();
      // The entry point leaves the URL once the dialog is open.
      await expect.poll(() => new URL(page.url()).search).toBe('');
      await form.getByLabel('Día').fill(dmy(first));
      await form.getByLabel('De', { exact: true }).fill('10:00');
      await expect.poll(() => form.getByLabel('A', { exact: true }).inputValue()).toBe('10:50');
      await form.getByLabel('Precio (€)').fill('62,50');
      await form.getByRole('combobox', { name: 'Repetir' }).selectOption('weekly');
      await form.getByLabel('Número de sesiones').fill('6');
      await shot(page, 'calendar-02-new-series');
      await form.getByRole('button', { name: 'Crear serie' }).click();
      await page.getByText('Serie creada: 6 sesiones').waitFor();
      await form.waitFor({ state: 'detached' });

      const all = await series();
      expect(all.map((s) => s.day)).toEqual([0, 7, 14, 21, 28, 35].map((n) => shiftDay(first, n)));
      expect(all.every((s) => s.from === '10:00' && s.to === '10:50' && s.series)).toBe(true);
    });

    it('moves the first by dragging it to Tuesday at noon, only that one', async () => {
      const [one] = await series();
      await page.goto(`/calendar?view=week&date=${first}`);
      const ev = eventOf(one!.id);
      await ev.waitFor();
      expect(await nameOf(ev)).toMatch(
        /^Lucía Romero 10:00.10:50 Serie ?\. lunes, \d+ de \w+ de \d{4}, Pendiente, Cada semana, los lunes$/,
      );
      await shot(page, 'calendar-01-week');
      expect(await seriousA11yViolations(page)).toEqual([]);

      const box = (await ev.boundingBox())!;
      const days = page.locator('.ec-time-grid .ec-body .ec-day');
      const [monday, tuesday] = [(await days.nth(0).boundingBox())!, (await days.nth(1).boundingBox())!];
      const perMinute = box.height / 50;
      const start = { x: box.x + box.width / 2, y: box.y + 6 };
      await page.mouse.move(start.x, start.y);
      await page.mouse.down();
      await page.mouse.move(start.x + (tuesday.x - monday.x) / 2, start.y + 60 * perMinute, { steps: 8 });
      await page.mouse.move(start.x + (tuesday.x - monday.x), start.y + 120 * perMinute, { steps: 8 });
      await page.mouse.up();

      // An occurrence of a series: which ones move.
      const scope = page.getByRole('alertdialog', { name: 'Esta sesión es parte de una serie' });
      await scope.getByRole('button', { name: 'Solo esta' }).click();
      await page.getByText('Sesión movida').waitFor();
      await expect
        .poll(async () => (await series())[0])
        .toMatchObject({ day: shiftDay(first, 1), from: '12:00', to: '12:50', series: expect.objectContaining({ moved: true }) });
      expect((await series()).slice(1).every((s) => s.from === '10:00')).toBe(true);
    });

    it('moves the second by keyboard with «Mover sesión», undoes it, and moves it again', async () => {
      const second = (await series())[1]!;
      await page.getByRole('button', { name: 'Semana siguiente' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('date')).toBe(shiftDay(first, 7));
      const ev = eventOf(second.id);
      await ev.waitFor();
      await ev.focus();
      await page.keyboard.press('Enter');
      const detail = dialog('Lucía Romero');
      await detail.getByText('Cada semana', { exact: false }).first().waitFor();
      await shot(page, 'calendar-03-detail');
      await detail.getByRole('button', { name: 'Mover' }).focus();
      await page.keyboard.press('Enter');

      const move = dialog('Mover sesión');
      await move.getByLabel('Nuevo día').fill(dmy(shiftDay(first, 9)));
      await move.getByLabel('De', { exact: true }).fill('16:00');
      await expect.poll(() => move.getByLabel('A', { exact: true }).inputValue()).toBe('16:50');
      expect(await move.getByRole('radio', { name: 'Solo esta' }).isChecked()).toBe(true);
      await shot(page, 'calendar-04-move');
      await move.getByLabel('De', { exact: true }).press('Enter');
      await move.waitFor({ state: 'detached' });
      await expect.poll(async () => (await series())[1]).toMatchObject({ day: shiftDay(first, 9), from: '16:00', to: '16:50' });

      // «Deshacer» on its toast puts it back; then the keyboard moves it again.
      await page.locator('[data-sonner-toast]').filter({ hasText: '16:00–16:50' }).getByRole('button', { name: 'Deshacer' }).click();
      await page.getByText('Cambio deshecho').waitFor();
      await expect
        .poll(async () => (await series()).find((s) => s.id === second.id))
        .toMatchObject({ day: shiftDay(first, 7), from: '10:00' });
      await expect.poll(() => nameOf(ev)).toMatch(/^Lucía Romero 10:00.10:50/);
      await ev.focus();
      await page.keyboard.press('Enter');
      await detail.getByRole('button', { name: 'Mover' }).focus();
      await page.keyboard.press('Enter');
      await move.getByLabel('Nuevo día').fill(dmy(shiftDay(first, 9)));
      await move.getByLabel('De', { exact: true }).fill('16:00');
      await move.getByRole('button', { name: 'Mover' }).press('Enter');
      await move.waitFor({ state: 'detached' });
      await expect
        .poll(async () => (await series()).find((s) => s.id === second.id))
        .toMatchObject({ day: shiftDay(first, 9), from: '16:00', to: '16:50' });
    });

    it('cancels the third «and the following» from its link, as a late cancellation', async () => {
      const third = (await series())[2]!;
      await page.goto(`/calendar?session=${third.id}`);
      const detail = dialog('Lucía Romero');
      await detail.getByRole('button', { name: 'Cancelar sesión' }).click();
      const cancel = dialog('Cancelar sesión');
      await cancel.getByRole('radio', { name: 'Cancelación tardía' }).check();
      await cancel.getByRole('radio', { name: 'Esta y las siguientes' }).check();
      await cancel.getByRole('button', { name: 'Cancelar sesiones' }).click();
      await page.getByText('4 sesiones canceladas').waitFor();
      // The link jumped the calendar to that session's week.
      expect(new URL(page.url()).searchParams.get('date')).toBe(third.day);
      const all = await series();
      expect(all.map((s) => s.status)).toEqual(['pending', 'pending', 'canceled', 'canceled', 'canceled', 'canceled']);
      await page.keyboard.press('Escape');
    });

    it('marks the first completed and paid by card', async () => {
      const one = (await series())[0]!;
      await page.goto(`/calendar?session=${one.id}`);
      const detail = dialog('Lucía Romero');
      await detail.getByRole('button', { name: 'Marcar como realizada' }).click();
      await page.getByText('Sesión marcada como realizada').waitFor();
      await detail.getByRole('button', { name: 'Marcar como pagada' }).click();
      const pay = dialog('Marcar como pagada');
      await pay.getByLabel('Forma de pago').selectOption('card');
      await pay.getByRole('button', { name: 'Marcar como pagada' }).click();
      await page.getByText('Sesión marcada como pagada').waitFor();
      await detail.getByText('Pagada · Tarjeta').waitFor();
      await detail.getByText('Realizada').waitFor();
      expect(await call<Session>('GET', `/sessions/${one.id}`)).toMatchObject({
        status: 'completed',
        paymentStatus: 'paid',
        paymentType: 'card',
      });
      await page.keyboard.press('Escape');

      await page.goto(`/calendar?view=month&date=${first}&color=status`);
      await eventOf(one.id).waitFor();
      expect(await nameOf(eventOf(one.id))).toContain('Realizada');
      await shot(page, 'calendar-05-month-by-status');
      expect(await seriousA11yViolations(page)).toEqual([]);
    });

    it('refuses a session for a paused patient in the form, keeping what was typed', async () => {
      await page.goto(`/calendar?new=1&patientId=${pablo}`);
      allowConsole({ text: /status of 409/, url: /\/sessions$/, because: 'the server refuses a session for a paused patient' });
      const form = dialog('Nueva sesión');
      await form.getByTestId('picked-patient').getByText('Pablo Paz').waitFor();
      await form.getByLabel('Día').fill(dmy(shiftDay(first, 2)));
      await form.getByLabel('De', { exact: true }).fill('9');
      await form.getByRole('button', { name: 'Crear sesión' }).click();
      await form.getByRole('alert').getByText('No puedes crear sesiones para pacientes no activos').waitFor();
      expect(await form.getByLabel('Día').inputValue()).toBe(dmy(shiftDay(first, 2)));
      expect(await form.getByLabel('De', { exact: true }).inputValue()).toBe('09:00');
      // Closing with typed work asks first.
      await page.keyboard.press('Escape');
      await page.getByRole('alertdialog', { name: '¿Descartar los cambios?' }).getByRole('button', { name: 'Descartar cambios' }).click();
      await form.waitFor({ state: 'detached' });
    });

    it('on a phone: the day and the agenda, and the form full width', async () => {
      const phone = await newContext(browser, baseUrl, { mobile: true });
      await shareSession(phone, context);
      const p = await phone.newPage();
      await p.goto(`/calendar?date=${shiftDay(first, 1)}`);
      // A phone starts on the day view.
      await p.getByRole('radio', { name: 'Día', checked: true }).waitFor();
      await p.locator('.ec-event').first().waitFor();
      await shot(p, 'calendar-06-phone-day');
      await p.getByRole('radio', { name: 'Agenda' }).click();
      await p.locator('.ec-list .ec-event').first().waitFor();
      await shot(p, 'calendar-07-phone-agenda');
      expect(await seriousA11yViolations(p)).toEqual([]);
      await p.getByRole('button', { name: 'Nueva sesión' }).click();
      await p.getByRole('dialog', { name: 'Nueva sesión' }).waitFor();
      await shot(p, 'calendar-08-phone-new');
      await phone.close();
    });
  },
);
