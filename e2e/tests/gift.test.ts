import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { ok } from '../support/api';
import { emailFor, signUpAndIn, type SignedIn } from '../support/accounts';
import { waitForMail } from '../support/mail';
import { allowConsole } from '../support/page-errors';

const baseUrl = inject('baseUrl');

type WorkspaceRow = { id: string; name: string; plan: { freeTrialEnd: string | null } };

const MESSAGE = '¡Para que pruebes Diván con calma en la consulta nueva!';
/** Spaces as the screens print them (a no-break space before «€»): compared as plain spaces. */
const plain = (s: string | null) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();
/** As the screens show a day, in Madrid: 'DD/MM/YYYY'. */
const madridDay = (iso: string) =>
  new Intl.DateTimeFormat('es-ES', { timeZone: 'Europe/Madrid', day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date(iso));
/** `d` three calendar months later (UTC), the day clamped to the month's last one: what «3 meses» of trial means. */
function monthsLater(d: Date, months: number): Date {
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), last));
  return target;
}

/**
 * Gift codes in Chromium (issue 27, slice 5): Ana buys Laura 3 months of Premium on /gift and pays on the
 * sandbox's hosted Checkout; the return page waits for the webhook and shows the code once (and both get
 * it by mail); Laura, a therapist on her own trial, opens the link, sees Ana's gift and redeems it on her
 * workspace — her trial runs 3 months longer — and the link then says it was used, a second redeem refused.
 * A code that does not exist says so.
 */
