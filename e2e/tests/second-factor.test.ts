import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { generate } from 'otplib';
import { launchBrowser } from '../support/browser';
import { hasChromium } from '../support/env';
import { signUpAndIn } from '../support/accounts';

const baseUrl = inject('baseUrl');

/**
 * Issue 32 in Chromium: set up an authenticator app in Ajustes › Seguridad (the code computed here with otplib from the
 * key the page shows), sign out, sign in with the app's code instead of a mailed one.
 */
describe.skipIf(!hasChromium || !baseUrl)('the authenticator app', () => {
  let browser: Browser;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
  });

  it('is set up with one code, then signs in with another', async () => {
    const me = await signUpAndIn(browser, baseUrl, 'Teresa');
    context = me.context;
    const { page } = me;
    await page.goto('/settings/security');
    await page.getByRole('button', { name: 'Configurar app de autenticación' }).click();
    const dialog = page.getByRole('dialog', { name: 'Configurar app de autenticación' });
    await dialog.getByRole('img', { name: 'Código QR para tu app de autenticación' }).waitFor();
    const secret = (await dialog.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
    await dialog.getByLabel('Código de la app').fill(await generate({ secret }));
    await dialog.getByRole('button', { name: 'Activar' }).click();
    await expect.poll(() => dialog.getByRole('list', { name: 'Códigos de recuperación' }).getByRole('listitem').count()).toBe(10);
    await dialog.getByRole('button', { name: 'He guardado mis códigos' }).click();
    await page.getByText('Activada', { exact: true }).waitFor();

    await page.getByRole('button', { name: /Menú de usuario/ }).click();
    await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
    await page.waitForURL(`${baseUrl}/sign-in`);

    await page.getByLabel('Email', { exact: true }).fill(me.email);
    await page.getByLabel('Contraseña', { exact: true }).fill('Consulta2025');
    await page.getByRole('button', { name: 'Continuar', exact: true }).click();
    await page.getByRole('heading', { name: 'Verificación en dos pasos' }).waitFor();
    // The code of the next time step: the one just used to enable the app is refused a second time.
    const next = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    await page.getByLabel('Código de la app').fill(next);
    await page.waitForURL(`${baseUrl}/`);
  });
});
