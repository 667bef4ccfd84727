import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { allowConsole, launchBrowser, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { signUpAndIn, type SignedIn } from '../support/accounts';

const baseUrl = inject('baseUrl');

type Template = { id: string; version: number; latestVersion: number; name: string; sections: { title: string; body: string }[] };

/**
 * Consent templates (issue 13), in Chromium: the empty list offers Diván's ready-made templates; one
 * is copied and opens in the editor (version 1); a section is edited and saved as version 2; asking
 * no data at all is refused at the field before saving, in Spanish; leaving with unsaved changes asks;
 * the template is archived from the list. Another template comes through the API.
 */
describe.skipIf(!hasChromium || !baseUrl)('consent templates: ready-made copy, edit, versions, validation, archive', () => {
  let browser: Browser;
  let me: SignedIn;
  let page: Page;
  let templateId = '';
  /** Desktop, then the same screen on a phone. */
  const shots = async (name: string) => {
    await shot(page, `${name}-desktop`);
    await page.setViewportSize({ width: 375, height: 812 });
    await shot(page, `${name}-phone`);
    await page.setViewportSize({ width: 1280, height: 820 });
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    me = await signUpAndIn(browser, baseUrl, 'Marta');
    page = me.page;
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the empty list offers the ready-made templates; copying one opens the editor at version 1', async () => {
    await page.goto('/consents');
    await page.getByRole('heading', { name: 'Aún no tienes plantillas de consentimiento' }).waitFor();
    await page.getByRole('button', { name: 'Usar una plantilla de Diván' }).click();
    const dialog = page.getByRole('dialog', { name: 'Usar una plantilla de Diván' });
    await dialog.getByRole('heading', { name: 'Protección de datos (RGPD y LOPDGDD)' }).waitFor();
    await dialog.getByText(/AEPD/).waitFor();
    expect(
      await dialog
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading') })
        .count(),
    ).toBe(5);
    await shots('consents-01-ready-made');
    await dialog.getByRole('button', { name: 'Usar «Protección de datos (RGPD y LOPDGDD)»' }).click();
    await page.waitForURL(/\/consents\/editor\/[0-9a-f-]{36}$/);
    templateId = page.url().split('/').pop()!;
    await page.getByRole('heading', { level: 1, name: 'Protección de datos (RGPD y LOPDGDD)' }).waitFor();
    await page.getByTestId('template-version').getByText('Versión 1').waitFor();
    expect(await page.getByLabel('Título del documento').inputValue()).toBe('Información sobre protección de datos personales');
  });

  it('edits a section (title, text and a variable chip) and saves version 2', async () => {
    const first = page.getByTestId('consent-section').first();
    await first.getByLabel('Título de la sección').fill('Quién trata tus datos');
    const body = first.locator('.ProseMirror');
    await body.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Paciente: ');
    await page.getByRole('button', { name: /^Insertar \{\{paciente\.nombre\}\}/ }).click();
    await page.getByText('Cambios sin guardar').waitFor();
    // Moving a section by keyboard: the second goes up and becomes the first.
    const secondTitle = await page.getByTestId('consent-section').nth(1).getByLabel('Título de la sección').inputValue();
    await page.getByRole('button', { name: 'Subir la sección 2', exact: true }).focus();
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('consent-section').first().getByLabel('Título de la sección').inputValue()).toBe(secondTitle);
    await page.getByRole('button', { name: 'Bajar la sección 1', exact: true }).click();
    expect(await page.getByTestId('consent-section').nth(1).getByLabel('Título de la sección').inputValue()).toBe(secondTitle);

    await page.getByRole('button', { name: 'Vista previa' }).click();
    const preview = page.getByTestId('consent-preview');
    await preview.getByRole('heading', { name: 'Quién trata tus datos' }).waitFor();
    await preview.getByText('Paciente: Lucía Romero García').waitFor();
    await shot(page, 'consents-02-preview-desktop');
    await page.getByRole('dialog', { name: 'Vista previa' }).getByRole('button', { name: 'Cerrar', exact: true }).click();

    await page.getByRole('button', { name: 'Guardar nueva versión' }).click();
    await page.getByTestId('template-version').getByText('Versión 2').waitFor();
    await page.getByText('Versión 2 guardada').waitFor();
    const saved = await me.call<Template>('GET', `/consent-templates/${templateId}`);
    expect(saved.version).toBe(2);
    expect(saved.sections[0]!.title).toBe('Quién trata tus datos');
    expect(saved.sections[0]!.body).toContain('Paciente: {{paciente.nombre}}');
    expect((await me.call<unknown[]>('GET', `/consent-templates/${templateId}/versions`)).length).toBe(2);
    await shots('consents-03-editor');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('an outdated version is explained, and reloading shows the latest', async () => {
    // Another member saves version 3 while this editor still holds version 2.
    allowConsole({ text: /status of 409/, url: /\/consent-templates\/[\w-]+$/, because: 'saving an outdated version is refused' });
    const current = await me.call<Template & Record<string, unknown>>('GET', `/consent-templates/${templateId}`);
    const { name, data, signatures } = current;
    await me.call('PUT', `/consent-templates/${templateId}`, {
      name,
      documentTitle: 'Protección de datos: información al paciente',
      data,
      signatures,
      sections: current.sections,
      baseVersion: 2,
    });
    await page.getByLabel('Nombre de la plantilla').fill('Protección de datos (mi versión)');
    await page.getByRole('button', { name: 'Guardar nueva versión' }).click();
    await page.getByText(/Otra persona ha guardado esta plantilla mientras la editabas \(ahora va por la versión 3\)/).waitFor();
    await page.getByRole('button', { name: 'Volver a cargar la última versión' }).click();
    await page.getByTestId('template-version').getByText('Versión 3').waitFor();
    expect(await page.getByLabel('Título del documento').inputValue()).toBe('Protección de datos: información al paciente');
    expect(await page.getByLabel('Nombre de la plantilla').inputValue()).toBe('Protección de datos (RGPD y LOPDGDD)');
  });

  it('asking no data is refused at the field before saving, in Spanish; leaving asks first', async () => {
    const patient = page.getByRole('group', { name: 'Paciente' });
    for (const label of ['Nombre completo', 'Email', 'DNI/NIE']) await patient.getByRole('checkbox', { name: label }).uncheck();
    const message = page.getByText('Debes pedir al menos un dato del paciente, tutor o segundo tutor');
    await message.waitFor();
    await page.getByRole('button', { name: 'Guardar nueva versión' }).click();
    await page.getByText('Revisa el campo marcado antes de guardar:').waitFor();
    expect((await me.call<Template>('GET', `/consent-templates/${templateId}`)).version).toBe(3);
    await shot(page, 'consents-04-validation-desktop');

    await page.getByRole('link', { name: 'Consentimientos' }).first().click();
    const discard = page.getByRole('alertdialog', { name: '¿Descartar los cambios?' });
    await discard.waitFor();
    await discard.getByRole('button', { name: 'Descartar cambios' }).click();
    await page.waitForURL(/\/consents$/);
  });

  it('lists the templates with search, and archives one after confirming', async () => {
    await me.call('POST', '/consent-templates/from-ready-made/sesiones-online');
    await page.goto('/consents');
    const list = page.getByRole('region', { name: 'Plantillas de consentimiento' });
    await list.getByRole('link', { name: 'Protección de datos (RGPD y LOPDGDD)', exact: true }).waitFor();
    await list.getByRole('link', { name: 'Sesiones online (videollamada)', exact: true }).waitFor();
    await list.getByText('Versión 3').waitFor();
    await shots('consents-05-list');

    await page.getByRole('searchbox', { name: 'Buscar plantillas' }).fill('videollamada');
    await page.waitForURL(/q=videollamada/);
    await list.getByRole('link', { name: 'Protección de datos (RGPD y LOPDGDD)', exact: true }).waitFor({ state: 'detached' });
    await page.getByRole('searchbox', { name: 'Buscar plantillas' }).fill('');
    await list.getByRole('link', { name: 'Protección de datos (RGPD y LOPDGDD)', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Acciones de Protección de datos (RGPD y LOPDGDD)' }).click();
    await page.getByRole('menuitem', { name: 'Archivar…' }).click();
    const confirm = page.getByRole('alertdialog', { name: '¿Archivar la plantilla?' });
    await confirm.getByRole('button', { name: 'Archivar' }).click();
    await confirm.waitFor({ state: 'detached' });
    await list.getByRole('link', { name: 'Protección de datos (RGPD y LOPDGDD)', exact: true }).waitFor({ state: 'detached' });
    await page.getByRole('combobox', { name: 'Estado' }).selectOption('archived');
    await list.getByText('Protección de datos (RGPD y LOPDGDD)').waitFor();
    await list.getByText(/^Archivada el/).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('a ready-made template the therapist signs asks for a drawn signature first; a typed one replaces it', async () => {
    await page.getByRole('combobox', { name: 'Estado' }).selectOption('active');
    await page.getByRole('button', { name: 'Usar una plantilla de Diván' }).click();
    await page.getByRole('button', { name: 'Usar «Consentimiento informado para tratamiento psicológico»' }).click();
    const dialog = page.getByRole('dialog', { name: 'Firma para «Consentimiento informado para tratamiento psicológico»' });
    const copy = dialog.getByRole('button', { name: 'Copiar con mi firma' });
    expect(await copy.isDisabled()).toBe(true);
    const box = (await dialog.getByTestId('signature-pad').boundingBox())!;
    await page.mouse.move(box.x + 30, box.y + 100);
    await page.mouse.down();
    for (const [dx, dy] of [
      [60, 40],
      [110, 90],
      [170, 30],
      [240, 110],
      [300, 60],
    ] as const)
      await page.mouse.move(box.x + dx, box.y + dy, { steps: 5 });
    await page.mouse.up();
    await shot(page, 'consents-06-signature-desktop');
    await copy.click();
    await page.waitForURL(/\/consents\/editor\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    await page.getByRole('img', { name: 'Firma del terapeuta' }).waitFor();

    await page.getByRole('button', { name: 'Cambiar firma' }).click();
    await page.getByRole('radio', { name: 'Escribir' }).click();
    await page.getByLabel('Escribe tu nombre como firma').fill('Marta Ruiz Sanz');
    await page.getByRole('button', { name: 'Guardar nueva versión' }).click();
    await page.getByTestId('template-version').getByText('Versión 2').waitFor();
    const saved = await me.call<{ therapistSignature: { image: string } | null }>('GET', `/consent-templates/${id}`);
    expect(saved.therapistSignature?.image).toMatch(/^data:image\/png;base64,/);
  });
});
