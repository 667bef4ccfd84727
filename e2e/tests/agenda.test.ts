import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, seriousA11yViolations, shot } from '../support/browser';
import { signUpAndIn, type SignedIn } from '../support/accounts';
import { madridDmy, madridIsoDay } from '../support/days';
import { hasChromium } from '../support/env';

const baseUrl = inject('baseUrl');
type Created = { session: { id: string } };

/** Madrid's UTC offset now, as `+01:00` or `+02:00`. */
function madridOffset(): string {
  const name =
    new Intl.DateTimeFormat('en', { timeZone: 'Europe/Madrid', timeZoneName: 'longOffset' })
      .formatToParts(new Date())
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT+01:00';
  return name.replace('GMT', '') || '+00:00';
}

/**
 * Sessions outside the calendar: today's on the dashboard, the patient's «Sesiones» tab with its
 * totals, and «Escribir nota» from a completed session writing its note into the clinical history.
 */
describe.skipIf(!hasChromium || !baseUrl)('agenda: today’s sessions, a patient’s sessions and the session’s note', () => {
  let browser: Browser;
  let me: SignedIn;
  let page: Page;
  let patientId = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    me = await signUpAndIn(browser, baseUrl, 'Lucía');
    page = me.page;
    patientId = (
      await me.call<{ id: string }>('POST', '/patients', { firstName: 'Pilar', lastName: 'Ortega', treatment: { sessionPrice: 6000 } })
    ).id;
    const book = async (offset: number, from: string, to: string) =>
      (await me.call<Created>('POST', '/sessions', { patientId, day: madridIsoDay(offset), from, to })).session.id;
    // Two weeks ago attended and paid, last week attended and unpaid (its note missing), a no-show, today late at night, next week.
    const paid = await book(-14, '10:00', '10:50');
    const unpaid = await book(-7, '10:00', '10:50');
    const missed = await book(-3, '10:00', '10:50');
    await book(0, '23:00', '23:30');
    await book(7, '10:00', '10:50');
    for (const id of [paid, unpaid]) await me.call('POST', `/sessions/${id}/complete`);
    await me.call('POST', `/sessions/${paid}/payment`, { paymentType: 'card' });
    await me.call('POST', `/sessions/${paid}/note`, { title: 'Primera sesión', body: '<p>Motivo de consulta.</p>' });
    await me.call('POST', `/sessions/${missed}/cancel`, { reason: 'no_show' });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows today’s session on the dashboard, linked to the calendar', async () => {
    await page.goto('/');
    const card = page.getByRole('region', { name: 'Sesiones de hoy' });
    await card.getByText('1 sesión').waitFor();
    await expect(card.getByRole('link', { name: /23:00–23:30\s*Pilar Ortega/ }).getAttribute('href')).resolves.toMatch(
      /^\/calendar\?session=/,
    );
  });

  it('lists the patient’s sessions newest first with their totals, and what is left to do', async () => {
    await page.goto(`/patients/${patientId}/sessions`);
    const totals = (label: string) => page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
    await expect(totals('Realizadas').textContent()).resolves.toBe('2');
    // Today's 23:00 session counts as upcoming only until it starts (the suite may run late at night).
    const todayLateStarted = Date.now() >= Date.parse(`${madridIsoDay(0)}T23:00:00${madridOffset()}`);
    await expect(totals('Próximas').textContent()).resolves.toBe(todayLateStarted ? '1' : '2');
    await expect(totals('Canceladas').textContent()).resolves.toBe('1');
    await expect(totals('Pendientes de pago').textContent()).resolves.toBe('1');
    await page.getByText('1 sin presentarse').waitFor();
    await page.getByText('60,00 €', { exact: true }).first().waitFor();
    const rows = page.getByRole('list', { name: 'Sesiones de Pilar Ortega' }).getByRole('listitem');
    await expect(rows.count()).resolves.toBe(5);
    await expect(rows.nth(0).textContent()).resolves.toContain(madridDmy(7));
    await rows.getByText('Cancelada: no se presentó').waitFor();
    // Only the unpaid, attended one lacks its note.
    await expect(page.getByRole('link', { name: 'Escribir nota' }).count()).resolves.toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'agenda-patient-sessions');
  });

  it('«Escribir nota» opens the session’s note dated its day; saved, it is in the history and the session no longer asks for it', async () => {
    await page.getByRole('link', { name: 'Escribir nota' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nota de la sesión' });
    await dialog.waitFor();
    const day = madridDmy(-7);
    await expect(dialog.getByRole('textbox', { name: 'Fecha' }).inputValue()).resolves.toBe(day);
    await expect(dialog.getByRole('textbox', { name: 'Título' }).inputValue()).resolves.toBe(`Sesión del ${day}`);
    await dialog.getByRole('button', { name: 'Guardar entrada' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe(`/patients/${patientId}/history`);
    const entry = page
      .getByRole('list', { name: 'Entradas de la historia clínica' })
      .getByRole('listitem')
      .filter({ hasText: `Sesión del ${day}` });
    await entry.getByText('Nota de sesión').waitFor();
    await page.getByRole('link', { name: 'Sesiones' }).click();
    await page.getByRole('list', { name: 'Sesiones de Pilar Ortega' }).waitFor();
    // The tab may show what it had, then what it reads again (the save marked it stale).
    await expect.poll(() => page.getByRole('link', { name: 'Escribir nota' }).count()).toBe(0);
  });
});
