import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { allowConsole, launchBrowser, newContext, seriousA11yViolations, shareSession, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { signUpAndIn } from '../support/accounts';
import { fixturePath } from '../../fixtures';

const baseUrl = inject('baseUrl');

/** A one-page PDF, enough for the server to recognise the type from its bytes. */
const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

describe.skipIf(!hasChromium || !baseUrl)('a therapist looks after their patients', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let patientUrl = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await signUpAndIn(browser, baseUrl, 'Marta'));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('starts from an empty list and creates a patient', async () => {
    await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Pacientes' }).click();
    await page.getByRole('heading', { name: 'Aún no tienes pacientes' }).waitFor();
    await shot(page, 'patients-01-empty');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Nuevo paciente' }).first().click();
    // The form's own messages (a missing name, a bad email, DNI/NIE or price) are a component test:
    // apps/web/src/features/patients/list/create-patient-dialog.test.tsx.
    const dialog = page.getByRole('dialog', { name: 'Nuevo paciente' });
    await dialog.getByLabel('Nombre', { exact: true }).fill('Lucía');
    await dialog.getByLabel('Apellidos').fill('Romero Vidal');
    await dialog.getByLabel('Email').fill('lucia.romero@correo.es');
    await dialog.getByLabel('Teléfono').fill('+34 611 222 333');
    await dialog.getByLabel('Fecha de nacimiento').fill('14/05/1988');
    await dialog.getByLabel('Género').selectOption('female');
    await dialog.getByLabel('DNI/NIE').fill('12345678Z');
    await dialog.getByLabel('Motivo de consulta').selectOption('anxiety');
    await dialog.getByLabel('Tipo de sesión').selectOption('individual');
    await dialog.getByLabel('Precio por sesión (€)').fill('60');
    await dialog.getByLabel('Dirección', { exact: true }).fill('Calle Mayor 12');
    await dialog.getByLabel('Código postal').fill('28013');
    await dialog.getByLabel('Ciudad').fill('Madrid');
    await dialog.getByRole('button', { name: 'Crear paciente' }).click();
    await page.waitForURL(/\/patients\/[0-9a-f-]+\/overview$/);
    patientUrl = page.url().replace(/\/overview$/, '');
    await page.getByRole('heading', { level: 1, name: 'Lucía Romero Vidal' }).waitFor();
    await page.getByText('Ansiedad').first().waitFor();
    await shot(page, 'patients-03-patient-overview');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('fills in the treatment', async () => {
    await page.getByRole('link', { name: 'Datos', exact: true }).click();
    const treatment = page.locator('form', { has: page.getByRole('heading', { name: 'Tratamiento' }) });
    await treatment.getByLabel('Modalidad').selectOption('online');
    await treatment.getByLabel('¿Cómo llegó a la consulta?').selectOption('website');
    await treatment.getByLabel('Aseguradora').selectOption('sanitas');
    await treatment.getByLabel('Número de póliza').fill('SAN-88412');
    await treatment.getByLabel('Precio por sesión (€)').fill('62,50');
    await treatment.getByLabel('Medicación').fill('Sertralina 50 mg/día desde marzo.');
    await treatment.getByRole('button', { name: 'Guardar tratamiento' }).click();
    await page.getByText('Tratamiento guardado').waitFor();
    await page.reload();
    await expect(page.getByLabel('Número de póliza').inputValue()).resolves.toBe('SAN-88412');
    await expect(page.getByLabel('Precio por sesión (€)').inputValue()).resolves.toBe('62,50');
    await shot(page, 'patients-04-patient-info');
  });

  it('writes a clinical history entry with the rich text editor', async () => {
    await page.getByRole('link', { name: 'Historia clínica', exact: true }).click();
    await page.getByRole('heading', { name: 'Sin entradas todavía' }).waitFor();
    await page.getByRole('button', { name: 'Nueva entrada' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Nueva entrada' });
    await dialog.getByRole('textbox', { name: 'Título' }).fill('Primera sesión: evaluación');
    const editor = dialog.getByRole('textbox', { name: 'Texto' });
    await editor.click();
    await page.keyboard.type('Acude por ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('ansiedad generalizada');
    await page.keyboard.press('Control+b');
    await page.keyboard.type(' desde hace un año.');
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Lista', exact: true }).click();
    await page.keyboard.type('Insomnio de conciliación');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Evitación de situaciones sociales');
    await dialog.getByRole('switch', { name: 'Entrada privada' }).click();
    await shot(page, 'patients-05-history-editor');
    await dialog.getByRole('button', { name: 'Guardar entrada' }).click();
    const entry = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Primera sesión: evaluación' }) });
    await entry.waitFor();
    expect(await entry.locator('strong', { hasText: 'ansiedad generalizada' }).count()).toBe(1);
    expect(await entry.getByText('Privada').isVisible()).toBe(true);

    // An edit keeps the previous version.
    await entry.getByRole('button', { name: /Acciones de/ }).click();
    await page.getByRole('menuitem', { name: 'Editar' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar entrada' });
    await edit.getByRole('textbox', { name: 'Título' }).fill('Primera sesión: evaluación inicial');
    await edit.getByRole('button', { name: 'Guardar cambios' }).click();
    await page.getByRole('button', { name: 'editada 1 vez' }).click();
    await page.getByRole('dialog', { name: 'Historial de cambios' }).getByText('Primera sesión: evaluación', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('imports a Word document as an entry, and refuses a file that is not one', async () => {
    allowConsole({ text: /status of 400/, url: /\/history\/import-docx$/, because: 'a file that is not a Word document is refused' });
    await page.getByLabel('Archivo Word (.docx)').setInputFiles({
      name: 'notas.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: Buffer.from('no soy un word'),
    });
    await page.getByText('El archivo no es un documento Word (.docx) válido o no se puede leer.').waitFor();
    await page.getByLabel('Archivo Word (.docx)').setInputFiles(fixturePath('historia-clinica.docx'));
    await page.getByText(/añadida a la historia clínica/).waitFor();
    await page.getByRole('list', { name: 'Entradas de la historia clínica' }).locator(':scope > li').nth(1).waitFor();
    const imported = page.getByRole('list', { name: 'Entradas de la historia clínica' }).locator('table');
    expect(await imported.count()).toBeGreaterThan(0);
    await shot(page, 'patients-06-history-with-docx');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('uploads a document, tags it and shares it with the patient', async () => {
    await page.getByRole('link', { name: 'Documentos', exact: true }).click();
    await page.getByRole('heading', { name: 'Sin documentos' }).waitFor();
    await page.getByLabel('Subir documentos').setInputFiles([
      { name: 'Informe de derivación.pdf', mimeType: 'application/pdf', buffer: pdf },
      { name: 'audio.mp3', mimeType: 'audio/mpeg', buffer: Buffer.from('ID3') },
    ]);
    await page.getByText('Tipo de archivo no admitido', { exact: false }).waitFor();
    const row = page.getByRole('list', { name: 'Documentos' }).getByRole('listitem').filter({ hasText: 'Informe de derivación.pdf' });
    await row.waitFor();
    await row.getByRole('button', { name: /Acciones de/ }).click();
    await page.getByRole('menuitem', { name: 'Etiquetas' }).click();
    const tags = page.getByRole('dialog', { name: 'Etiquetas' });
    await tags.getByRole('combobox').fill('Informe');
    await page.keyboard.press('Enter');
    await tags.getByRole('combobox').fill('Derivación');
    await page.keyboard.press('Enter');
    await tags.getByRole('button', { name: 'Guardar' }).click();
    await row.getByText('Derivación', { exact: true }).waitFor();
    await row.getByRole('switch', { name: /Compartir/ }).click();
    await row.getByText('Compartido', { exact: true }).waitFor();
    await shot(page, 'patients-07-documents');
    const download = page.waitForEvent('download');
    await row.getByRole('button', { name: 'Informe de derivación.pdf', exact: true }).click();
    expect((await download).suggestedFilename()).toBe('Informe de derivación.pdf');
  });

  it('refuses to end the treatment without a reason, then ends it', async () => {
    await page.getByRole('link', { name: 'Datos', exact: true }).click();
    await page.getByRole('radio', { name: /Inactivo/ }).check();
    await page.getByRole('button', { name: 'Finalizar tratamiento' }).click();
    await page.getByText('El campo motivo de finalización es obligatorio').waitFor();
    await shot(page, 'patients-08-end-treatment-refused');
    await page.getByLabel('Motivo de finalización').selectOption('completed');
    await page.getByRole('button', { name: 'Finalizar tratamiento' }).click();
    await page.getByText('Tratamiento finalizado').waitFor();
    await page.locator('main header').getByText('Inactivo').waitFor();
  });

  it('imports patients from Excel: a wrong file is refused, two bad rows are reported', async () => {
    await page.goto('/patients');
    allowConsole({ text: /status of 400/, url: /\/patient-imports$/, because: 'a wrong file is refused' });
    await page.getByRole('button', { name: 'Importar desde Excel' }).click();
    const wizard = page.getByRole('dialog', { name: 'Importar pacientes desde Excel' });
    await wizard.getByLabel('Archivo de Excel').setInputFiles(fixturePath('no-es-excel.xlsx'));
    await wizard.getByText('El archivo no es un Excel válido o no se puede leer.').waitFor();
    await wizard.getByLabel('Archivo de Excel').setInputFiles(fixturePath('pacientes-50.xlsx'));
    const mapping = page.getByRole('dialog', { name: 'Relaciona las columnas' });
    await mapping.getByText('Vista previa').waitFor();
    await expect(mapping.getByLabel('Apellidos').inputValue()).resolves.toBe('1');
    await shot(page, 'patients-09-import-mapping');
    await mapping.getByRole('button', { name: 'Importar 50 filas' }).click();
    const done = page.getByRole('dialog', { name: 'Importación de pacientes' });
    await done.getByText('48 pacientes importados').waitFor({ timeout: 60_000 });
    expect(await done.getByText('Fila 19', { exact: true }).isVisible()).toBe(true);
    expect(await done.getByText('Fila 35', { exact: true }).isVisible()).toBe(true);
    await shot(page, 'patients-10-import-summary');
    await done.getByRole('button', { name: 'Ver pacientes' }).click();
    await page.getByRole('tab', { name: /Todos/ }).getByText('49').waitFor();
  });

  it('searches, filters and pages the list, keeping the state in the URL', async () => {
    await page.getByRole('searchbox', { name: 'Buscar pacientes' }).fill('oscar ruiz');
    await page.waitForURL(/q=oscar/);
    const table = page.locator('table');
    await table.getByRole('link', { name: 'Óscar Ruiz Muñoz' }).waitFor();
    // The previous page stays on screen until the search answers.
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    await shot(page, 'patients-11-search');
    await page.reload();
    await table.getByRole('link', { name: 'Óscar Ruiz Muñoz' }).waitFor();
    await expect(page.getByRole('searchbox', { name: 'Buscar pacientes' }).inputValue()).resolves.toBe('oscar ruiz');

    await page.getByRole('button', { name: 'Limpiar filtros' }).first().click();
    await page.getByRole('tab', { name: /Inactivos/ }).click();
    await table.getByRole('link', { name: 'Lucía Romero Vidal' }).waitFor();
    await page.getByRole('tab', { name: /Todos/ }).click();
    await page.getByText('1–49 de 49').waitFor();
    await shot(page, 'patients-12-list');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('exports the file and deletes the patient, who stays blocked for the legal period', async () => {
    await page.goto(`${patientUrl}/settings`);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Descargar PDF' }).click();
    expect((await download).suggestedFilename()).toMatch(/\.pdf$/);
    await page.getByRole('button', { name: 'Eliminar paciente' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Eliminar' }).click();
    const result = page.getByRole('dialog', { name: 'Paciente bloqueado' });
    await result.getByText(/podrá borrarse a partir del \d{2}\/\d{2}\/\d{4}/).waitFor();
    await shot(page, 'patients-13-patient-blocked');
    await result.getByRole('button', { name: 'Volver a pacientes' }).click();
    await page.waitForURL(`${baseUrl}/patients`);
    await page.getByText('1–48 de 48').waitFor();
  });

  it('works on a 375 px wide phone', async () => {
    const phone = await newContext(browser, baseUrl, { mobile: true });
    await shareSession(phone, context);
    const mobile = await phone.newPage();
    await mobile.goto('/patients');
    await mobile.getByRole('link', { name: 'Óscar Ruiz Muñoz' }).waitFor();
    await shot(mobile, 'patients-14-mobile-patients');
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await mobile.getByRole('link', { name: 'Óscar Ruiz Muñoz' }).click();
    await mobile.getByRole('heading', { level: 1, name: 'Óscar Ruiz Muñoz' }).waitFor();
    await mobile.getByRole('link', { name: 'Datos', exact: true }).click();
    await mobile.getByLabel('Apellidos').waitFor();
    await shot(mobile, 'patients-15-mobile-patient-info');
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await phone.close();
  });
});
