import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, phoneOf, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { signUpAndIn } from '../support/accounts';
import { madridDmy } from '../support/days';

const baseUrl = inject('baseUrl');

describe.skipIf(!hasChromium || !baseUrl)('tasks: the therapist’s to-do list on the dashboard and in a patient’s file', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let patientId = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    // Sign up through the API, confirm in the browser (which signs it in), create the patient through the API.
    const me = await signUpAndIn(browser, baseUrl, 'Teresa');
    ({ context, page } = me);
    patientId = (await me.call<{ id: string }>('POST', '/patients', { firstName: 'Pilar', lastName: 'Ortega' })).id;
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
    await page.keyboard.type(madridDmy(0));
    await page.keyboard.press('Enter');
    await card().getByRole('button', { name: 'Editar tarea «Llamar a la mutua»' }).waitFor();
    // The form is ready for the next one: empty, focus back on the title.
    await expect.poll(() => title.inputValue()).toBe('');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Nueva tarea');

    await title.fill('Revisar informe de evolución');
    await due.fill(madridDmy(-2));
    await title.press('Enter');
    await title.fill('Renovar el seguro de la consulta');
    await title.press('Enter');
    const items = card().getByRole('list', { name: 'Tareas pendientes' }).getByRole('listitem');
    await expect.poll(() => items.count()).toBe(3);
    expect(await items.allInnerTexts()).toEqual([
      expect.stringMatching(new RegExp(`Revisar informe de evolución[\\s\\S]*Vencida · ${madridDmy(-2)}`)),
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
    await card().getByRole('textbox', { name: 'Fecha límite (DD/MM/AAAA)' }).fill(madridDmy(1));
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
      .getByText(`Vencida · ${madridDmy(-2)}`)
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
      .fill(madridDmy(3));
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
