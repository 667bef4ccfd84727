// A note typed in "Nueva entrada" is never thrown away without asking, and survives a reload: the draft
// is kept on the server while typing (encrypted, private to its author) and offered again.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { linkIn, waitForMail } from '../support/mail';

const baseUrl = inject('baseUrl');
const email = `borrador.${Date.now()}@example.com`;
const headers = { 'Content-Type': 'application/json', 'X-Client-Version': '1.0.0' };

describe.skipIf(!hasChromium || !baseUrl)('a history entry being written survives Esc and a reload', () => {
  let browser: Browser;
  let page: Page;
  let historyUrl = '';
  let drafts: () => Promise<{ entryId: string | null; title: string }[]>;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (await newContext(browser, baseUrl)).newPage();
    // Sign up through the API, confirm in the browser (which signs it in), create the patient through the API.
    const res = await fetch(`${baseUrl}/api/v1/realms/therapists/users`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ firstName: 'Nuria', email, password: 'Consulta2025' }),
    });
    expect(res.status).toBe(201);
    const mail = await waitForMail(baseUrl, email, (m) => m.text.includes('/verify-email/'));
    await page.goto(linkIn(mail, '/verify-email'));
    await page.waitForURL(`${baseUrl}/`);
    await page.waitForFunction(
      () => !!(JSON.parse(localStorage.getItem('workspaces') ?? '{}') as { state?: { currentId?: string } }).state?.currentId,
    );
    const { accessToken, workspaceId } = await page.evaluate(() => ({
      accessToken: (JSON.parse(localStorage.getItem('auth') ?? '{}') as { state?: { accessToken?: string } }).state?.accessToken ?? '',
      workspaceId: (JSON.parse(localStorage.getItem('workspaces') ?? '{}') as { state?: { currentId?: string } }).state?.currentId ?? '',
    }));
    const auth = { ...headers, Authorization: `Bearer ${accessToken}` };
    const created = await fetch(`${baseUrl}/api/v1/workspaces/${workspaceId}/patients`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ firstName: 'Pilar', lastName: 'Ortega' }),
    });
    expect(created.status).toBe(201);
    const patientId = ((await created.json()) as { id: string }).id;
    historyUrl = `/patients/${patientId}/history`;
    drafts = async () =>
      (await fetch(`${baseUrl}/api/v1/workspaces/${workspaceId}/patients/${patientId}/history/drafts`, { headers: auth })).json();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('asks before Esc discards a typed note, and the note comes back after a reload until it is saved', async () => {
    await page.goto(historyUrl);
    await page.getByRole('heading', { name: 'Sin entradas todavía' }).waitFor();
    await page.getByRole('button', { name: 'Nueva entrada' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Nueva entrada' });
    await dialog.getByRole('textbox', { name: 'Título' }).fill('Sesión 2: duelo');
    await dialog.getByRole('textbox', { name: 'Texto' }).click();
    await page.keyboard.type('Habla por primera vez de la pérdida de su madre.');

    // Esc with text asks first; the keyboard starts on "Seguir editando".
    await page.keyboard.press('Escape');
    const confirm = page.getByRole('alertdialog', { name: '¿Descartar la entrada?' });
    await confirm.waitFor();
    expect(await confirm.getByRole('button', { name: 'Seguir editando' }).evaluate((b) => b === document.activeElement)).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'history-drafts-01-confirm-discard');
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    expect(await dialog.getByRole('textbox', { name: 'Título' }).inputValue()).toBe('Sesión 2: duelo');
    // Kept on the server while typing.
    await dialog.getByText('Borrador guardado').waitFor();

    await page.reload();
    const offer = page.getByRole('list', { name: 'Borradores sin guardar' }).getByRole('listitem');
    await offer.getByText(/Tienes un borrador sin guardar del \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}: «Sesión 2: duelo»/).waitFor();
    await shot(page, 'history-drafts-02-offered-after-reload');
    await offer.getByRole('button', { name: 'Continuar' }).click();
    const reopened = page.getByRole('dialog', { name: 'Nueva entrada' });
    await reopened.getByText(/Recuperado el borrador sin guardar/).waitFor();
    expect(await reopened.getByRole('textbox', { name: 'Título' }).inputValue()).toBe('Sesión 2: duelo');
    await reopened.getByRole('textbox', { name: 'Texto' }).getByText('Habla por primera vez de la pérdida de su madre.').waitFor();

    // Saved: the entry is in the history and the draft is gone, on the screen and on the server.
    await reopened.getByRole('button', { name: 'Guardar entrada' }).click();
    await page.getByRole('list', { name: 'Entradas de la historia clínica' }).getByRole('heading', { name: 'Sesión 2: duelo' }).waitFor();
    // The entries and the drafts are read again side by side: the draft goes with its own answer.
    await expect.poll(() => page.getByRole('list', { name: 'Borradores sin guardar' }).count()).toBe(0);
    expect(await drafts()).toEqual([]);
    await page.reload();
    await page.getByRole('list', { name: 'Entradas de la historia clínica' }).getByRole('heading', { name: 'Sesión 2: duelo' }).waitFor();
    expect(await page.getByRole('list', { name: 'Borradores sin guardar' }).count()).toBe(0);
  });

  it('an edit in progress is kept the same way: ✕ asks, the change is offered after a reload', async () => {
    const entry = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Sesión 2: duelo' }) });
    await entry.getByRole('button', { name: /Acciones de/ }).click();
    await page.getByRole('menuitem', { name: 'Editar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar entrada' });
    await dialog.getByRole('textbox', { name: 'Título' }).fill('Sesión 2: duelo y culpa');
    await dialog.getByRole('button', { name: 'Cerrar' }).click();
    const confirm = page.getByRole('alertdialog', { name: '¿Descartar los cambios?' });
    await confirm.getByRole('button', { name: 'Seguir editando' }).click();
    await dialog.getByText('Borrador guardado').waitFor();
    await page.reload();
    const offer = page.getByRole('list', { name: 'Borradores sin guardar' }).getByRole('listitem');
    await offer.getByText(/\(cambios en una entrada\): «Sesión 2: duelo y culpa»/).waitFor();
    await offer.getByRole('button', { name: 'Continuar' }).click();
    const reopened = page.getByRole('dialog', { name: 'Editar entrada' });
    expect(await reopened.getByRole('textbox', { name: 'Título' }).inputValue()).toBe('Sesión 2: duelo y culpa');
    await reopened.getByRole('button', { name: 'Guardar cambios' }).click();
    await page
      .getByRole('list', { name: 'Entradas de la historia clínica' })
      .getByRole('heading', { name: 'Sesión 2: duelo y culpa' })
      .waitFor();
    expect(await drafts()).toEqual([]);
  });

  it('Cancelar with typed text asks too, and "Descartar" drops the draft', async () => {
    await page.getByRole('button', { name: 'Nueva entrada' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Nueva entrada' });
    await dialog.getByRole('textbox', { name: 'Título' }).fill('Nota que no quiero');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    const confirm = page.getByRole('alertdialog', { name: '¿Descartar la entrada?' });
    await confirm.getByRole('button', { name: 'Descartar' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await drafts()).toEqual([]);
    // Untouched, it closes at once.
    await page.getByRole('button', { name: 'Nueva entrada' }).first().click();
    await page.getByRole('dialog', { name: 'Nueva entrada' }).getByRole('textbox', { name: 'Título' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Nueva entrada' }).waitFor({ state: 'detached' });
  });
});
