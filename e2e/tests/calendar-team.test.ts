import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { signUpAndIn, type SignedIn } from '../support/accounts';
import { ok } from '../support/api';
import { dmy, madridIsoDay } from '../support/days';

const baseUrl = inject('baseUrl');
type Session = { id: string; day: string; from: string; to: string; therapist: { id: string; name: string } };

/**
 * A clinic's calendar: one column per therapist (the resource view), a session dragged from one
 * therapist's column to another's, «Solo mis sesiones», and a colleague's new session appearing
 * without a reload.
 */
describe.skipIf(!hasChromium || !baseUrl)('calendar of a clinic: the team view', () => {
  let browser: Browser;
  let olga: SignedIn;
  let tere: SignedIn;
  let page: Page;
  let clinicId = '';
  const day = madridIsoDay(8);
  const api = <T>(who: SignedIn, method: string, path: string, body?: unknown): Promise<T> => ok(who.api.request<T>(method, path, body));
  const inClinic = <T>(who: SignedIn, method: string, path: string, body?: unknown) =>
    api<T>(who, method, `/workspaces/${clinicId}${path}`, body);
  const eventOf = (id: string) => page.locator(`.ec-event[data-session-id="${id}"]`);
  const column = (name: string) => page.locator('.ec-col-head').filter({ hasText: name });
  let toMove = '';
  let ana = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    [olga, tere] = await Promise.all([signUpAndIn(browser, baseUrl, 'Olga'), signUpAndIn(browser, baseUrl, 'Tere')]);
    const ws = await api<{ id: string; roles: { id: string; name: string }[] }>(olga, 'POST', '/workspaces', {
      name: 'Clínica del Prado',
      template: 'clinic',
    });
    clinicId = ws.id;
    const invitation = await inClinic<{ id: string }>(olga, 'POST', '/invitations', {
      email: tere.email,
      roleIds: [ws.roles.find((r) => r.name === 'Terapeuta')!.id],
    });
    await api(tere, 'POST', `/invitations/${invitation.id}/accept`);
    const patient = async (firstName: string, therapist: SignedIn) =>
      (await inClinic<{ id: string }>(olga, 'POST', '/patients', { firstName, lastName: 'Prueba', assignedTherapistId: therapist.userId }))
        .id;
    let bruno = '';
    [ana, bruno] = await Promise.all([patient('Ana', olga), patient('Bruno', tere)]);
    const book = async (patientId: string, therapist: SignedIn, from: string, to: string) =>
      (await inClinic<{ session: Session }>(olga, 'POST', '/sessions', { patientId, therapistId: therapist.userId, day, from, to })).session
        .id;
    await book(ana, olga, '09:00', '09:50');
    toMove = await book(bruno, tere, '11:00', '11:50');

    page = olga.page;
    // Olga works in the clinic now (the switcher has its own tests).
    await page.evaluate((id) => {
      const stored = JSON.parse(localStorage.getItem('workspaces') ?? '{}') as { state?: Record<string, unknown> };
      localStorage.setItem('workspaces', JSON.stringify({ ...stored, state: { ...stored.state, currentId: id } }));
    }, clinicId);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows one column per therapist, each session in its therapist’s column', async () => {
    await page.goto(`/calendar?view=team&date=${day}`);
    await column('Olga').waitFor();
    await column('Tere').waitFor();
    await eventOf(toMove).waitFor();
    const [olgaCol, tereCol, ev] = [
      await column('Olga').boundingBox(),
      await column('Tere').boundingBox(),
      await eventOf(toMove).boundingBox(),
    ];
    expect(ev!.x).toBeGreaterThanOrEqual(tereCol!.x - 1);
    expect(ev!.x).toBeLessThan(tereCol!.x + tereCol!.width);
    expect(olgaCol!.x).not.toBe(tereCol!.x);
    await shot(page, 'calendar-09-team');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('a drag to another therapist’s column gives the session to them', async () => {
    const [olgaCol, tereCol] = [(await column('Olga').boundingBox())!, (await column('Tere').boundingBox())!];
    const box = (await eventOf(toMove).boundingBox())!;
    const start = { x: box.x + box.width / 2, y: box.y + 6 };
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x + (olgaCol.x - tereCol.x) / 2, start.y, { steps: 6 });
    await page.mouse.move(start.x + (olgaCol.x - tereCol.x), start.y, { steps: 6 });
    await page.mouse.up();
    await page.getByText('Sesión movida').waitFor();
    await expect.poll(async () => (await inClinic<Session>(olga, 'GET', `/sessions/${toMove}`)).therapist.id).toBe(olga.userId);
    expect(await inClinic<Session>(olga, 'GET', `/sessions/${toMove}`)).toMatchObject({ day, from: '11:00', to: '11:50' });
  });

  it('warns in the form of a double-booked therapist, and saves anyway', async () => {
    await page.goto(`/calendar?view=team&date=${day}&new=1&patientId=${ana}`);
    const form = page.getByRole('dialog', { name: 'Nueva sesión' });
    await form.getByTestId('picked-patient').getByText('Ana Prueba').waitFor();
    await form.getByLabel('Día').fill(dmy(day));
    await form.getByLabel('De', { exact: true }).fill('09:20');
    await form.getByText('Se solapa con Ana Prueba (09:00–09:50). Puedes guardarla igualmente.').waitFor();
    await shot(page, 'calendar-10-overlap');
    await form.getByRole('button', { name: 'Crear sesión' }).click();
    await page.getByText('Atención: hay un solapamiento').waitFor();
    const sessions = (
      await inClinic<{ items: Session[] }>(olga, 'GET', `/sessions?from=${day}T00:00:00Z&to=${day}T23:59:00Z&therapistId=${olga.userId}`)
    ).items;
    expect(sessions.filter((s) => s.from === '09:20')).toHaveLength(1);
  });

  it('a colleague’s new session appears without a reload, and «Solo mis sesiones» hides it', async () => {
    const carla = (
      await inClinic<{ id: string }>(olga, 'POST', '/patients', {
        firstName: 'Carla',
        lastName: 'Prueba',
        assignedTherapistId: tere.userId,
      })
    ).id;
    const created = (await inClinic<{ session: Session }>(tere, 'POST', '/sessions', { patientId: carla, day, from: '16:00', to: '16:50' }))
      .session.id;
    // Heard over the websocket: no navigation in between.
    await eventOf(created).waitFor();
    await page.getByRole('radio', { name: 'Solo mis sesiones' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('who')).toBe('mine');
    await eventOf(created).waitFor({ state: 'detached' });
    await eventOf(toMove).waitFor();
  });

  it('«Saldo de honorarios»: what the clinic owes each therapist for the period', async () => {
    const members = await inClinic<{ id: string; userId: string | null }[]>(olga, 'GET', '/members');
    const tereSeat = members.find((m) => m.userId === tere.userId)!;
    // The clinic keeps 40 % of Tere's sessions and collects them: it owes her the other 60 % of what her patients paid it.
    await inClinic(olga, 'PATCH', `/members/${tereSeat.id}`, {
      commission: { type: 'percentage', value: 4000 },
      paymentsReceiver: 'workspace',
    });
    const dana = (
      await inClinic<{ id: string }>(olga, 'POST', '/patients', { firstName: 'Dana', lastName: 'Prueba', assignedTherapistId: tere.userId })
    ).id;
    const past = madridIsoDay(-2);
    const done = (
      await inClinic<{ session: Session }>(olga, 'POST', '/sessions', {
        patientId: dana,
        therapistId: tere.userId,
        day: past,
        from: '10:00',
        to: '10:50',
        price: 6000,
      })
    ).session.id;
    await inClinic(olga, 'POST', `/sessions/${done}/complete`);
    await page.goto('/billing');
    await page.getByRole('link', { name: 'Saldo de honorarios' }).click();
    await page.getByRole('heading', { name: 'Saldo de honorarios' }).waitFor();
    await page.getByLabel('Desde').fill(dmy(madridIsoDay(-7)));
    await page.getByLabel('Hasta').fill(dmy(madridIsoDay(0)));
    const row = page.getByRole('region', { name: 'Saldo por terapeuta' }).getByRole('row', { name: /^Tere/ });
    await expect
      .poll(() => row.textContent())
      .toMatch(/^Tere.*1\s*60,00\s€36,00\s€24,00\s€60,00\s€0,00\s€El espacio debe 36,00\s€ a Tere$/);
    await shot(page, 'billing-10-fee-balance');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
