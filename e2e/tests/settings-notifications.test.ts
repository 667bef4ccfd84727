import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { signUpAndIn, type SignedIn } from '../support/accounts';
import { site } from '../support/api';
import { madridIsoDay } from '../support/days';

const baseUrl = inject('baseUrl');

describe.skipIf(!hasChromium || !baseUrl)('settings: reminders by default and the private calendar feed', () => {
  let browser: Browser;
  let page: Page;
  let me: SignedIn;

  beforeAll(async () => {
    browser = await launchBrowser();
    me = await signUpAndIn(browser, baseUrl, 'Amparo');
    page = me.page;
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

    const api = me.api.in(me.workspaceId);
    const { id: patientId } = (await api.post<{ id: string }>('/patients', { firstName: 'Rocío', lastName: 'Blanco' })).body;
    const made = await api.post<{ session: { reminders: number[] } }>('/sessions', {
      patientId,
      day: madridIsoDay(9),
      from: '18:00',
      to: '18:50',
    });
    expect(made.status).toBe(201);
    expect(made.body.session.reminders).toEqual([1440, 60]);
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

    const feed = await site.get(new URL(url).pathname);
    expect([feed.status, feed.headers.get('content-type')]).toEqual([200, 'text/calendar; charset=utf-8']);
    const text = feed.text.replace(/\r\n[ \t]/g, '');
    expect(text).toContain(`DTSTART;TZID=Europe/Madrid:${madridIsoDay(9).replaceAll('-', '')}T180000`);
    expect(text).toContain('SUMMARY:Sesión · R. B.');

    await page.reload();
    await page.getByText(/Enlace activo desde el/).waitFor();
    expect(await page.getByRole('textbox', { name: 'Tu enlace privado' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Desactivar' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Desactivar' }).click();
    await page.getByRole('button', { name: 'Crear enlace privado' }).waitFor();
    expect((await site.get(new URL(url).pathname)).status).toBe(404);
  });
});
