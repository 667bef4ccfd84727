import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { signUpAndIn, type SignedIn } from '../support/accounts';
import { ok, publicApi } from '../support/api';
import { linkIn, waitForMail } from '../support/mail';

const baseUrl = inject('baseUrl');

type Sent = { id: string; state: string; links: { role: string; url: string; mailed: boolean }[] };

/** YYYY-MM-DD `years` ago today. */
const yearsAgo = (years: number) => {
  const d = new Date();
  d.setFullYear(d.getFullYear() - years);
  return d.toISOString().slice(0, 10);
};

/**
 * Sending consents (issue 13), in Chromium: from the patient's «Consentimientos» tab to an adult (the
 * file's email, the link mailed and shown to copy); from `/consents` › Enviados to a minor of 10 with
 * the patient picker, where both guardians are asked for until the art. 156 exception leaves one;
 * revoking asks first; once the adult has signed (through the public API), the sealed PDF downloads.
 */
describe.skipIf(!hasChromium || !baseUrl)('sending consents: patient tab, list, minors, revoke, signed PDF', () => {
  let browser: Browser;
  let me: SignedIn;
  let page: Page;
  let adultId = '';
  let adultTemplate = '';
  const adultEmail = `lucia.${Date.now()}@example.com`;
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
    // Diván's ready-made data-protection consent, copied as is.
    adultTemplate = (await me.call<{ id: string }>('POST', '/consent-templates/from-ready-made/proteccion-datos', {})).id;
    await me.call('POST', '/consent-templates', {
      name: 'Tratamiento de menores',
      documentTitle: 'Consentimiento para el tratamiento de {{paciente.nombre}}',
      data: { guardian: ['fullName'], secondGuardian: ['fullName'] },
      sections: [{ title: 'Tratamiento', body: '<p>Atención psicológica.</p>' }],
      signatures: { guardian: true, secondGuardian: true },
    });
    adultId = (
      await me.call<{ id: string }>('POST', '/patients', {
        firstName: 'Lucía',
        lastName: 'Romero',
        email: adultEmail,
        birthdate: yearsAgo(30),
      })
    ).id;
    await me.call('POST', '/patients', { firstName: 'Pablo', lastName: 'Gil', birthdate: yearsAgo(10) });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("sends from the patient's tab: the file's email, the link mailed and shown to copy", async () => {
    await page.goto(`/patients/${adultId}/consents`);
    await page.getByRole('heading', { name: 'No se le ha enviado ningún consentimiento' }).waitFor();
    await page.getByRole('button', { name: 'Enviar consentimiento' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enviar consentimiento' });
    await dialog.getByLabel('Plantilla').selectOption({ label: 'Protección de datos (RGPD y LOPDGDD)' });
    await dialog.getByText('Firma el paciente.').waitFor();
    expect(await dialog.getByLabel('Email del paciente').inputValue()).toBe(adultEmail);
    // Marta has no registration number yet: the RGPD text would read «colegiado/a n.º .». Said before sending.
    const missing = dialog.getByTestId('missing-variables');
    await missing.getByText('Falta tu número de colegiado/a: el documento lo dejaría en blanco.').waitFor();
    const send = dialog.getByRole('button', { name: 'Enviar' });
    expect(await send.isDisabled()).toBe(true);
    await shots('consents-send-01-missing');
    // Sending it blank is a choice made knowingly…
    await missing.getByLabel(/Enviarlo igualmente/).check();
    expect(await send.isDisabled()).toBe(false);
    await missing.getByLabel(/Enviarlo igualmente/).uncheck();
    expect(await send.isDisabled()).toBe(true);
    // …or it is filled right here, into her profile.
    await missing.getByLabel('Tu número de colegiado/a').fill('M-27431');
    await missing.getByRole('button', { name: 'Guardar en tu perfil' }).click();
    await missing.waitFor({ state: 'detached' });
    const profile = await me.api.get<{ registrationNumber: string | null }>('/me');
    expect(profile.body.registrationNumber).toBe('M-27431');
    expect(await send.isDisabled()).toBe(false);
    await shots('consents-send-01-dialog');
    await send.click();
    const done = page.getByRole('dialog', { name: 'Consentimiento enviado' });
    const link = await done.getByLabel('Enlace de firma de Paciente').inputValue();
    expect(link).toMatch(/\/consents\/sign\/[A-Za-z0-9_-]{20,}$/);
    const mail = await waitForMail(baseUrl, adultEmail, (m) => m.text.includes('/consents/sign/'));
    expect(linkIn(mail, '/consents/sign')).toBe(link);
    await shots('consents-send-02-links');
    await done.getByRole('button', { name: 'Hecho' }).click();
    const row = page
      .getByRole('region', { name: 'Consentimientos enviados' })
      .getByRole('listitem')
      .filter({ hasText: 'Información sobre protección de datos personales' });
    await row.getByText('Enviado', { exact: true }).waitFor();
    await row.getByText(/aún no lo ha abierto/).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('sends to a minor of 10 from the list: both guardians, or one with the art. 156 exception; revoking asks first', async () => {
    await page.goto('/consents');
    await page.getByRole('link', { name: 'Enviados' }).click();
    await page.waitForURL(/vista=enviados/);
    // From the command palette, by keyboard.
    await page.keyboard.press('Control+k');
    await page.getByPlaceholder('Busca pacientes, páginas o acciones…').fill('enviar consent');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Enviar consentimiento' });
    await dialog.waitFor();
    expect(page.url()).not.toMatch(/enviar=1/);
    await dialog.getByLabel('Plantilla').selectOption({ label: 'Tratamiento de menores' });
    await dialog.getByRole('combobox', { name: 'Paciente' }).fill('Pablo');
    await page.getByRole('option', { name: /Pablo Gil/ }).click();
    await dialog.getByText(/Tiene 10 años: firman sus dos tutores, por turnos/).waitFor();
    const send = dialog.getByRole('button', { name: 'Enviar' });
    expect(await send.isDisabled()).toBe(true);
    const guardian = dialog.getByRole('group', { name: 'Tutor/a', exact: true });
    await guardian.getByLabel('Nombre y apellidos').fill('Ana Gil');
    await guardian.getByLabel('Email').fill('ana.gil@example.com');
    await dialog.getByRole('group', { name: 'Segundo tutor/a' }).waitFor();
    await dialog.getByLabel(/Firma solo un tutor/).check();
    expect(await dialog.getByRole('group', { name: 'Segundo tutor/a' }).count()).toBe(0);
    expect(await send.isDisabled()).toBe(true);
    await dialog.getByLabel('Motivo').selectOption({ label: 'Denuncia por violencia de género' });
    await dialog.getByLabel(/El otro progenitor ha sido informado/).check();
    await shots('consents-send-03-minor');
    await send.click();
    const done = page.getByRole('dialog', { name: 'Consentimiento enviado' });
    await done.getByLabel('Enlace de firma de Tutor/a').waitFor();
    expect(await done.getByLabel('Enlace de firma de Segundo tutor/a').count()).toBe(0);
    await done.getByRole('button', { name: 'Hecho' }).click();

    const list = page.getByRole('region', { name: 'Consentimientos enviados' });
    const row = list.getByRole('listitem').filter({ hasText: 'Consentimiento para el tratamiento de Pablo Gil' });
    await row.getByText('Un solo tutor (art. 156 CC)').waitFor();
    await row.getByRole('link', { name: 'Pablo Gil' }).waitFor();
    await shots('consents-send-04-list');
    await row.getByRole('button', { name: /^Acciones de/ }).click();
    await page.getByRole('menuitem', { name: 'Anular…' }).click();
    const confirm = page.getByRole('alertdialog', { name: '¿Anular el consentimiento?' });
    await confirm.getByRole('button', { name: 'Anular' }).click();
    await row.getByText('Anulado', { exact: true }).waitFor();
    await list.getByLabel('Estado').selectOption({ label: 'Anulado' });
    await expect
      .poll(() =>
        list
          .getByRole('listitem')
          .filter({ hasText: /Consentimiento/ })
          .count(),
      )
      .toBe(1);
  });

  it('once the adult has signed, the sealed PDF downloads from the tab and sits in her documents', async () => {
    const sent = await me.call<Sent>('POST', '/consents', { patientId: adultId, templateId: adultTemplate });
    const token = sent.links[0]!.url.split('/').pop()!;
    // Signed as the patient would, from what the page asks (the ready-made template's data and boxes).
    const doc = await ok(
      publicApi.get<{ sections: { index: number; checkbox: { required: boolean } | null }[]; signer: { data: string[] } }>(
        `/public/consents/${token}`,
      ),
    );
    const values: Record<string, string> = {
      fullName: 'Lucía Romero',
      email: adultEmail,
      phone: '612345678',
      address: 'Calle Mayor 1, Madrid',
      idNumber: '12345678Z',
    };
    const res = await publicApi.post<{ completed: boolean }>(`/public/consents/${token}/sign`, {
      data: Object.fromEntries(doc.signer.data.map((f) => [f, values[f]])),
      checkboxes: doc.sections.filter((x) => x.checkbox).map((x) => x.index),
      sectionCount: doc.sections.length,
      signature: { kind: 'typed', name: 'Lucía Romero' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.completed).toBe(true);

    await page.goto(`/patients/${adultId}/consents`);
    const list = page.getByRole('region', { name: 'Consentimientos enviados' });
    const signed = list.getByRole('listitem').filter({ has: page.getByRole('button', { name: /Descargar el PDF firmado/ }) });
    await signed.locator('span', { hasText: /^Firmado$/ }).waitFor();
    await signed.getByText(/firmó el \d{2}\/\d{2}\/\d{4}/).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      list.getByRole('button', { name: /Descargar el PDF firmado/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const pdf = await readFile((await download.path())!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.includes(Buffer.from('/ByteRange'))).toBe(true);
    const docs = await me.call<{ name: string }[]>('GET', `/patients/${adultId}/documents`);
    expect(docs.map((d) => d.name)).toContain(download.suggestedFilename());
  });
});
