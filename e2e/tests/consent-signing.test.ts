import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { allowConsole, launchBrowser, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium, isCi } from '../support/env';
import { signUpAndIn, type SignedIn } from '../support/accounts';
import { linkIn, waitForMail } from '../support/mail';

const baseUrl = inject('baseUrl');

type Envelope = {
  id: string;
  state: string;
  documentId: string | null;
  signers: { role: string; signedAt: string | null; mailedAt: string | null }[];
};

/** YYYY-MM-DD `years` ago today. */
const yearsAgo = (years: number) => {
  const d = new Date();
  d.setFullYear(d.getFullYear() - years);
  return d.toISOString().slice(0, 10);
};
/** 'DD/MM/YYYY' and 'HH:mm' of an instant in Madrid, as the page (in Madrid) shows it. */
const madrid = (iso: string) => {
  const part = (o: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('es-ES', { timeZone: 'Europe/Madrid', ...o }).format(new Date(iso));
  return {
    day: part({ day: '2-digit', month: '2-digit', year: 'numeric' }),
    time: part({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
  };
};

/** A poppler-utils tool's output for a PDF; null when the tool is not installed (outside CI). */
function poppler(tool: 'pdfsig' | 'pdftotext', pdf: Buffer): string | null {
  if (spawnSync(tool, ['-v']).error) {
    if (isCi) throw new Error(`${tool} (poppler-utils) is missing: CI=true requires it`);
    console.warn(`${tool} not installed (apt-get install poppler-utils): that check of the signed PDF is skipped`);
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), 'divan-e2e-consent-'));
  try {
    writeFileSync(join(dir, 'f.pdf'), pdf);
    const run = spawnSync(tool, tool === 'pdftotext' ? ['-enc', 'UTF-8', join(dir, 'f.pdf'), '-'] : [join(dir, 'f.pdf')], {
      encoding: 'utf8',
    });
    return `${run.stdout}${run.stderr}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Presses Tab until `target` has the focus (the keyboard user's way through the page). */
async function tabTo(page: Page, target: Locator, max = 40) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/**
 * The public signing page (issue 13), in Chromium on a phone (390×844): a minor of 10's consent, sent
 * through the API, needs both guardians. The first guardian's mailed link opens the document; «Firmar»
 * without the required box is stopped at the box; she fills her ID number, draws her signature with
 * the mouse and signs. A second tab of the same link is refused by the server (already signed) without
 * losing what was typed; reopened, the link says when she signed. The second guardian's link, mailed
 * only now, is signed with the keyboard alone and a typed name. The envelope is then signed and its PDF
 * carries a valid seal (pdfsig) and both signatures. Data comes through the API.
 */
describe.skipIf(!hasChromium || !baseUrl)('consent signing page: two guardians, drawn and typed, already signed, sealed PDF', () => {
  let browser: Browser;
  let me: SignedIn;
  let phone: BrowserContext;
  let page: Page;
  let envelopeId = '';
  let firstLink = '';
  let secondLink = '';
  const stamp = Date.now();
  const lucia = `lucia.${stamp}@example.com`;
  const jorge = `jorge.${stamp}@example.com`;
  const title = 'Consentimiento para el tratamiento psicológico de Pablo Gómez Ruiz';
  const required = 'He leído y acepto el tratamiento';
  const envelope = () => me.call<Envelope>('GET', `/consents/${envelopeId}`);
  const signButton = () => page.getByRole('button', { name: 'Firmar', exact: true });

  beforeAll(async () => {
    browser = await launchBrowser();
    me = await signUpAndIn(browser, baseUrl, 'Inés');
    // The therapist's signature on the template: a stroke drawn on a canvas in the browser, as a PNG.
    const therapistSignature = await me.page.evaluate(() => {
      const c = document.createElement('canvas');
      c.width = 300;
      c.height = 100;
      const x = c.getContext('2d')!;
      x.lineWidth = 3;
      x.beginPath();
      x.moveTo(20, 70);
      x.bezierCurveTo(80, 0, 120, 100, 180, 40);
      x.lineTo(280, 60);
      x.stroke();
      return c.toDataURL('image/png');
    });
    const template = await me.call<{ id: string }>('POST', '/consent-templates', {
      name: 'Tratamiento de menores',
      documentTitle: 'Consentimiento para el tratamiento psicológico de {{paciente.nombre}}',
      data: { guardian: ['fullName', 'idNumber'], secondGuardian: ['fullName', 'idNumber'] },
      sections: [
        {
          title: 'Qué es el tratamiento',
          body: '<p>La atención psicológica de <strong>{{paciente.nombre}}</strong> consiste en sesiones de evaluación y tratamiento adaptadas a su edad.</p>',
        },
        {
          title: 'Grabación de sesiones',
          body: '<p>Solo con vuestro permiso, para supervisión clínica.</p>',
          checkbox: { label: 'Autorizo la grabación de sesiones', required: false },
        },
        {
          title: 'Declaración',
          body: '<p>He sido informado/a de la naturaleza del tratamiento y de mi derecho a revocar este consentimiento.</p>',
          checkbox: { label: required, required: true },
        },
      ],
      signatures: { guardian: true, secondGuardian: true, therapist: true },
      therapistSignature,
    });
    const child = await me.call<{ id: string }>('POST', '/patients', {
      firstName: 'Pablo',
      lastName: 'Gómez Ruiz',
      birthdate: yearsAgo(10),
    });
    const sent = await me.call<Envelope & { links: { role: string; url: string; mailed: boolean }[] }>('POST', '/consents', {
      patientId: child.id,
      templateId: template.id,
      signers: { guardian: { name: 'Lucía Gómez', email: lucia }, secondGuardian: { name: 'Jorge Gómez', email: jorge } },
    });
    envelopeId = sent.id;
    secondLink = sent.links[1]!.url;
    expect(sent.links.map((l) => [l.role, l.mailed])).toEqual([
      ['guardian', true],
      ['secondGuardian', false],
    ]);
    phone = await browser.newContext({
      baseURL: baseUrl,
      locale: 'es-ES',
      timezoneId: 'Europe/Madrid',
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      colorScheme: 'light',
    });
    page = await phone.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the first guardian opens her mailed link: the document, who signs, the boxes, the data asked and the therapist’s signature', async () => {
    firstLink = linkIn(await waitForMail(baseUrl, lucia, (m) => m.text.includes('/consents/sign/')), '/consents/sign');
    await page.goto(firstLink);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByText(/te pide tu firma como tutor\/a$/).waitFor();
    const signers = page.getByTestId('signers');
    expect((await signers.getByRole('listitem').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      'Lucía Gómez (tú) Tutor/a Pendiente',
      'Jorge Gómez Segundo tutor/a Pendiente',
    ]);
    await page.getByRole('article').getByText('Pablo Gómez Ruiz', { exact: true }).waitFor();
    await page.getByRole('img', { name: /^Firma de Inés/ }).waitFor();
    expect(await page.getByRole('checkbox', { name: /Autorizo la grabación de sesiones/ }).getAttribute('aria-required')).toBeNull();
    expect(await page.getByRole('checkbox', { name: new RegExp(required) }).getAttribute('aria-required')).toBe('true');
    expect(await page.getByLabel('Nombre completo').inputValue()).toBe('Lucía Gómez');
    expect(await page.getByLabel('DNI/NIE').inputValue()).toBe('');
    await page.getByTestId('minor-note').waitFor({ state: 'detached' });
    expect((await envelope()).state).toBe('opened');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'consent-sign-01-document-phone');
    await page.setViewportSize({ width: 1280, height: 820 });
    await shot(page, 'consent-sign-01-document-desktop');
    // The narrowest phones: nothing wider than the screen.
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.setViewportSize({ width: 390, height: 844 });
  });

  it('«Firmar» without the required box (and without ID or signature) is stopped at the fields, in Spanish; nothing is sent', async () => {
    await signButton().click();
    const box = page.getByRole('checkbox', { name: new RegExp(required) });
    await page.getByText(`Marca «${required}» para poder firmar.`, { exact: true }).first().waitFor();
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.getByLabel('DNI/NIE').getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('sign-problems').getByText('Revisa estas 3 cosas antes de firmar:').waitFor();
    await page
      .getByTestId('sign-problems')
      .getByText('Dibuja tu firma en el recuadro o, si lo prefieres, escríbela con el teclado.')
      .waitFor();
    await shot(page, 'consent-sign-02-problems-phone');
    expect((await envelope()).signers.find((s) => s.role === 'guardian')!.signedAt).toBeNull();
  });

  it("the second guardian's link, opened before the first has signed, says whose turn it is and offers no way to sign", async () => {
    const early = await phone.newPage();
    await early.goto(secondLink);
    await early.getByRole('heading', { level: 1, name: 'Aún no es tu turno para firmar' }).waitFor();
    await early.getByTestId('not-your-turn').getByText('Antes tiene que firmar Lucía Gómez (tutor/a).').waitFor();
    expect(await early.getByRole('button', { name: 'Firmar', exact: true }).count()).toBe(0);
    await early.getByRole('article', { name: title }).waitFor();
    expect(await seriousA11yViolations(early)).toEqual([]);
    await shot(early, 'consent-sign-02b-not-your-turn-phone');
    await early.close();
    await page.bringToFront();
  });

  it('filled in, signed with a drawn signature: the confirmation says the second guardian still has to sign; a second tab of the link is refused by the server, keeping what was typed', async () => {
    allowConsole({
      text: /status of 409/,
      url: /\/public\/consents\/[A-Za-z0-9_-]+\/sign$/,
      because: 'the second tab signs what is already signed: the server refuses it',
    });
    // The same link in another tab, opened before she signs (a signer who opened the mail twice).
    const other = await phone.newPage();
    await other.goto(firstLink);
    await other.getByRole('heading', { level: 1, name: title }).waitFor();
    // A tab in the background gets no animation frames: Playwright's checks would crawl.
    await page.bringToFront();

    await page.getByRole('checkbox', { name: new RegExp(required) }).check();
    await page.getByText(`Marca «${required}» para poder firmar.`).first().waitFor({ state: 'detached' });
    await page.getByLabel('Nombre completo').fill('Lucía Gómez Ruiz');
    await page.getByLabel('DNI/NIE').fill('12345678Z');
    const pad = page.getByTestId('signature-pad');
    await pad.scrollIntoViewIfNeeded();
    const at = (await pad.boundingBox())!;
    await page.mouse.move(at.x + 30, at.y + 100);
    await page.mouse.down();
    for (const [dx, dy] of [
      [60, 50],
      [110, 110],
      [170, 40],
      [240, 120],
      [320, 70],
    ] as const)
      await page.mouse.move(at.x + dx, at.y + dy, { steps: 6 });
    await page.mouse.up();
    await page.getByText('Firma dibujada.').waitFor();
    await signButton().click();

    await page.getByRole('heading', { level: 1, name: 'Tu firma está registrada' }).waitFor();
    await page
      .getByText(
        'Falta que firme Jorge Gómez (segundo tutor/a). Cuando hayan firmado todas las personas, te enviaremos por email una copia del documento firmado.',
      )
      .waitFor();
    await shot(page, 'consent-sign-03-signed-phone');
    const signed = await envelope();
    expect(signed.state).toBe('opened');
    expect(signed.signers.find((s) => s.role === 'guardian')!.signedAt).not.toBeNull();

    // The other tab still shows the form: the server refuses, and what was typed stays.
    await other.bringToFront();
    await other.getByRole('checkbox', { name: new RegExp(required) }).check();
    await other.getByLabel('DNI/NIE').fill('12345678Z');
    await other.getByRole('radio', { name: 'Escribir' }).click();
    await other.getByLabel('Escribe tu nombre como firma').fill('Lucía Gómez');
    await other.getByRole('button', { name: 'Firmar', exact: true }).click();
    const refusal = other.getByTestId('sign-problems');
    await refusal.getByText('Este consentimiento ya está firmado y no se puede volver a firmar.').waitFor();
    expect(await other.getByLabel('DNI/NIE').inputValue()).toBe('12345678Z');
    expect(await other.getByLabel('Escribe tu nombre como firma').inputValue()).toBe('Lucía Gómez');
    await refusal.getByRole('button', { name: 'Cargar de nuevo el documento' }).click();
    await other.getByRole('heading', { level: 1, name: /^Ya firmaste este documento el / }).waitFor();
    await other.close();
    await page.bringToFront();
  });

  it('reopening the link: «Ya firmaste este documento el DD/MM/YYYY a las HH:mm», and no way to sign again', async () => {
    await page.goto(firstLink);
    const when = madrid((await envelope()).signers.find((s) => s.role === 'guardian')!.signedAt!);
    await page
      .getByRole('heading', { level: 1, name: `Ya firmaste este documento el ${when.day} a las ${when.time}`, exact: true })
      .waitFor();
    await page.getByText(/^Falta que firme Jorge Gómez/).waitFor();
    expect(await signButton().count()).toBe(0);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    await shot(page, 'consent-sign-04-already-signed-phone');
  });

  it('the second guardian, mailed only now, signs with the keyboard alone and a typed name; the envelope is signed and its PDF is sealed', async () => {
    const mail = await waitForMail(baseUrl, jorge, (m) => m.text.includes('/consents/sign/'));
    await page.goto(linkIn(mail, '/consents/sign'));
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect((await page.getByTestId('signers').getByRole('listitem').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      'Jorge Gómez (tú) Segundo tutor/a Pendiente',
      'Lucía Gómez Tutor/a Firmado',
    ]);

    const box = page.getByRole('checkbox', { name: new RegExp(required) });
    await tabTo(page, box);
    await page.keyboard.press('Space');
    expect(await box.isChecked()).toBe(true);
    await tabTo(page, page.getByLabel('Nombre completo'));
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Jorge Gómez Martín');
    await tabTo(page, page.getByLabel('DNI/NIE'));
    await page.keyboard.type('X1234567L');
    await tabTo(page, page.getByRole('radio', { name: 'Dibujar' }));
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('radio', { name: 'Escribir' }).getAttribute('aria-checked')).toBe('true');
    await tabTo(page, page.getByLabel('Escribe tu nombre como firma'));
    await page.keyboard.type('Jorge Gómez Martín');
    await tabTo(page, signButton());
    await shot(page, 'consent-sign-05-typed-phone');
    await page.keyboard.press('Enter');

    await page.getByRole('heading', { level: 1, name: 'Documento firmado' }).waitFor();
    await page.getByText('Te hemos enviado por email una copia del documento firmado.').waitFor();
    await shot(page, 'consent-sign-06-completed-phone');

    // The copies are mailed once the PDF is sealed, right after the last signature.
    expect((await waitForMail(baseUrl, jorge, (m) => m.subject.startsWith('Documento firmado'))).subject).toBe(
      `Documento firmado: «${title}»`,
    );
    const done = await envelope();
    expect(done.state).toBe('signed');
    expect(done.documentId).not.toBeNull();
    const res = await me.api.in(me.workspaceId).get(`/consents/${envelopeId}/pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/pdf');
    const pdf = res.bytes;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const report = poppler('pdfsig', pdf);
    if (report !== null) {
      expect(report).toContain('Signature Validation: Signature is Valid.');
      expect(report).toContain('Total document signed');
    }
    // pdfkit may break long words with zero-width spaces.
    const text = poppler('pdftotext', pdf)
      ?.replace(/\u200b/g, '')
      .replace(/\s+/g, ' ');
    if (text != null) {
      expect(text).toContain('Lucía Gómez Ruiz');
      expect(text).toContain('Jorge Gómez Martín');
      expect(text).toContain('(Firma escrita con el teclado)');
      // The last page holds the evidence trail: each step with its time, IP and the document's SHA-256.
      expect(text).toContain('Registro de evidencias');
      expect(text).toMatch(/Abierto · Tutor\/a \(Lucía Gómez/);
      expect(text).toMatch(/Firmado · Segundo tutor\/a \(Jorge Gómez Martín\)/);
      expect(text).toMatch(/IP [0-9a-f.:]+ · Navegador: .*SHA-256 [0-9a-f]{64}/);
    }
  });

  it('an unknown link says so in Spanish', async () => {
    await page.goto(`/consents/sign/${'A'.repeat(43)}`);
    allowConsole({ text: /status of 404/, url: /\/public\/consents\/A{43}$/, because: 'a link that does not exist' });
    await page.getByRole('heading', { level: 1, name: 'No se puede abrir este enlace' }).waitFor();
    await page.getByText('Este enlace de firma no es válido o ha caducado. Pide uno nuevo a tu terapeuta.').waitFor();
  });
});
