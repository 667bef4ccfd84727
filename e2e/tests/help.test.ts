import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, phoneOf, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium, OPERATOR_EMAIL } from '../support/env';
import { signUpAndIn, type SignedIn } from '../support/accounts';
import { waitForMail } from '../support/mail';

const baseUrl = inject('baseUrl');

describe.skipIf(!hasChromium || !baseUrl)('settings: help — the contact address and a comment to Diván’s team', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let me: SignedIn;

  beforeAll(async () => {
    browser = await launchBrowser();
    me = await signUpAndIn(browser, baseUrl, 'Inés');
    ({ context, page } = me);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const box = () => page.getByRole('textbox', { name: 'Tu comentario' });

  it('opens «Ayuda» from the settings, asks before leaving with typed text, sends the comment by keyboard and mails it to the operator', async () => {
    await page.goto('/settings');
    await page.getByRole('navigation', { name: 'Ajustes' }).getByRole('link', { name: 'Ayuda' }).click();
    await page.waitForURL(/\/settings\/help$/);
    const contact = page.getByRole('link', { name: OPERATOR_EMAIL });
    expect(await contact.getAttribute('href')).toBe(`mailto:${OPERATOR_EMAIL}`);

    // Too short: refused in place, in Spanish, before anything is sent.
    await box().fill('Corto');
    await page.getByRole('button', { name: 'Enviar' }).click();
    await page.getByText('Escribe al menos 10 caracteres').waitFor();

    const marker = `marca-${Date.now()}`;
    const comment = `Me gustaría ver los festivos en el calendario (${marker}).`;
    await box().fill(comment);
    await page.getByText(`${comment.length} / 5000`).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'help-01-desktop');

    // Leaving with typed text asks first; «Seguir editando» keeps it.
    await page.getByRole('navigation', { name: 'Ajustes' }).getByRole('link', { name: 'Perfil' }).click();
    const ask = page.getByRole('alertdialog', { name: '¿Descartar los cambios?' });
    await ask.getByRole('button', { name: 'Seguir editando' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(page.url()).toMatch(/\/settings\/help$/);
    expect(await box().inputValue()).toBe(comment);

    // Keyboard only: from the text, Tab to «Enviar» and press Enter.
    await box().focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Enviar');
    await page.keyboard.press('Enter');
    await page.getByText('Gracias: hemos recibido tu comentario').waitFor();
    await expect.poll(() => box().inputValue()).toBe('');
    await shot(page, 'help-02-sent');

    const mail = await waitForMail(baseUrl, OPERATOR_EMAIL, (m) => m.text.includes(marker));
    expect(mail.subject).toBe('Comentario de Inés en Diván');
    expect(mail.text).toContain(`De: Inés <${me.email}>`);
    expect(mail.text).toContain('Desde: /settings/help');

    // Nothing typed any more: leaving asks nothing.
    await page.getByRole('navigation', { name: 'Ajustes' }).getByRole('link', { name: 'Perfil' }).click();
    await page.waitForURL(/\/settings\/profile$/);
  });

  it('fits a phone', async () => {
    const phone = await phoneOf(browser, context);
    const p = await phone.newPage();
    await p.goto('/settings/help');
    await p.getByRole('textbox', { name: 'Tu comentario' }).fill('Desde el móvil también se escribe bien.');
    await p.getByRole('link', { name: OPERATOR_EMAIL }).waitFor();
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The tabs scroll sideways: the open one, the last of its row, is brought into view.
    const tab = await p.getByRole('navigation', { name: 'Ajustes' }).getByRole('link', { name: 'Ayuda' }).boundingBox();
    expect(tab!.x).toBeGreaterThanOrEqual(0);
    expect(tab!.x + tab!.width).toBeLessThanOrEqual(390);
    await shot(p, 'help-03-mobile');
    await phone.close();
  });
});
