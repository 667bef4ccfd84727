import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, phoneOf, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { signUpAndIn, type SignedIn } from '../support/accounts';
import { madridIsoDay } from '../support/days';
import { ok } from '../support/api';

const baseUrl = inject('baseUrl');

describe.skipIf(!hasChromium || !baseUrl)('statistics: the dashboard’s money and /analytics', () => {
  let browser: Browser;
  let me: SignedIn;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    me = await signUpAndIn(browser, baseUrl, 'Elena');
    page = me.page;
    await me.api.put('/me/billing', {
      fullName: 'Elena Campos Gil',
      taxId: '12345678Z',
      line1: 'Calle Mayor 1',
      city: 'Madrid',
      zipCode: '28013',
      country: 'España',
    });
    const patientId = (
      await me.call<{ id: string }>('POST', '/patients', { firstName: 'Lucía', lastName: 'Romero', treatment: { sessionPrice: 6000 } })
    ).id;
    // Three past sessions, yesterday and the day before (two completed, one canceled by the patient), the
    // one of yesterday invoiced today: past whatever the hour CI runs, and in the last 7 days on the 1st too.
    const book = async (offset: number, from: string, to: string) =>
      (await me.call<{ session: { id: string } }>('POST', '/sessions', { patientId, day: madridIsoDay(offset), from, to })).session.id;
    const a = await book(-1, '09:00', '09:50');
    const b = await book(-2, '08:00', '08:50');
    const c = await book(-2, '11:00', '11:50');
    await me.call('POST', `/sessions/${a}/complete`);
    await me.call('POST', `/sessions/${b}/complete`);
    await me.call('POST', `/sessions/${c}/cancel`, { reason: 'patient' });
    const draft = await me.call<{ id: string }>('POST', '/invoices/from-sessions', { patientId, sessionIds: [a] });
    await me.call('POST', `/invoices/${draft.id}/issue`);
    // A booking service open every day 08:00–12:00 (240 minutes a day): what utilisation is measured against.
    const mornings = [{ from: '08:00', to: '12:00' }];
    await me.call('POST', '/booking-services', {
      title: 'Consulta',
      schedule: { 1: mornings, 2: mornings, 3: mornings, 4: mornings, 5: mornings, 6: mornings, 7: mornings },
      timeZone: 'Europe/Madrid',
      priceCents: 6000,
      modality: 'presential',
      durationMinutes: 50,
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the dashboard shows the month’s money with its 30-day chart, and hides the amounts with one click, remembered', async () => {
    await page.goto('/');
    const card = page.getByRole('heading', { name: 'Ingresos del mes' }).locator('xpath=ancestor::div[contains(@class,"rounded-xl")][1]');
    await card.getByText('60,00 €').first().waitFor();
    // The 30-day area walks by keyboard: End is today, where the invoice was issued.
    const chart = card.getByRole('group', { name: /^Facturado por día, últimos 30 días/ });
    await chart.focus();
    await page.keyboard.press('End');
    await expect.poll(() => card.getByTestId('spark-tooltip').innerText()).toMatch(/Facturado: 60,00\s€/);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => card.getByTestId('spark-tooltip').innerText()).toMatch(/Facturado: 0,00\s€/);
    await shot(page, 'analytics-01-dashboard');
    await card.getByRole('button', { name: 'Ocultar importes' }).click();
    await card.getByText('•••• €').first().waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Mostrar importes' }).first().click();
    await card.getByText('60,00 €').first().waitFor();
  });

  it('walks the four tabs with a preset and a custom range, opens a card to its rows, and exports', async () => {
    await page.goto(`/analytics?tab=sessions&from=${madridIsoDay(-6)}&to=${madridIsoDay(0)}`);
    await page.getByRole('heading', { name: 'Estadísticas', level: 1 }).waitFor();
    const panel = page.getByRole('tabpanel');
    const figure = (label: string) => panel.getByRole('button', { name: new RegExp(`^${label}`) });
    await figure('Realizadas').getByText('2', { exact: true }).waitFor();
    // Utilisation: the two completed sessions' 100 minutes of the 7 × 240 the schedule offers (5,95 %).
    const utilisation = panel.getByText('Ocupación', { exact: true }).locator('..');
    await expect.poll(() => utilisation.innerText()).toMatch(/6\s%[\s\S]*1 h 40 min reservadas de 28 h que ofrece el horario de reservas/);
    await shot(page, 'analytics-02-sessions');

    // The card opens the sessions it counts.
    await figure('Realizadas').click();
    const dialog = page.getByRole('dialog', { name: 'Sesiones realizadas' });
    await dialog.getByText('2 registros').waitFor();
    expect(await dialog.getByRole('link', { name: 'Lucía Romero' }).count()).toBe(2);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    // Focus goes back to the card that opened the dialog.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? '')).toMatch(/^Realizadas/);

    // The chart takes the keyboard: it is in the Tab order, and its arrows walk the bars in its tooltip.
    const chart = panel.locator('svg.recharts-surface[tabindex="0"]').first();
    await chart.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect
      .poll(() =>
        page.evaluate(() => (document.querySelector('[role="tabpanel"] .recharts-tooltip-wrapper') as HTMLElement | null)?.innerText ?? ''),
      )
      .toMatch(/Realizadas : \d/);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A preset, then a custom range.
    await figure('Canceladas').getByText('1', { exact: true }).waitFor();
    await page.getByLabel('Periodo').selectOption('yesterday');
    await figure('Canceladas').getByText('0', { exact: true }).waitFor();
    await figure('Realizadas').getByText('1', { exact: true }).waitFor();
    await page.getByLabel('Periodo').selectOption('custom');
    const dmy = (offset: number) => madridIsoDay(offset).split('-').reverse().join('/');
    await page.getByLabel('Desde').fill(dmy(-2));
    await page.getByLabel('Hasta').fill(dmy(-2));
    await page.getByRole('button', { name: 'Aplicar' }).click();
    await figure('Canceladas').getByText('1', { exact: true }).waitFor();
    await figure('Sesiones').getByText('2', { exact: true }).waitFor();
    await page.getByLabel('Periodo').selectOption('last_7_days');
    await figure('Sesiones').getByText('3', { exact: true }).waitFor();

    // Each tab by keyboard: arrows move between them.
    await page.getByRole('tab', { name: 'Sesiones' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.getByRole('tab', { name: 'Facturación', selected: true }).waitFor();
    await figure('Facturado').getByText('60,00 €').waitFor();
    await figure('Realizado sin facturar').getByText('60,00 €').waitFor();
    await shot(page, 'analytics-03-billing');
    for (const name of ['Pacientes', 'Tratamientos']) {
      await page.getByRole('tab', { name }).click();
      await panel.getByRole('button').first().waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
    }
    await shot(page, 'analytics-04-treatments');

    // The billing tab exported as CSV, read back.
    await page.getByRole('tab', { name: 'Facturación' }).click();
    await figure('Facturado').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^estadisticas-facturacion-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await readFile((await download.path())!, 'utf8');
    expect(text).toContain('Facturado;60,00;');
  });

  it('on Basic shows the month in figures and what Premium adds; the tabs are refused by the server', async () => {
    const basic = await signUpAndIn(browser, baseUrl, 'Berta');
    await ok(
      basic.api.request('PUT', `/workspaces/${basic.workspaceId}/billing/details`, {
        name: 'Berta Ruiz Sanz',
        country: 'ES',
        taxId: '12345678Z',
        line1: 'Calle de Toledo 3',
        city: 'Madrid',
        postalCode: '28005',
      }),
    );
    const { url } = await ok(
      basic.api.request<{ url: string }>('POST', `/workspaces/${basic.workspaceId}/billing/checkout`, {
        planId: 'basic',
        interval: 'month',
      }),
    );
    await basic.page.goto(url);
    await basic.page.getByRole('button', { name: 'Suscribirse' }).click();
    await basic.page.getByRole('heading', { name: 'Ya tienes Basic' }).waitFor({ timeout: 30_000 });
    const refused = await basic.api.request<{ code: string }>(
      'GET',
      `/workspaces/${basic.workspaceId}/analytics/sessions?from=${madridIsoDay(-6)}&to=${madridIsoDay(0)}`,
    );
    expect([refused.status, refused.body.code]).toEqual([403, 'analytics_not_in_plan']);
    await basic.page.goto('/analytics');
    await basic.page.getByRole('heading', { name: 'Resumen del mes' }).waitFor();
    await basic.page.getByRole('heading', { name: 'Estadísticas avanzadas, con Premium y Team' }).waitFor();
    expect(await basic.page.getByRole('tab').count()).toBe(0);
    expect(await seriousA11yViolations(basic.page)).toEqual([]);
    await shot(basic.page, 'analytics-06-basic');
    await basic.page.getByRole('link', { name: 'Ver planes' }).last().click();
    await basic.page.waitForURL(/\/plans$/);
    await basic.context.close();
  });

  it('Recepción counts without the clinical fields: no motive, no Tratamientos, refused by the server too', async () => {
    const clinic = await ok(
      me.api.request<{ id: string; roles: { id: string; name: string }[] }>('POST', '/workspaces', {
        name: 'Clínica Campos',
        template: 'clinic',
      }),
    );
    const rita = await signUpAndIn(browser, baseUrl, 'Rita');
    const invitation = await ok(
      me.api.request<{ id: string }>('POST', `/workspaces/${clinic.id}/invitations`, {
        email: rita.email,
        roleIds: [clinic.roles.find((r) => r.name === 'Recepción')!.id],
      }),
    );
    await ok(rita.api.request('POST', `/invitations/${invitation.id}/accept`));
    const inClinic = me.api.in(clinic.id);
    const patient = await ok(
      inClinic.request<{ id: string }>('POST', '/patients', {
        firstName: 'Marta',
        lastName: 'Sáez',
        assignedTherapistId: me.userId,
        treatment: { sessionPrice: 6000, motive: 'anxiety' },
      }),
    );
    const { session } = await ok(
      inClinic.request<{ session: { id: string } }>('POST', '/sessions', {
        patientId: patient.id,
        therapistId: me.userId,
        day: madridIsoDay(-1),
        from: '10:00',
        to: '10:50',
      }),
    );
    await ok(inClinic.request('POST', `/sessions/${session.id}/complete`));

    const period = `from=${madridIsoDay(-6)}&to=${madridIsoDay(0)}`;
    const asRita = rita.api.in(clinic.id);
    const refused = await asRita.request<{ code: string }>('GET', `/analytics/treatments?${period}`);
    expect(refused.status).toBe(403);
    const patients = await ok(asRita.request<{ stats: { byMotive: unknown } }>('GET', `/analytics/patients?${period}`));
    expect(patients.stats.byMotive).toBeNull();

    const page = rita.page;
    await page.evaluate((id) => {
      const stored = JSON.parse(localStorage.getItem('workspaces') ?? '{}') as { state?: Record<string, unknown> };
      localStorage.setItem('workspaces', JSON.stringify({ ...stored, state: { ...stored.state, currentId: id } }));
    }, clinic.id);
    await page.goto(`/analytics?${period}`);
    const tabs = page.getByRole('tablist', { name: 'Estadísticas' });
    await tabs.getByRole('tab', { name: 'Pacientes' }).click();
    const motive = page
      .getByRole('tabpanel')
      .locator('div')
      .filter({ has: page.getByText('Motivo de consulta', { exact: true }) });
    await motive.getByText('Tu rol no incluye estos datos clínicos.').first().waitFor();
    expect(await tabs.getByRole('tab').allInnerTexts()).not.toContain('Tratamientos');
    await tabs.getByRole('tab', { name: 'Sesiones' }).click();
    await page.getByRole('tabpanel').getByText('Realizadas').first().waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'analytics-07-reception');
    await rita.context.close();
  });

  it('reads on a phone', async () => {
    const phone = await (await phoneOf(browser, me.context)).newPage();
    await phone.goto('/analytics?tab=sessions');
    await phone.getByRole('tabpanel').getByRole('button').first().waitFor();
    await shot(phone, 'analytics-05-phone');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  });
});
