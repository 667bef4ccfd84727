import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { signUp } from '../support/api';
import { emailFor } from '../support/accounts';
import { linkIn, waitForMail } from '../support/mail';

const baseUrl = inject('baseUrl');
/**
 * A passkey's relying party is a domain, never an IP address: the server names PUBLIC_URL's loopback address
 * `localhost` (passkeys.service), and this file drives the app there.
 */
const local = baseUrl?.replace('127.0.0.1', 'localhost');

/**
 * Issue 32 in Chromium with the CDP virtual authenticator (CTAP2, internal, resident keys, user verified): a passkey
 * added in Ajustes › Seguridad, then signing in with it alone after signing out, and as the second step after the
 * password instead of the mailed code.
 */
describe.skipIf(!hasChromium || !baseUrl)('passkeys', () => {
  let browser: Browser;
  let context: BrowserContext | undefined;
  let page: Page;
  let email: string;
  let presence: (enabled: boolean) => Promise<unknown>;

  beforeAll(async () => {
    browser = await launchBrowser();
    email = emailFor('Pilar');
    await signUp('Pilar', email);
    context = await newContext(browser, local!);
    page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    // The virtual authenticator answers at once, even the autofill's waiting request: off, it waits as a person would.
    presence = (enabled) => cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled });
    const mail = await waitForMail(baseUrl, email, (m) => m.text.includes('/verify-email/'));
    await page.goto(linkIn(mail, '/verify-email').replace(baseUrl, local!));
    await page.waitForURL(`${local}/`);
  });
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
  });

  const signOut = async () => {
    await page.getByRole('button', { name: /Menú de usuario/ }).click();
    await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
    await page.waitForURL(`${local}/sign-in`);
  };

  it('adds a named passkey in Ajustes › Seguridad, then signs in with it alone from the email field’s autofill', async () => {
    await page.goto('/settings/security');
    const card = page.getByRole('heading', { name: 'Llaves de acceso', exact: true });
    await card.waitFor();
    await page.getByText('Aún no tienes llaves de acceso').waitFor();
    await page.getByRole('button', { name: 'Añadir una llave de acceso' }).click();
    const dialog = page.getByRole('dialog', { name: 'Añadir una llave de acceso' });
    await dialog.getByLabel('Nombre de la llave').fill('Portátil de Pilar');
    await dialog.getByRole('button', { name: 'Crear la llave' }).click();
    const list = page.getByRole('list', { name: 'Tus llaves de acceso' });
    await list.getByText('Portátil de Pilar').waitFor();
    await list.getByText(/Aún no se ha usado/).waitFor();
    await shot(page, 'passkeys-security-desktop');
    await page.setViewportSize({ width: 375, height: 812 });
    await shot(page, 'passkeys-security-phone');
    await page.setViewportSize({ width: 1280, height: 820 });

    // Signed out, the sign-in page's conditional request (the passkeys under the email field) waits; the virtual
    // authenticator answers it at once with its one passkey, as a person picking it would: signed in.
    await signOut();
    await page.waitForURL(`${local}/`);

    await page.goto('/settings/security');
    await page
      .getByRole('list', { name: 'Tus llaves de acceso' })
      .getByText(/Último uso/)
      .waitFor();
  });

  it('is the second step after the password instead of the mailed code', async () => {
    await presence(false);
    await signOut();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Contraseña', { exact: true }).fill('Consulta2025');
    await page.getByRole('button', { name: 'Continuar', exact: true }).click();
    await page.getByRole('heading', { name: 'Verificación en dos pasos' }).waitFor();
    await shot(page, 'passkeys-second-step-desktop');
    await presence(true);
    await page.getByRole('button', { name: 'Usar mi llave de acceso' }).click();
    await page.waitForURL(`${local}/`);
  });

  it('signs in with «Entrar con una llave de acceso»', async () => {
    // The authenticator answers a request only if present when it is made: away while the autofill's starts.
    await presence(false);
    const autofillOptions = page.waitForResponse((r) => r.url().endsWith('/realms/therapists/login/passkey/options'));
    await signOut();
    await autofillOptions;
    await page.waitForTimeout(500);
    await expect.poll(() => page.getByLabel('Email', { exact: true }).getAttribute('autocomplete')).toBe('username webauthn');
    await shot(page, 'passkeys-sign-in-desktop');
    // The autofill's request stays waiting; the button's replaces it and is answered.
    await presence(true);
    await page.getByRole('button', { name: 'Entrar con una llave de acceso' }).click();
    await page.waitForURL(`${local}/`);
  });
});
