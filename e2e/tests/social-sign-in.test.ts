import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { allowConsole, launchBrowser, newContext, phoneOf, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { apiAs, ok } from '../support/api';
import { emailFor, signUpAndIn } from '../support/accounts';
import { codeIn, mailsTo, waitForMail } from '../support/mail';

const baseUrl = inject('baseUrl');
const googleIssuer = inject('googleIssuer');
const appleIssuer = inject('appleIssuer');

type Person = { email: string; name?: string; verified?: boolean; relay?: boolean };
type Profile = { id: string; email: string; firstName: string; lastName: string | null };

/** The fake provider's one page (apps/server/src/test/fake-oidc): what Google's chooser or Apple's sign-in asks. */
async function atProvider(page: Page, issuer: string, person: Person) {
  await page.waitForURL((url) => url.href.startsWith(`${issuer}/interaction/`));
  await page.getByLabel('Email', { exact: true }).fill(person.email);
  await page.getByLabel('Nombre').fill(person.name ?? '');
  await page.getByLabel('Email verificado').setChecked(person.verified !== false);
  if (issuer === appleIssuer) await page.getByLabel(/Ocultar mi email/).setChecked(person.relay ?? false);
  await page.getByRole('button', { name: 'Continuar', exact: true }).click();
}

/** «Continuar con …» on `path`, through the provider, back at the callback page. */
async function continueWith(page: Page, provider: 'Google' | 'Apple', path: string, person: Person) {
  await page.goto(path);
  await page.getByRole('button', { name: `Continuar con ${provider}` }).click();
  await atProvider(page, provider === 'Google' ? googleIssuer : appleIssuer, person);
  await page.waitForURL((url) => url.pathname === `/auth/${provider.toLowerCase()}/callback`);
}

const session = (page: Page) =>
  page.evaluate(() => {
    const auth = (
      JSON.parse(localStorage.getItem('auth') ?? '{}') as { state?: { accessToken?: string; userId?: string; refreshToken?: string } }
    ).state;
    return { token: auth?.accessToken ?? '', userId: auth?.userId ?? '', signedIn: !!auth?.refreshToken };
  });

/** Signed in: on the dashboard, with a workspace chosen (a new account gets its first one as after any sign-up). */
async function landedSignedIn(page: Page) {
  await page.waitForURL(`${baseUrl}/`);
  await page.waitForFunction(
    () => !!(JSON.parse(localStorage.getItem('workspaces') ?? '{}') as { state?: { currentId?: string } }).state?.currentId,
  );
  const s = await session(page);
  expect(s.signedIn).toBe(true);
  return { ...s, profile: await ok(apiAs(s.token).get<Profile>('/me')) };
}

/**
 * Google and Apple sign-in in Chromium (issue 30), against the fake providers the global setup starts (oidc-provider on
 * loopback; Apple answers by form_post through the server): sign up with Google; Apple twice, the name kept from the
 * first time (Apple sends it only then); a Google identity whose email is an existing account's is linked only after the
 * code mailed to that account; an unverified email refused; linking and unlinking in Ajustes › Seguridad.
 */
describe.skipIf(!hasChromium || !baseUrl || !googleIssuer)('sign in with Google or Apple', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  /** A new browser, signed out: a desktop, or a 390 px wide phone. */
  const fresh = async (phone = false) => {
    const context = phone
      ? await browser.newContext({ baseURL: baseUrl, locale: 'es-ES', timezoneId: 'Europe/Madrid', viewport: { width: 390, height: 844 } })
      : await newContext(browser, baseUrl);
    contexts.push(context);
    return context.newPage();
  };

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
  });

  it('signs up with Google: a confirmed account named by Google, with Google as its only way in', async () => {
    const page = await fresh();
    await page.goto('/sign-up');
    const google = page.getByRole('button', { name: 'Continuar con Google' });
    await google.waitFor();
    expect(await page.getByRole('button', { name: 'Continuar con Apple' }).isVisible()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'social-01-sign-up-buttons');
    // Keyboard: the button is reachable and pressed with Enter.
    await google.focus();
    await page.keyboard.press('Enter');
    const email = emailFor('Lucía');
    await atProvider(page, googleIssuer, { email, name: 'Lucía Martín Gómez' });
    const { profile } = await landedSignedIn(page);
    expect(profile).toMatchObject({ email, firstName: 'Lucía', lastName: 'Martín Gómez' });
    // No confirmation mail: Google said the email is verified.
    expect((await mailsTo(baseUrl, email)).filter((m) => m.text.includes('/verify-email/'))).toEqual([]);

    await page.goto('/settings/security');
    const list = page.getByRole('list', { name: 'Cuentas vinculadas' });
    await list.getByText(email).waitFor();
    await page.getByText('Google es ahora tu única forma de entrar en Diván').waitFor();
    expect(await page.getByRole('button', { name: /Desvincular/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Actualizar contraseña' }).count()).toBe(0);
    await shot(page, 'social-02-security-google-only');
  });

  it('signs in with Apple twice: the name sent the first time is kept, the relay address is the account’s', async () => {
    const email = emailFor('Jorge');
    const first = await fresh();
    await continueWith(first, 'Apple', '/sign-in', { email, name: 'Jorge Pérez Ruiz', relay: true });
    const one = await landedSignedIn(first);
    expect(one.profile.firstName).toBe('Jorge');
    expect(one.profile.lastName).toBe('Pérez Ruiz');
    expect(one.profile.email).toMatch(/@privaterelay\.appleid\.com$/);

    // Another browser, another day: Apple sends no name now (the form's name is left empty).
    const second = await fresh();
    await second.goto('/sign-in');
    await shot(second, 'social-03-sign-in-buttons');
    await continueWith(second, 'Apple', '/sign-in', { email, relay: true });
    const two = await landedSignedIn(second);
    expect(two.userId).toBe(one.userId);
    expect(two.profile).toMatchObject({ firstName: 'Jorge', lastName: 'Pérez Ruiz', email: one.profile.email });
  });

  it('links Google to an existing account with the same email only after the code mailed to it', async () => {
    const existing = await signUpAndIn(browser, baseUrl, 'Marta');
    contexts.push(existing.context);
    const before = new Set((await mailsTo(baseUrl, existing.email)).map((m) => m.id));
    const page = await fresh(true);
    await page.goto('/sign-in');
    await shot(page, 'social-04-sign-in-buttons-phone');
    await continueWith(page, 'Google', '/sign-in', { email: existing.email, name: 'Marta Ruiz' });
    await page.getByRole('heading', { name: 'Vincula tu cuenta de Google' }).waitFor();
    await page
      .getByText(`Ya tienes una cuenta con ${existing.email}. Para vincular Google escribe el código que te hemos enviado por email.`)
      .waitFor();
    // Not signed in yet: the provider's email alone opens nothing.
    expect((await session(page)).signedIn).toBe(false);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'social-05-link-code-phone');
    await page.setViewportSize({ width: 1280, height: 820 });
    await shot(page, 'social-05-link-code');
    const mail = await waitForMail(baseUrl, existing.email, (m) => !before.has(m.id));

    // A wrong code first: said on the field, nothing opened.
    allowConsole({ text: /status of 400/, url: /\/login\/google\/link$/, because: 'a wrong code is refused' });
    const field = page.getByRole('textbox', { name: 'Código de verificación' });
    const code = codeIn(mail);
    await field.fill(code === '000000' ? '111111' : '000000');
    await page
      .getByRole('alert')
      .filter({ hasText: /código/i })
      .waitFor();
    expect((await session(page)).signedIn).toBe(false);

    await field.fill(code);
    const { userId } = await landedSignedIn(page);
    expect(userId).toBe(existing.userId);

    // The next time, Google alone signs Marta in: the identity is hers.
    const again = await fresh();
    await continueWith(again, 'Google', '/sign-in', { email: existing.email });
    expect((await landedSignedIn(again)).userId).toBe(existing.userId);
  });

  it('refuses an email the provider has not verified, in Spanish, with a way back; a cancel at the provider too', async () => {
    allowConsole({ text: /status of 403/, url: /\/realms\/therapists\/login\/google$/, because: 'an unverified email is refused' });
    const page = await fresh();
    const email = emailFor('Nuria');
    await continueWith(page, 'Google', '/sign-in', { email, name: 'Nuria Sanz', verified: false });
    await page.getByRole('alert').filter({ hasText: 'El email de tu proveedor no está verificado.' }).waitFor();
    await page.getByRole('heading', { name: 'No hemos podido entrar con Google' }).waitFor();
    expect((await session(page)).signedIn).toBe(false);
    await shot(page, 'social-06-unverified');
    await page.getByRole('link', { name: 'Volver a iniciar sesión' }).click();
    await page.waitForURL(`${baseUrl}/sign-in`);
    // Nobody was made with that email.
    expect((await mailsTo(baseUrl, email)).length).toBe(0);

    // «Cancelar» at the provider: said so, and nothing asked of Diván.
    await page.getByRole('button', { name: 'Continuar con Google' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${googleIssuer}/interaction/`));
    await page.getByRole('button', { name: 'Cancelar' }).click();
    await page.getByRole('alert').filter({ hasText: 'Has cancelado el acceso con Google.' }).waitFor();
    expect((await session(page)).signedIn).toBe(false);
  });

  it('links and unlinks Google and Apple in Ajustes › Seguridad', async () => {
    const marta = await signUpAndIn(browser, baseUrl, 'Elena');
    contexts.push(marta.context);
    const page = marta.page;
    await page.goto('/settings/security');
    await page.getByRole('heading', { name: 'Accesos vinculados' }).waitFor();
    await page.getByText('Aún no has vinculado ninguna cuenta.').waitFor();

    const gmail = emailFor('elena.gmail');
    await page.getByRole('button', { name: 'Vincular Google' }).click();
    await atProvider(page, googleIssuer, { email: gmail, name: 'Elena Vidal' });
    await page.waitForURL(`${baseUrl}/settings/security`);
    await page.getByText('Google vinculado: ya puedes entrar con tu cuenta de Google.').waitFor();
    const list = page.getByRole('list', { name: 'Cuentas vinculadas' });
    await list.getByText(gmail).waitFor();

    await page.getByRole('button', { name: 'Vincular Apple' }).click();
    await atProvider(page, appleIssuer, { email: emailFor('elena.icloud'), name: 'Elena Vidal', relay: true });
    await page.waitForURL(`${baseUrl}/settings/security`);
    await list.getByText(/@privaterelay\.appleid\.com$/).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'social-07-security-linked');
    const phone = await phoneOf(browser, marta.context);
    contexts.push(phone);
    const onPhone = await phone.newPage();
    await onPhone.goto('/settings/security');
    await onPhone.getByRole('list', { name: 'Cuentas vinculadas' }).getByText(gmail).waitFor();
    await shot(onPhone, 'social-08-security-linked-phone');

    // Google now signs Elena in.
    const viaGoogle = await fresh();
    await continueWith(viaGoogle, 'Google', '/sign-in', { email: gmail });
    expect((await landedSignedIn(viaGoogle)).userId).toBe(marta.userId);

    // Unlinking asks first; «Cancelar» keeps it.
    await page.getByRole('button', { name: 'Desvincular Google' }).click();
    const dialog = page.getByRole('alertdialog', { name: '¿Desvincular Google?' });
    await dialog.waitFor();
    await shot(page, 'social-09-unlink-confirm');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await list.getByText(gmail).waitFor();
    await page.getByRole('button', { name: 'Desvincular Google' }).click();
    await dialog.getByRole('button', { name: 'Desvincular' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await list.getByText(gmail).waitFor({ state: 'detached' });
    const { identities } = await ok(marta.api.get<{ identities: { provider: string }[] }>('/me/identities'));
    expect(identities.map((i) => i.provider)).toEqual(['apple']);
    await page.getByRole('button', { name: 'Vincular Google' }).waitFor();
  });
});
