import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { allowConsole, launchBrowser, newContext, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { emailFor, signUpAndIn, type SignedIn } from '../support/accounts';
import { linkIn, mailsTo, waitForMail } from '../support/mail';
import { publicApi } from '../support/api';

const baseUrl = inject('baseUrl');

/** Answers each item by its option label, in order (native radios, as a patient taps them). */
async function answer(page: Page, labels: string[]) {
  for (const [i, label] of labels.entries())
    await page
      .getByTestId(`item-${i + 1}`)
      .getByRole('radio', { name: label, exact: true })
      .check();
}
const [N, V, M] = ['Nunca', 'Varios días', 'Más de la mitad de los días'];

/**
 * Outcome measures (issue 32): the therapist sends PHQ-9 from the patient's «Cuestionarios» tab; the
 * patient opens the mailed link on a phone, is stopped while an item is unanswered (and the API refuses
 * a partial answer in Spanish), answers all nine and is thanked; the therapist sees the scored point on
 * the trend. A second PHQ-9 with item 9 above 0 shows the patient the 024 line, raises the flag in the
 * file, and the trend marks the reliable change. Data through the API where the screens are not the point.
 */
describe.skipIf(!hasChromium || !baseUrl)('outcome measures: send PHQ-9, answer on a phone, trend and risk flag', () => {
  let browser: Browser;
  let me: SignedIn;
  let phone: BrowserContext;
  let patientPage: Page;
  let patientId = '';
  let firstLink = '';
  const patientEmail = emailFor('Irene');
  const file = () => `/patients/${patientId}/measures`;

  beforeAll(async () => {
    browser = await launchBrowser();
    me = await signUpAndIn(browser, baseUrl, 'Elena');
    patientId = (await me.call<{ id: string }>('POST', '/patients', { firstName: 'Irene', lastName: 'Campos', email: patientEmail })).id;
    phone = await newContext(browser, baseUrl, { mobile: true });
    patientPage = await phone.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the therapist sends PHQ-9 from the «Cuestionarios» tab; it is listed as pending', async () => {
    const page = me.page;
    await page.goto(file());
    await page.getByRole('link', { name: 'Cuestionarios' }).waitFor();
    await page.getByText('Sin cuestionarios').waitFor();
    await page.getByRole('button', { name: 'Enviar cuestionario' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enviar cuestionario' });
    await dialog.getByLabel('Cuestionario').selectOption('phq9');
    await dialog.getByRole('button', { name: 'Enviar', exact: true }).click();
    await dialog.getByLabel('Enlace del cuestionario').waitFor();
    await dialog.getByRole('button', { name: 'Hecho' }).click();
    await page.getByTestId('measures-list').getByText('Pendiente').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'measures-01-sent-desktop');
  });

  it('the patient opens the mailed link on a phone: a partial answer is refused, the full one is thanked', async () => {
    const link = linkIn(await waitForMail(baseUrl, patientEmail, (m) => m.text.includes('/p/cuestionario/')), '/p/cuestionario');
    firstLink = link;
    await patientPage.goto(link);
    await patientPage.getByRole('heading', { level: 1, name: /PHQ-9/ }).waitFor();
    await patientPage.getByText('0 de 9 respondidas').waitFor();
    await answer(patientPage, [V, M, V, M, V, V, M, V]);
    await patientPage.getByText('8 de 9 respondidas').waitFor();
    await patientPage.getByRole('button', { name: 'Enviar respuestas' }).click();
    await patientPage.getByTestId('answer-error').getByText('Falta 1 pregunta por responder.').waitFor();
    await patientPage.getByTestId('item-9').getByText('Responde esta pregunta').waitFor();
    expect(await patientPage.getByTestId('item-9').getAttribute('aria-invalid')).toBe('true');
    // The server refuses a partial answer too, naming the item, in Spanish.
    const token = link.split('/').pop()!;
    const partial = await publicApi.post(`/public/measures/${token}/answers`, { answers: [1, 2, 1, 2, 1, 1, 2, 1] });
    expect(partial.status).toBe(400);
    expect(partial.body).toMatchObject({
      code: 'measure_incomplete',
      message: 'Responde todas las preguntas antes de enviar el cuestionario.',
      fields: [{ path: 'answers.8', message: 'Responde la pregunta 9' }],
    });
    expect(await seriousA11yViolations(patientPage)).toEqual([]);
    await shot(patientPage, 'measures-02-partial-phone');
    expect(await patientPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await answer(patientPage, [V, M, V, M, V, V, M, V, N]);
    expect(await patientPage.getByTestId('crisis-line').count()).toBe(0);
    await patientPage.getByRole('button', { name: 'Enviar respuestas' }).click();
    await patientPage.getByTestId('measure-done').getByText('Tus respuestas se han enviado a tu terapeuta.').waitFor();
    expect(await patientPage.getByTestId('crisis-line').count()).toBe(0);
    await shot(patientPage, 'measures-03-done-phone');
    // Used: the link says so (its read is refused with a 409, which the page turns into this state).
    allowConsole({ text: /status of 409/, url: /\/api\/v1\/public\/measures\//, because: 'the used link is refused on purpose' });
    await patientPage.goto(link);
    await patientPage.getByRole('heading', { level: 1, name: 'Cuestionario ya respondido' }).waitFor();
  });

  it('the therapist sees the scored point on the trend (11, moderada) within a minute', async () => {
    const page = me.page;
    await page.goto(file());
    const trend = page.getByTestId('trend-phq9-total');
    await trend.waitFor({ timeout: 60_000 });
    expect(await trend.locator('tbody tr').allInnerTexts()).toEqual([expect.stringMatching(/11\s+Moderada\s+Primera/)]);
    await trend.locator('.recharts-surface').waitFor();
    await page.getByTestId('measures-list').getByTestId('score').getByText('11 (Moderada)').waitFor();
    await shot(page, 'measures-04-trend-desktop');
  });

  it('item 9 above 0: the patient sees 024 only; the therapist is mailed, sees the flag and the reliable change, and reviews it', async () => {
    const before = (await mailsTo(baseUrl, patientEmail)).length;
    await me.call('POST', `/patients/${patientId}/measures/send`, { measure: 'phq9' });
    const mail = await waitForMail(baseUrl, patientEmail, (m) => m.text.includes('/p/cuestionario/') && !m.text.includes(firstLink));
    expect((await mailsTo(baseUrl, patientEmail)).length).toBe(before + 1);
    await patientPage.goto(linkIn(mail, '/p/cuestionario'));
    await answer(patientPage, [N, V, N, V, N, V, N, N, V]);
    await patientPage.getByTestId('crisis-line').getByRole('link', { name: 'Llamar al 024' }).waitFor();
    await shot(patientPage, 'measures-05-crisis-line-phone');
    await patientPage.getByRole('button', { name: 'Enviar respuestas' }).click();
    await patientPage.getByTestId('measure-done').getByTestId('crisis-line').waitFor();

    await waitForMail(baseUrl, me.email, (m) => m.subject === 'Aviso de riesgo en un cuestionario de Irene Campos');
    const page = me.page;
    await page.goto(file());
    const flag = page.getByTestId('risk-flag');
    await flag.getByText(/Posible riesgo/).waitFor();
    await flag.getByText(/pregunta 9/).waitFor();
    const trend = page.getByTestId('trend-phq9-total');
    await trend.getByTestId('classification').getByText('Recuperación').waitFor();
    expect(await trend.locator('tbody tr').count()).toBe(2);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'measures-06-flag-desktop');
    // The dashboard shows the unreviewed flag, linking to the patient's tab.
    await page.goto('/');
    const card = page.getByTestId('risk-flags-card');
    await card.getByText('Posible riesgo sin revisar').waitFor();
    await shot(page, 'measures-07-dashboard-flag-desktop');
    await card.getByRole('link', { name: 'Irene Campos' }).click();
    await page.waitForURL((u) => u.pathname === file());
    await flag.getByRole('button', { name: 'Marcar como revisado' }).click();
    await flag.waitFor({ state: 'detached' });
    await page.getByTestId('measures-list').getByText('Riesgo revisado').waitFor();
  });

  it('a schedule tied to sessions, set by keyboard: every 2 weeks, paused, resumed and stopped', async () => {
    const page = me.page;
    await page.goto(file());
    await page.getByText('Sin envíos programados.').waitFor();
    await page.getByRole('button', { name: 'Programar envío' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Programar envío' });
    await dialog.getByLabel('Cuestionario').selectOption('gad7');
    await dialog.getByLabel('Frecuencia').selectOption('every_n_weeks');
    const weeks = dialog.getByLabel('Cada cuántas semanas');
    await weeks.fill('');
    await weeks.press('Enter');
    await dialog.getByText('Indica un número de semanas entre 1 y 26.').waitFor();
    await weeks.fill('2');
    await weeks.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    const list = page.getByTestId('measure-schedules');
    await list.getByText('Cada 2 semanas, antes de la sesión').waitFor();
    await list.getByText('Activa').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'measures-08-schedule-desktop');
    await list.getByRole('button', { name: 'Pausar' }).click();
    await list.getByText('En pausa').waitFor();
    await list.getByRole('button', { name: 'Reanudar' }).click();
    await list.getByText('Activa').waitFor();
    await list.getByRole('button', { name: 'Detener' }).click();
    await page.getByRole('alertdialog', { name: 'Detener los envíos' }).getByRole('button', { name: 'Detener' }).click();
    await page.getByText('Sin envíos programados.').waitFor();
    await page.getByText(/Detenidas: GAD-7/).waitFor();
    const [schedule] = await me.call<{ status: string; cadence: string; everyWeeks: number }[]>(
      'GET',
      `/patients/${patientId}/measure-schedules`,
    );
    expect(schedule).toMatchObject({ status: 'stopped', cadence: 'every_n_weeks', everyWeeks: 2 });
  });
});