describe.skipIf(!hasChromium || !baseUrl)('gift: Ana gives Laura 3 months of Premium', () => {
  let browser: Browser;
  let ana: SignedIn;
  let laura: SignedIn;
  const lauraEmail = emailFor('Laura');
  // What the purchase gives: the code (as the page prints it, in groups of five), its link, and its path.
  let code = '';
  let link = '';
  let giftPath = '';
  let purchasedUrl = '';
  let trialBefore = '';

  const lauraWorkspace = async () => {
    const list = await ok(laura.api.request<WorkspaceRow[]>('GET', '/workspaces'));
    const ws = list.find((w) => w.id === laura.workspaceId);
    if (!ws) throw new Error(`Laura's workspace ${laura.workspaceId} is not in her list`);
    return ws;
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    ana = await signUpAndIn(browser, baseUrl, 'Ana');
    laura = await signUpAndIn(browser, baseUrl, 'Laura', { email: lauraEmail });
    // Whom Diván invoices the gift (given first: the dialog that asks for them is plans-payments.test.ts's).
    await ok(
      ana.api.request('PUT', `/workspaces/${ana.workspaceId}/billing/details`, {
        name: 'Ana Torres Vidal',
        country: 'ES',
        taxId: '12345678Z',
        line1: 'Calle de Alcalá 10',
        city: 'Madrid',
        postalCode: '28001',
      }),
    );
    trialBefore = (await lauraWorkspace()).plan.freeTrialEnd ?? '';
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('Ana chooses 3 months for Laura, pays on the hosted Checkout and sees the code once paid', async () => {
    const page = ana.page;
    await page.goto('/gift');
    await page.getByRole('heading', { name: 'Regalar Diván', level: 1 }).waitFor();
    await page.getByTestId('test-mode').getByText('Modo de prueba: no se cobra nada real').waitFor();
    const months = page.getByRole('radiogroup', { name: '¿Cuántos meses de Premium?' });
    // The card, as a person clicks it (its radio is visually hidden).
    await months
      .locator('label')
      .filter({ hasText: /^3 meses/ })
      .click();
    expect(await months.getByRole('radio', { name: /^3 meses/ }).isChecked()).toBe(true);
    const total = page.getByTestId('gift-total');
    await total.getByText('3 meses de Premium para una persona').waitFor();
    expect(plain(await total.textContent())).toContain('87,00 € + IVA');
    await page.getByLabel('Nombre de tu colega').fill('Laura');
    await page.getByLabel('Su email').fill(lauraEmail);
    await page.getByLabel('Mensaje').fill(MESSAGE);
    await page.getByText(`${MESSAGE.length}/`).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'gift-01-form');

    await page.getByRole('button', { name: 'Continuar al pago' }).click();
    await page.waitForURL(/\/sandbox\/stripe\/checkout\/cs_test_/);
    await page.getByRole('heading', { name: 'Regalo: 3 meses de Diván Premium' }).waitFor();
    // 87 € and 21 % IVA (Madrid): 105,27 €.
    const pay = page.getByRole('button', { name: /^Pagar 105,27\s€$/ });
    await pay.waitFor();
    await page.getByLabel('Número de tarjeta').fill('4242 4242 4242 4242');
    await shot(page, 'gift-02-checkout');
    await pay.click();

    await page.waitForURL(/\/gift\/purchased\?session_id=cs_test_\w+&workspace=/);
    purchasedUrl = page.url();
    // Until the webhook marks it paid the page says «Confirmando el pago…»; then the code.
    await page.getByRole('heading', { name: 'Tu regalo está listo' }).waitFor({ timeout: 30_000 });
    await page.getByText(`3 meses de Diván Premium para ${lauraEmail}.`, { exact: false }).waitFor();
    code = plain(await page.getByTestId('gift-code').textContent());
    expect(code).toMatch(/^[A-Z2-7]{5}(-[A-Z2-7]{5}){4}-[A-Z2-7]$/);
    link = await page.getByLabel('Enlace para canjearlo').inputValue();
    expect(link).toBe(`${baseUrl}/gift/${code.replace(/-/g, '')}`);
    giftPath = new URL(link).pathname;
    await page.getByText('Guárdalo: solo te lo mostramos esta vez (también te lo hemos enviado por email).').waitFor();
    const amounts = page.getByTestId('gift-amounts');
    expect(plain(await amounts.textContent())).toBe('Importe87,00 €IVA18,27 €Total pagado105,27 €');
    await page.getByRole('button', { name: 'Copiar código' }).waitFor();
    await page.getByRole('button', { name: 'Copiar enlace' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'gift-03-purchased');

    // Both get it by mail: the code, the link and Ana's message.
    for (const to of [ana.email, lauraEmail]) {
      const mail = await waitForMail(baseUrl, to, (m) => m.subject === 'Ana te regala 3 meses de Diván Premium');
      expect(mail.text).toContain(code);
      expect(mail.text).toContain(link);
      expect(mail.text).toContain(MESSAGE);
    }
  });

  it('shows the code once: kept in the tab it was shown in, never shown again anywhere else', async () => {
    const page = ana.page;
    // The same tab, reloaded: the page kept what the server showed it (sessionStorage), and asks nothing.
    await page.reload();
    await page.getByRole('heading', { name: 'Tu regalo está listo' }).waitFor();
    expect(plain(await page.getByTestId('gift-code').textContent())).toBe(code);

    // The same return link in another tab (her session, not that tab's storage): paid, the code not shown.
    const other = await ana.context.newPage();
    await other.goto(new URL(purchasedUrl).pathname + new URL(purchasedUrl).search);
    await other.getByRole('heading', { name: 'Tu regalo está pagado' }).waitFor({ timeout: 30_000 });
    await other.getByText(/El código ya se mostró una vez y, por seguridad, no lo volvemos a enseñar/).waitFor();
    await other.getByText(/lo tienes en tu email, y tu colega en el suyo/).waitFor();
    expect(await other.getByTestId('gift-code').count()).toBe(0);
    expect(await other.getByText(code).count()).toBe(0);
    expect(await other.getByLabel('Enlace para canjearlo').count()).toBe(0);
    expect(plain(await other.getByTestId('gift-amounts').textContent())).toContain('Total pagado105,27 €');
    expect(await seriousA11yViolations(other)).toEqual([]);
    await shot(other, 'gift-04-purchased-again');
    await other.close();
  });

  it('Laura opens the link, sees Ana’s gift and its message, and redeems it: her trial runs 3 months longer', async () => {
    const page = laura.page;
    const ws = await lauraWorkspace();
    expect(trialBefore).not.toBe('');
    await page.goto(giftPath);
    await page.getByRole('heading', { name: 'Ana te regala 3 meses de Diván Premium' }).waitFor();
    await page.getByText('Para Laura', { exact: true }).waitFor();
    await page.getByText(`«${MESSAGE}»`).waitFor();
    await page.getByText(code, { exact: true }).waitFor();
    expect(plain(await page.getByText(/Se canjeará en tu espacio/).textContent())).toBe(`Se canjeará en tu espacio ${ws.name}.`);
    await page.getByText('Los 3 meses se suman a la prueba gratis del espacio, con todo Premium.').waitFor();
    // Signed in: no way to an account, the button to redeem.
    expect(await page.getByRole('link', { name: 'Crear cuenta y canjear' }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'gift-05-available');

    // A second tab on the same link, left open: it will try again once the gift is used.
    const second = await laura.context.newPage();
    await second.goto(giftPath);
    await second.getByRole('button', { name: 'Canjear en este espacio' }).waitFor();

    await page.getByRole('button', { name: 'Canjear en este espacio' }).click();
    const done = page.getByRole('status').filter({ has: page.getByRole('heading', { name: /^Listo: tienes Premium hasta el / }) });
    await done.waitFor();
    await done.getByText(/Hemos sumado 3 meses a la prueba gratis de/).waitFor();
    expect(plain(await done.getByText(/Hemos sumado/).textContent())).toContain(ws.name);

    const after = (await lauraWorkspace()).plan.freeTrialEnd!;
    const expected = monthsLater(new Date(trialBefore), 3);
    expect(Math.abs(Date.parse(after) - expected.getTime())).toBeLessThan(1000);
    expect(await done.getByRole('heading').textContent()).toBe(`Listo: tienes Premium hasta el ${madridDay(after)}`);
    await shot(page, 'gift-06-redeemed');

    // The tab left open tries: the server refuses it, and the page reads the gift again and shows it used.
    allowConsole({ text: /status of 409/, url: /\/gifts\/redeem$/, because: 'the tab left open redeems a gift already used' });
    await second.getByRole('button', { name: 'Canjear en este espacio' }).click();
    await second.getByRole('heading', { name: 'Este regalo ya se ha canjeado' }).waitFor();
    expect(await second.getByRole('button', { name: 'Canjear en este espacio' }).count()).toBe(0);
    await shot(second, 'gift-07-second-redeem-refused');
    await second.close();
    // Nothing moved: the trial is the one the gift gave.
    expect((await lauraWorkspace()).plan.freeTrialEnd).toBe(after);
  });

  it('the used link says it was redeemed, offers nothing to redeem, and the API refuses it again', async () => {
    const page = laura.page;
    await page.goto(giftPath);
    await page.getByRole('heading', { name: 'Este regalo ya se ha canjeado' }).waitFor();
    await page.getByText('Cada código vale una sola vez, y este ya se usó. Si no fuiste tú, pregúntale a Ana.').waitFor();
    expect(await page.getByRole('button', { name: 'Canjear en este espacio' }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'gift-08-used');

    // Signed out, the same: used.
    const context = await newContext(browser, baseUrl);
    const stranger = await context.newPage();
    await stranger.goto(giftPath);
    await stranger.getByRole('heading', { name: 'Este regalo ya se ha canjeado' }).waitFor();
    expect(await stranger.getByRole('link', { name: 'Crear cuenta y canjear' }).count()).toBe(0);
    await context.close();

    // Ana on her own trial workspace, with the code as printed: used once, never twice.
    const again = await ana.api.in(ana.workspaceId).post<{ code: string }>('/gifts/redeem', { code });
    expect([again.status, again.body.code]).toEqual([409, 'gift_redeemed']);
  });

  it('a code that does not exist says so, and offers nothing', async () => {
    allowConsole({ text: /status of 404/, url: /\/api\/v1\/gifts\/Z{26}$/, because: 'a gift code that does not exist' });
    const context = await newContext(browser, baseUrl);
    const page: Page = await context.newPage();
    await page.goto('/gift/ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-Z');
    await page.getByRole('heading', { name: 'Ese código de regalo no existe' }).waitFor();
    await page.getByText(/Revisa el enlace o el código: quizá falta algún carácter/).waitFor();
    expect(await page.getByRole('button').count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'gift-09-unknown');
    await context.close();
  });
});
