import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, phoneOf, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { ok } from '../support/api';
import { signUpAndIn, type SignedIn } from '../support/accounts';

const baseUrl = inject('baseUrl');

type Preview = { subtotal: number; proration: number; lines: { description: string; amount: number; proration: boolean }[] };

/**
 * Ajustes › Espacio › Plan (issue 27) in Chromium, on the sandbox's Billing: a team workspace on Premium
 * monthly adds a member (the next invoice carries the proration the provider's preview said), switches
 * to yearly, turns the renewal off («Renovación desactivada») and on again, and adds a card on the
 * provider's portal. The member sees the plan, not its amounts.
 */
describe.skipIf(!hasChromium || !baseUrl)('plans: managing Premium in a team workspace', () => {
  let browser: Browser;
  let olga: SignedIn;
  let tere: SignedIn;
  let page: Page;
  let teamId = '';
  let roleId = '';
  const api = <T>(who: SignedIn, method: string, path: string, body?: unknown): Promise<T> => ok(who.api.request<T>(method, path, body));
  const money = (cents: number) => new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' }).format(cents / 100);

  beforeAll(async () => {
    browser = await launchBrowser();
    [olga, tere] = await Promise.all([signUpAndIn(browser, baseUrl, 'Olga'), signUpAndIn(browser, baseUrl, 'Tere')]);
    const ws = await api<{ id: string; roles: { id: string; name: string }[] }>(olga, 'POST', '/workspaces', {
      name: 'Equipo del Retiro',
      template: 'team',
    });
    teamId = ws.id;
    roleId = ws.roles.find((r) => r.name === 'Terapeuta')!.id;
    page = olga.page;
    // Premium monthly, bought through the hosted Checkout (whom Diván invoices given first); the success page switches to the workspace paid for.
    await api(olga, 'PUT', `/workspaces/${teamId}/billing/details`, {
      name: 'Equipo del Retiro S.L.',
      country: 'ES',
      taxId: 'B12345674',
      line1: 'Paseo del Prado 1',
      city: 'Madrid',
      postalCode: '28014',
    });
    const { url } = await api<{ url: string }>(olga, 'POST', `/workspaces/${teamId}/billing/checkout`, {
      planId: 'advance',
      interval: 'month',
    });
    await page.goto(url);
    await page.getByRole('button', { name: 'Suscribirse' }).click();
    await page.getByRole('heading', { name: 'Ya tienes Premium' }).waitFor({ timeout: 30_000 });
  });
  afterAll(async () => {
    await browser?.close();
  });

  const panel = () => page.getByTestId('subscription');

  it('adds a member: the next payment carries the proration the preview said', async () => {
    const preview = await api<Preview>(olga, 'GET', `/workspaces/${teamId}/billing/next-invoice?quantity=2`);
    expect(preview.proration).toBeGreaterThan(0);
    const invitation = await api<{ id: string }>(olga, 'POST', `/workspaces/${teamId}/invitations`, {
      email: tere.email,
      roleIds: [roleId],
    });
    await api(tere, 'POST', `/invitations/${invitation.id}/accept`);
    await page.goto('/settings/workspace/plan');
    await panel().getByText('Premium · Mensual').waitFor();
    // The seats job pushes the new quantity a few seconds after the change.
    await expect
      .poll(
        async () => (await api<{ subscription: { quantity: number } }>(olga, 'GET', `/workspaces/${teamId}/billing`)).subscription.quantity,
        {
          timeout: 30_000,
        },
      )
      .toBe(2);
    const after = await api<Preview>(olga, 'GET', `/workspaces/${teamId}/billing/next-invoice`);
    // A month's proration moves by a hundredth of a cent a second: the same to the cent.
    expect(Math.abs(after.proration - preview.proration)).toBeLessThanOrEqual(1);
    await page.reload();
    await panel()
      .getByText(`2 usuarios × ${money(2900)}`, { exact: false })
      .waitFor();
    const lines = panel().getByRole('list', { name: 'Líneas del próximo pago' });
    await lines.getByText('Ajuste por el cambio').first().waitFor();
    await lines.getByText(`${money(after.subtotal)} + IVA`, { exact: false }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'plans-manage-01-panel');
  });

  it('switches to yearly after the server’s preview, then turns the renewal off and on again', async () => {
    await panel().getByRole('button', { name: 'Cambiar de plan' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cambiar de plan' });
    await dialog.getByRole('radio', { name: /Anual/ }).click();
    await dialog.getByText(/ahora/i).first().waitFor();
    await shot(page, 'plans-manage-02-change');
    await dialog.getByRole('button', { name: 'Confirmar cambio' }).click();
    await dialog.waitFor({ state: 'detached' });
    await panel().getByText('Premium · Anual').waitFor();

    await panel().getByRole('button', { name: 'Desactivar renovación' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Desactivar renovación' }).click();
    await expect.poll(() => panel().getByTestId('subscription-status').textContent()).toBe('Renovación desactivada');
    await panel()
      .getByText(/^Termina el \d{2}\/\d{2}\/\d{4}$/)
      .waitFor();
    await shot(page, 'plans-manage-03-renewal-off');
    await panel().getByRole('button', { name: 'Reactivar renovación' }).click();
    await expect.poll(() => panel().getByTestId('subscription-status').textContent()).toBe('Activa');
    const ws = await api<{ plan: { id: string; renovationEnabled: boolean } }>(olga, 'GET', `/workspaces/${teamId}`);
    expect(ws.plan).toMatchObject({ id: 'advance', renovationEnabled: true });
  });

  it('back to monthly waits for the renewal, said on the panel, and «Anular el cambio» drops it', async () => {
    await panel().getByRole('button', { name: 'Cambiar de plan' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cambiar de plan' });
    await dialog.getByRole('radio', { name: 'Mensual' }).click();
    await dialog.getByText(/^Se aplicará al renovar, el \d{2}\/\d{2}\/\d{4}\./).waitFor();
    await dialog.getByRole('button', { name: 'Confirmar cambio' }).click();
    await dialog.waitFor({ state: 'detached' });
    const notice = panel().getByTestId('scheduled-change');
    await notice.getByText(/pasarás a Premium mensual/).waitFor();
    // The year stays until then.
    await panel().getByText('Premium · Anual').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'plans-manage-03b-monthly-at-renewal');
    await notice.getByRole('button', { name: 'Anular el cambio' }).click();
    await notice.waitFor({ state: 'detached' });
    const overview = await api<{ subscription: { interval: string; scheduledChange: unknown } }>(
      olga,
      'GET',
      `/workspaces/${teamId}/billing`,
    );
    expect(overview.subscription).toMatchObject({ interval: 'year', scheduledChange: null });
  });

  it('adds a card on the provider’s portal and comes back', async () => {
    await panel().getByRole('button', { name: 'Tarjetas y recibos' }).click();
    await page.waitForURL(/\/sandbox\/stripe\/portal\/bps_/);
    await page.getByLabel('Número de tarjeta').fill('5555 5555 5555 4444');
    await page.getByLabel('Caducidad (MM/AA)').fill('12/30');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Añadir tarjeta' }).click();
    await page.getByText('Tarjeta ···· 4444 añadida').waitFor();
    await shot(page, 'plans-manage-04-portal');
    await page.getByRole('link', { name: 'Volver a Diván' }).click();
    await page.waitForURL(/\/settings\/workspace\/plan$/);
    await panel().getByText('Premium · Anual').waitFor();
  });

  it('shows the member the plan but not its amounts, on a phone', async () => {
    // Tere works in the team workspace (the switcher has its own tests); the phone shares her session.
    await tere.page.evaluate((id) => {
      const stored = JSON.parse(localStorage.getItem('workspaces') ?? '{}') as { state?: Record<string, unknown> };
      localStorage.setItem('workspaces', JSON.stringify({ ...stored, state: { ...stored.state, currentId: id } }));
    }, teamId);
    const phone = await phoneOf(browser, tere.context);
    const mobile = await phone.newPage();
    await mobile.goto('/settings/workspace/plan');
    const memberPanel = mobile.getByTestId('subscription');
    await memberPanel.getByText('Los cambios de plan los decide quien administra el espacio').waitFor();
    expect(await memberPanel.getByRole('button').count()).toBe(0);
    expect(await memberPanel.getByText(/usuarios ×/).count()).toBe(0);
    await shot(mobile, 'plans-manage-05-member-phone');
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await phone.close();
  });
});
