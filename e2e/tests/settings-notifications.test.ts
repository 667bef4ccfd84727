import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { linkIn, waitForMail } from '../support/mail';

const baseUrl = inject('baseUrl');
const email = `avisos.${Date.now()}@example.com`;
const headers = { 'Content-Type': 'application/json', 'X-Client-Version': '1.0.0' };

/** A day in Madrid (YYYY-MM-DD), `offset` days from today. */
function madridIso(offset: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
  const [y, m, d] = parts.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + offset)).toISOString().slice(0, 10);
}

describe.skipIf(!hasChromium || !baseUrl)('settings: reminders by default and the private calendar feed', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let auth = { accessToken: '', workspaceId: '' };
  const call = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${baseUrl}/api/v1/workspaces/${auth.workspaceId}${path}`, {
      method: init.method ?? 'GET',
      headers: { ...headers, Authorization: `Bearer ${auth.accessToken}` },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    });

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await newContext(browser, baseUrl);
    page = await context.newPage();
    const res = await fetch(`${baseUrl}/api/v1/realms/therapists/users`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ firstName: 'Amparo', email, password: 'Consulta2025' }),
    });
    expect(res.status).toBe(201);
    const mail = await waitForMail(baseUrl, email, (m) => m.text.includes('/verify-email/'));
    await page.goto(linkIn(mail, '/verify-email'));
    await page.waitForURL(`${baseUrl}/`);
    await page.waitForFunction(
      () => !!(JSON.parse(localStorage.getItem('workspaces') ?? '{}') as { state?: { currentId?: string } }).state?.currentId,
    );
    auth = await page.evaluate(() => ({
      accessToken: (JSON.parse(localStorage.getItem('auth') ?? '{}') as { state?: { accessToken?: string } }).state?.accessToken ?? '',
      workspaceId: (JSON.parse(localStorage.getItem('workspaces') ?? '{}') as { state?: { currentId?: string } }).state?.currentId ?? '',
    }));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('chooses the default reminders up to the plan’s cap, keeps them after a reload, and new sessions take them', async () => {
    await page.goto('/settings');
    await page.getByRole('navigation', { name: 'Ajustes' }).getByRole('link', { name: 'Notificaciones' }).click();
    await page.waitForURL(/\/settings\/notifications$/);
    const day = page.getByRole('checkbox', { name: '1 día antes' });
    const hour = page.getByRole('checkbox', { name: '1 h antes' });
    const quarter = page.getByRole('checkbox', { name: '15 min antes' });
    await day.waitFor();
    expect(await day.isChecked()).toBe(true);
    // The trial allows two: with a second ticked, the others wait.
    await hour.check();
    expect(await quarter.isDisabled()).toBe(true);
    await page.getByText('1 día antes y 1 h antes. Tu plan permite 2 recordatorios por sesión.').waitFor();
    await page.getByText(/desde tu página de reservas o desde su app de Diván/).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Cuando un paciente cancele una sesión' }).isChecked()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'settings-notifications');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Notificaciones guardadas').waitFor();
    await page.reload();
    await hour.waitFor();
    expect([await day.isChecked(), await hour.isChecked(), await quarter.isChecked()]).toEqual([true, true, false]);

    const patient = await call('/patients', { method: 'POST', body: { firstName: 'Rocío', lastName: 'Blanco' } });
    const { id: patientId } = (await patient.json()) as { id: string };
    const made = await call('/sessions', { method: 'POST', body: { patientId, day: madridIso(9), from: '18:00', to: '18:50' } });
    expect(made.status).toBe(201);
    expect(((await made.json()) as { session: { reminders: number[] } }).session.reminders).toEqual([1440, 60]);
  });

  it('makes the private calendar link, shows it once, serves the sessions in iCal with initials, and turns it off', async () => {
    await page.getByRole('navigation', { name: 'Ajustes' }).getByRole('link', { name: 'Integraciones' }).click();
    await page.getByRole('button', { name: 'Crear enlace privado' }).click();
    const field = page.getByRole('textbox', { name: 'Tu enlace privado' });
    await field.waitFor();
    const url = await field.inputValue();
    expect(url).toMatch(/\/api\/v1\/calendar-feeds\/[A-Za-z0-9_-]{43}\.ics$/);
    await page.getByText(/no volveremos a mostrarlo/).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'settings-integrations');

    const feed = await fetch(new URL(new URL(url).pathname, baseUrl));
    expect([feed.status, feed.headers.get('content-type')]).toEqual([200, 'text/calendar; charset=utf-8']);
    const text = (await feed.text()).replace(/\r\n[ \t]/g, '');
    expect(text).toContain(`DTSTART;TZID=Europe/Madrid:${madridIso(9).replaceAll('-', '')}T180000`);
    expect(text).toContain('SUMMARY:Sesión · R. B.');

    await page.reload();
    await page.getByText(/Enlace activo desde el/).waitFor();
    expect(await page.getByRole('textbox', { name: 'Tu enlace privado' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Desactivar' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Desactivar' }).click();
    await page.getByRole('button', { name: 'Crear enlace privado' }).waitFor();
    expect((await fetch(new URL(new URL(url).pathname, baseUrl))).status).toBe(404);
  });
});
