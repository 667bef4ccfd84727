// A note typed in "Nueva entrada" is never thrown away without asking, and survives a reload: the draft
// is kept on the server while typing (encrypted, private to its author) and offered again.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { signUpAndIn } from '../support/accounts';

const baseUrl = inject('baseUrl');

describe.skipIf(!hasChromium || !baseUrl)('a history entry being written survives Esc and a reload', () => {
  let browser: Browser;
  let page: Page;
  let historyUrl = '';
  let drafts: () => Promise<{ entryId: string | null; title: string }[]>;

  beforeAll(async () => {
    browser = await launchBrowser();
    const me = await signUpAndIn(browser, baseUrl, 'Nuria');
    page = me.page;
    // The patient comes through the API.
    const patientId = (await me.call<{ id: string }>('POST', '/patients', { firstName: 'Pilar', lastName: 'Ortega' })).id;
    historyUrl = `/patients/${patientId}/history`;
    drafts = () => me.call('GET', `/patients/${patientId}/history/drafts`);
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
