import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newContext, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { apiAs, ok } from '../support/api';
import { emailFor, signUpAndIn, type SignedIn } from '../support/accounts';
import { linkIn, waitForMail } from '../support/mail';

const baseUrl = inject('baseUrl');
const DAY = 86_400_000;

type Referral = { code: string; link: string; friends: { firstName: string; status: string }[] };
type WorkspaceRow = { id: string; plan: { freeTrialEnd: string | null } };

/**
 * Referral in Chromium (issue 27 slice 5): Ana's link on Ajustes › Invitar opened by a colleague who
 * has no account — the sign-up page greets her with Ana's name and the code filled in — and, once she
 * confirms her mail, her trial runs 14 + 30 days and Ana sees her on the list.
 */
describe.skipIf(!hasChromium || !baseUrl)('referral: a colleague signs up with the link', () => {
  let browser: Browser;
  let ana: SignedIn;

  beforeAll(async () => {
    browser = await launchBrowser();
    ana = await signUpAndIn(browser, baseUrl, 'Ana');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the link greets the colleague by the referrer’s name, and her trial is a month longer', async () => {
    const page = ana.page;
    await page.goto('/settings/invite');
    const codeField = page.getByLabel('Tu código');
    await codeField.waitFor();
    const code = await codeField.inputValue();
    const link = await page.getByLabel('Tu enlace de invitación').inputValue();
    expect(link).toBe(`${baseUrl}/sign-up?ref=${code}`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'referral-01-invite');

    const context = await newContext(browser, baseUrl);
    const friend = await context.newPage();
    await friend.goto(new URL(link).pathname + new URL(link).search);
    await friend.getByText('Ana te ha invitado a Diván').waitFor();
    expect(await friend.getByLabel('Código de invitación').inputValue()).toBe(code);
    const email = emailFor('Laura');
    await friend.getByLabel('Nombre').fill('Laura');
    await friend.getByLabel('Email').fill(email);
    await friend.getByLabel('Contraseña', { exact: true }).fill('Consulta2026');
    await friend.getByLabel('Repite la contraseña').fill('Consulta2026');
    await shot(friend, 'referral-02-sign-up');
    const before = Date.now();
    await friend.getByRole('button', { name: 'Crear cuenta' }).click();
    const mail = await waitForMail(baseUrl, email, (m) => m.text.includes('/verify-email/'));
    await friend.goto(linkIn(mail, '/verify-email'));
    await friend.waitForURL(`${baseUrl}/`);
    const token = await friend.evaluate(
      () => (JSON.parse(localStorage.getItem('auth') ?? '{}') as { state?: { accessToken?: string } }).state?.accessToken ?? '',
    );
    const [ws] = await ok(apiAs(token).request<WorkspaceRow[]>('GET', '/workspaces'));
    const trial = Date.parse(ws!.plan.freeTrialEnd!);
    expect(trial).toBeGreaterThan(before + 43 * DAY);
    expect(trial).toBeLessThan(Date.now() + 45 * DAY);
    await context.close();

    // Ana sees her, still on her trial.
    const mine = await ok(ana.api.request<Referral>('GET', '/me/referral'));
    expect(mine.friends).toEqual([expect.objectContaining({ firstName: 'Laura', status: 'joined' })]);
    await page.reload();
    await page.getByRole('list', { name: 'Colegas que se han unido' }).getByText('Laura').waitFor();
    await page.getByText('En prueba').first().waitFor();
    await shot(page, 'referral-03-friend-joined');
  });
});
