import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, seriousA11yViolations, shareSession, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { linkIn, waitForMail } from '../support/mail';

const baseUrl = inject('baseUrl');
const email = `tareas.${Date.now()}@example.com`;
const headers = { 'Content-Type': 'application/json', 'X-Client-Version': '1.0.0' };

/** A day in Madrid as the screens type it (DD/MM/YYYY), `offset` days from today. */
function madridDay(offset = 0): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
  const [y, m, d] = parts.split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d + offset));
  return `${String(day.getUTCDate()).padStart(2, '0')}/${String(day.getUTCMonth() + 1).padStart(2, '0')}/${day.getUTCFullYear()}`;
}

/** A 390 px wide phone signed in as the same therapist. */
async function phoneOf(browser: Browser, desktop: BrowserContext): Promise<BrowserContext> {
  const phone = await browser.newContext({
    baseURL: baseUrl,
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1,
  });
  await shareSession(phone, desktop);
  return phone;
}

describe.skipIf(!hasChromium || !baseUrl)('tasks: the therapist’s to-do list on the dashboard and in a patient’s file', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let patientId = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await newContext(browser, baseUrl);
    page = await context.newPage();
    // Sign up through the API, confirm in the browser (which signs it in), create the patient through the API.
    const res = await fetch(`${baseUrl}/api/v1/realms/therapists/users`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ firstName: 'Teresa', email, password: 'Consulta2025' }),
    });
    expect(res.status).toBe(201);
    const mail = await waitForMail(baseUrl, email, (m) => m.text.includes('/verify-email/'));
    await page.goto(linkIn(mail, '/verify-email'));
    await page.waitForURL(`${baseUrl}/`);
    await page.waitForFunction(
      () => !!(JSON.parse(localStorage.getItem('workspaces') ?? '{}') as { state?: { currentId?: string } }).state?.currentId,
    );
    const { accessToken, workspaceId } = await page.evaluate(() => ({
      accessToken: (JSON.parse(localStorage.getItem('auth') ?? '{}') as { state?: { accessToken?: string } }).state?.accessToken ?? '',
      workspaceId: (JSON.parse(localStorage.getItem('workspaces') ?? '{}') as { state?: { currentId?: string } }).state?.currentId ?? '',
    }));
    const created = await fetch(`${baseUrl}/api/v1/workspaces/${workspaceId}/patients`, {
      method: 'POST',
      headers: { ...headers, Authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ firstName: 'Pilar', lastName: 'Ortega' }),
    });
    expect(created.status).toBe(201);
    patientId = ((await created.json()) as { id: string }).id;
  });
  afterAll(async () => {
    await browser?.close();
  });

  const card = () => page.getByRole('region', { name: 'Tareas' });

  it('adds tasks with Enter on the dashboard, the overdue and today’s first, and keeps one ticked done', async () => {
    await page.goto('/');
    await card().getByText('No tienes tareas pendientes.').waitFor();
    const title = card().getByRole('textbox', { name: 'Nueva tarea', exact: true });
    const due = card().getByRole('textbox', { name: /Fecha límite de la nueva tarea/ });

    // Keyboard only: type, Tab to the day, Enter.
    await title.fill('Llamar a la mutua');
    await page.keyboard.press('Tab');
    await page.keyboard.type(madridDay(0));
    await page.keyboard.press('Enter');
    await card().getByRole('button', { name: 'Editar tarea «Llamar a la mutua»' }).waitFor();
    // The form is ready for the next one: empty, focus back on the title.
    await expect.poll(() => title.inputValue()).toBe('');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Nueva tarea');

    await title.fill('Revisar informe de evolución');
    await due.fill(madridDay(-2));
    await title.press('Enter');
    await title.fill('Renovar el seguro de la consulta');
    await title.press('Enter');
    const items = card().getByRole('list', { name: 'Tareas pendientes' }).getByRole('listitem');
    await expect.poll(() => items.count()).toBe(3);
    expect(await items.allInnerTexts()).toEqual([
      expect.stringMatching(new RegExp(`Revisar informe de evolución[\\s\\S]*Vencida · ${madridDay(-2)}`)),
      expect.stringMatching(/Llamar a la mutua[\s\S]*Hoy/),
      expect.stringContaining('Renovar el seguro de la consulta'),
    ]);
    await card().getByText('2 para hoy o vencidas').waitFor();

    // A day that is not in the calendar is refused in Spanish, before any request.
    await title.fill('Cita imposible');
    await due.fill('30/02/2026');
    await title.press('Enter');
    await card().getByRole('alert').getByText('Fecha inválida').waitFor();
    await title.fill('');
    await due.fill('');

    await shot(page, 'tasks-01-dashboard');

    // Tick it done: it leaves the open list, and stays done after a reload.
    await card().getByRole('checkbox', { name: 'Marcar «Llamar a la mutua» como hecha' }).click();
    await expect.poll(() => items.count()).toBe(2);
    await page.getByText('Tarea completada').waitFor();
    await page.reload();
    const more = card().getByRole('button', { name: 'Ver completadas (1)' });
    await more.click();
    await card()
      .getByRole('list', { name: 'Tareas completadas' })
      .getByRole('checkbox', { name: 'Marcar «Llamar a la mutua» como pendiente' })
      .waitFor();
    expect(await card().getByRole('checkbox', { name: 'Marcar «Llamar a la mutua» como pendiente' }).isChecked()).toBe(true);
  });

  it('edits a task in place (Enter saves, Esc cancels) and undoes a delete', async () => {
    await card().getByRole('button', { name: 'Editar tarea «Renovar el seguro de la consulta»' }).click();
    const edit = card().getByRole('textbox', { name: 'Título de la tarea' });
    await edit.fill('Renovar el seguro de responsabilidad civil');
    await card().getByRole('textbox', { name: 'Fecha límite (DD/MM/AAAA)' }).fill(madridDay(1));
    await edit.press('Enter');
    await card().getByRole('button', { name: 'Editar tarea «Renovar el seguro de responsabilidad civil»' }).waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Editar tarea «Renovar el seguro de responsabilidad civil»');
    await card().getByText('Mañana').waitFor();

    // Esc leaves it as it was.
    await page.keyboard.press('Enter');
    await card().getByRole('textbox', { name: 'Título de la tarea' }).fill('No debería quedarse');
    await page.keyboard.press('Escape');
    await card().getByRole('button', { name: 'Editar tarea «Renovar el seguro de responsabilidad civil»' }).waitFor();
    expect(await card().getByText('No debería quedarse').count()).toBe(0);

    await card().getByRole('button', { name: 'Eliminar «Revisar informe de evolución»' }).click();
    await page.getByText('Tarea eliminada').waitFor();
    await expect.poll(() => card().getByRole('button', { name: 'Editar tarea «Revisar informe de evolución»' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Deshacer' }).click();
    await card().getByRole('button', { name: 'Editar tarea «Revisar informe de evolución»' }).waitFor();
    await card()
      .getByText(`Vencida · ${madridDay(-2)}`)
      .waitFor();
  });

  it('adds a task from the patient’s overview, listed there alone and on the dashboard with the patient', async () => {
    await page.goto(`/patients/${patientId}/overview`);
    await page.getByRole('heading', { level: 1, name: 'Pilar Ortega' }).waitFor();
    await card().getByText('No tienes tareas pendientes con este paciente.').waitFor();
    const title = card().getByRole('textbox', { name: 'Nueva tarea sobre Pilar Ortega' });
    await title.fill('Enviar el cuestionario BDI');
    await card()
      .getByRole('textbox', { name: /Fecha límite de la nueva tarea/ })
      .fill(madridDay(3));
    await title.press('Enter');
    await card().getByRole('button', { name: 'Editar tarea «Enviar el cuestionario BDI»' }).waitFor();
    // Only this patient's tasks here.
    expect(await card().getByRole('listitem').count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'tasks-02-patient-overview');

    await page.goto('/');
    await card().getByRole('link', { name: 'Pilar Ortega' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await card().getByRole('link', { name: 'Pilar Ortega' }).click();
    await page.waitForURL(`${baseUrl}/patients/${patientId}/overview`);
  });

  it('fits a 390 px phone', async () => {
    const phone = await phoneOf(browser, context);
    const p = await phone.newPage();
    await p.goto('/');
    const phoneCard = p.getByRole('region', { name: 'Tareas' });
    await phoneCard.getByRole('button', { name: 'Editar tarea «Enviar el cuestionario BDI»' }).waitFor();
    // Nothing wider than the screen.
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phoneCard.scrollIntoViewIfNeeded();
    await shot(p, 'tasks-03-mobile-dashboard');
    await p.goto(`/patients/${patientId}/overview`);
    await p.getByRole('region', { name: 'Tareas' }).getByRole('button', { name: 'Editar tarea «Enviar el cuestionario BDI»' }).waitFor();
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(p, 'tasks-04-mobile-patient-overview');
    await phone.close();
  });
});
