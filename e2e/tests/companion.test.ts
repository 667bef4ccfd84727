import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { allowConsole, launchBrowser, scriptKilobytes, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { signUpAndIn, type SignedIn } from '../support/accounts';
import { site } from '../support/api';
import { codeIn, linkIn, mailsTo, waitForMail } from '../support/mail';

const baseUrl = inject('baseUrl');
/** The therapist's open conversation (the list beside it previews the same text). */
const thread = (me: SignedIn) => me.page.getByRole('log', { name: 'Mensajes' });

/**
 * The patient's companion (issue 15), in Chromium with two people at once: a therapist invites a
 * patient to connect (API), the patient opens the mailed link on a phone, gets a code by mail and
 * connects; then they write to each other live both ways — the therapist's «Chats» badge and the
 * patient's file card counting the other's unread messages, «Escribiendo…» — and the companion's first
 * screen stays within 100 KB of gzipped JavaScript.
 */
describe.skipIf(!hasChromium || !baseUrl)('patient companion', () => {
  let browser: Browser;
  let me: SignedIn;
  let phone: BrowserContext;
  let patient: Page;
  let patientId: string;
  let link: string;
  let workspaceName: string;
  const email = `marta-${Date.now()}@example.com`;

  beforeAll(async () => {
    browser = await launchBrowser();
    me = await signUpAndIn(browser, baseUrl, 'Lucía');
    workspaceName = (await me.call<{ name: string }>('GET', '')).name;
    patientId = (await me.call<{ id: string }>('POST', '/patients', { firstName: 'Marta', lastName: 'Gil', email })).id;
    phone = await browser.newContext({
      baseURL: baseUrl,
      locale: 'es-ES',
      timezoneId: 'Europe/Madrid',
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 1,
      colorScheme: 'light',
      hasTouch: true,
      isMobile: true,
    });
    patient = await phone.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('connects from the mailed link with a mailed code', async () => {
    await me.call('POST', `/patients/${patientId}/connect`, { email });
    const invite = await waitForMail(baseUrl, email, (m) => m.text.includes('/p/connect/'));
    link = linkIn(invite, '/p/connect');

    await patient.goto(link);
    await patient.getByRole('heading', { name: 'Conecta con tu terapeuta' }).waitFor();
    expect(await patient.getByTestId('invitation-email').textContent()).toMatch(/^m•+@example\.com$/);
    await shot(patient, 'companion-01-connect-phone');
    expect(JSON.stringify(await seriousA11yViolations(patient), null, 1)).toBe('[]');
    await patient.getByRole('button', { name: 'Enviarme un código' }).click();
    await patient.getByRole('heading', { name: 'Escribe el código' }).waitFor();
    const mail = await waitForMail(baseUrl, email, (m) => m.subject === 'Tu código de acceso a Diván');

    // A wrong code is refused at the input; the right one connects and signs in.
    const wrong = codeIn(mail) === '000000' ? '111111' : '000000';
    allowConsole(
      { text: /status of 400/, url: /\/public\/patient-connect\/[\w-]+$/, because: 'a wrong code is refused' },
      { text: /status of 404/, url: /\/public\/patient-connect\/[\w-]+$/, because: 'the used link is opened again' },
    );
    await patient.getByRole('textbox', { name: 'Código' }).fill(wrong);
    await patient.getByRole('button', { name: 'Conectar' }).click();
    await patient.getByText(/El código no es correcto/).waitFor();
    await patient.getByRole('textbox', { name: 'Código' }).fill(codeIn(mail));
    await patient.getByRole('button', { name: 'Conectar' }).click();
    await patient.waitForURL(new RegExp(`/p/${patientId}$`));
    await patient.getByRole('heading', { name: workspaceName }).waitFor();

    // The link is used: opening it again says so.
    const again = await phone.newPage();
    await again.goto(link);
    await again.getByRole('heading', { name: 'Este enlace ya no sirve' }).waitFor();
    await again.close();
  });

  it('chats live both ways, with unread counters on each side', async () => {
    // The patient writes; the therapist's «Chats» badge counts it, live.
    await me.page.goto('/');
    await me.page.getByRole('heading').first().waitFor();
    const composer = patient.getByRole('textbox', { name: 'Mensaje' });
    await composer.fill('Hola, Lucía. ¿Podemos cambiar la sesión del jueves?');
    await composer.press('Enter');
    await patient.getByTestId('chat-message').filter({ hasText: '¿Podemos cambiar la sesión del jueves?' }).waitFor();
    await expect.poll(() => me.page.getByTestId('chats-badge').first().textContent(), { timeout: 10_000 }).toBe('1');

    // The therapist opens the conversation (read: the badge goes), types and answers.
    await me.page.goto(`/chats/${patientId}`);
    await thread(me).getByText('¿Podemos cambiar la sesión del jueves?').waitFor();
    await expect.poll(() => me.page.getByTestId('chats-badge').count(), { timeout: 10_000 }).toBe(0);
    const reply = me.page.getByPlaceholder('Escribe un mensaje…');
    await reply.pressSequentially('Claro', { delay: 30 });
    await patient.getByTestId('chat-typing').waitFor({ timeout: 10_000 });
    await shot(patient, 'companion-02-chat-typing-phone');
    await reply.fill('Claro, Marta. ¿Te va bien el viernes a las 10:00?');
    await reply.press('Enter');
    await patient.getByTestId('chat-message').filter({ hasText: '¿Te va bien el viernes a las 10:00?' }).waitFor();

    // On the list of files, a message from the therapist counts as unread until the file is opened.
    await patient.goto('/p/');
    const card = patient.getByTestId('file-card');
    await card.waitFor();
    expect(await card.getByTestId('file-unread').count()).toBe(0);
    await me.page.getByPlaceholder('Escribe un mensaje…').fill('Te envío también el documento del que hablamos.');
    await me.page.getByPlaceholder('Escribe un mensaje…').press('Enter');
    await expect.poll(() => card.getByTestId('file-unread').textContent(), { timeout: 10_000 }).toMatch(/^1/);
    await shot(patient, 'companion-03-files-unread-phone');
    await card.click();
    await patient.getByTestId('chat-message').filter({ hasText: 'Te envío también el documento' }).waitFor();
    await shot(patient, 'companion-04-chat-phone');
    expect(JSON.stringify(await seriousA11yViolations(patient), null, 1)).toBe('[]');
    await patient.goto('/p/');
    await card.waitFor();
    await expect.poll(() => card.getByTestId('file-unread').count(), { timeout: 10_000 }).toBe(0);

    // The patient's answer reaches the therapist's open conversation live.
    await card.click();
    await patient.getByRole('textbox', { name: 'Mensaje' }).fill('Perfecto, el viernes a las 10:00. ¡Gracias!');
    await patient.getByRole('button', { name: 'Enviar' }).click();
    await thread(me).getByText('Perfecto, el viernes a las 10:00. ¡Gracias!').waitFor({ timeout: 10_000 });
  });

  it('opens a document the therapist sends in the chat (shared with the patient by sending it)', async () => {
    const form = new FormData();
    form.append('file', new Blob(['Respira en cuatro tiempos.\n'], { type: 'text/plain' }), 'pautas-respiracion.txt');
    const res = await me.api.in(me.workspaceId).post<{ id: string }>(`/patients/${patientId}/documents`, undefined, { form });
    expect(res.status, res.text).toBe(201);
    const documentId = res.body.id;
    await me.call('POST', `/chats/${patientId}/messages`, { body: 'pautas-respiracion.txt', attachmentDocumentId: documentId });

    const bubble = patient
      .getByTestId('chat-message')
      .filter({ has: patient.getByRole('button', { name: 'Descargar pautas-respiracion.txt' }) });
    await bubble.waitFor({ timeout: 10_000 });
    // A file sent alone: its name once, as the attachment, not repeated as the text.
    expect((await bubble.textContent())?.split('pautas-respiracion.txt').length).toBe(2);
    const [download] = await Promise.all([
      patient.waitForEvent('download'),
      bubble.getByRole('button', { name: 'Descargar pautas-respiracion.txt' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('pautas-respiracion.txt');
    const { readFile } = await import('node:fs/promises');
    expect(await readFile((await download.path())!, 'utf8')).toBe('Respira en cuatro tiempos.\n');
    await shot(patient, 'companion-04b-chat-attachment-phone');
  });

  it('sends a file of their own: refused types said at once, then uploaded with the message and seen by the therapist', async () => {
    const picker = patient.locator('input[type="file"]');
    await picker.setInputFiles({ name: 'programa.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
    await patient.getByText(/^Tipo de archivo no válido/).waitFor();
    await picker.setInputFiles({ name: 'informe-colegio.txt', mimeType: 'text/plain', buffer: Buffer.from('Informe del colegio.\n') });
    const chosen = patient.getByTestId('chat-attachment-chosen');
    await chosen.getByText('informe-colegio.txt').waitFor();
    await shot(patient, 'companion-04c-chat-attach-phone');
    expect(JSON.stringify(await seriousA11yViolations(patient), null, 1)).toBe('[]');
    await patient.getByRole('textbox', { name: 'Mensaje' }).fill('Te mando el informe del colegio');
    await patient.getByRole('button', { name: 'Enviar' }).click();
    await chosen.waitFor({ state: 'detached' });
    await patient
      .getByTestId('chat-message')
      .filter({ hasText: 'Te mando el informe del colegio' })
      .getByRole('button', { name: 'Descargar informe-colegio.txt' })
      .waitFor();

    // The therapist's open conversation shows it with its file; the file is among the patient's documents.
    await thread(me).getByText('Te mando el informe del colegio').waitFor({ timeout: 10_000 });
    const docs = await me.call<{ name: string; shared: boolean }[]>('GET', `/patients/${patientId}/documents`);
    expect(docs.find((d) => d.name === 'informe-colegio.txt')).toMatchObject({ shared: true });
  });

  it('looks right on a desktop too, and signs out and in with a mailed code', async () => {
    const desk = await browser.newContext({
      baseURL: baseUrl,
      locale: 'es-ES',
      timezoneId: 'Europe/Madrid',
      viewport: { width: 1280, height: 820 },
      colorScheme: 'light',
    });
    const page = await desk.newPage();
    await page.goto('/p/');
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    await shot(page, 'companion-05-sign-in-desktop');
    const mails = await mailsTo(baseUrl, email);
    const seen = new Set(mails.map((m) => m.id));
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Enviarme un código' }).click();
    await page.getByRole('heading', { name: 'Escribe el código' }).waitFor();
    const mail = await waitForMail(baseUrl, email, (m) => m.subject === 'Tu código de acceso a Diván' && !seen.has(m.id));
    await page.getByRole('textbox', { name: 'Código' }).fill(codeIn(mail));
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByRole('heading', { name: 'Hola, Marta' }).waitFor();
    await shot(page, 'companion-06-files-desktop');
    await page.getByTestId('file-card').click();
    await page.getByTestId('chat-message').first().waitFor();
    await shot(page, 'companion-07-chat-desktop');
    await page.getByRole('button', { name: 'Salir' }).click();
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    await desk.close();
  });

  it('is installable: a web app manifest, icons, and a service worker that opens the shell offline', async () => {
    const manifest = JSON.parse((await site.get('/companion.webmanifest')).text) as {
      name: string;
      start_url: string;
      display: string;
      icons: { src: string; sizes: string }[];
    };
    expect(manifest).toMatchObject({ name: 'Diván', start_url: '/p/', display: 'standalone' });
    for (const icon of manifest.icons) {
      const res = await site.get(icon.src);
      expect([icon.src, res.status, res.headers.get('content-type')]).toEqual([icon.src, 200, 'image/png']);
    }
    const ctx = await browser.newContext({ baseURL: baseUrl, locale: 'es-ES', viewport: { width: 390, height: 844 } });
    const page = await ctx.newPage();
    await page.goto('/p/');
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).scope)).toBe(`${baseUrl}/p/`);
    // Offline, the installed app still opens (its shell and code from the cache); the API is never cached.
    await page.reload();
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    await ctx.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    expect(
      await page.evaluate(
        async () =>
          (await caches.keys()).length > 0 &&
          (await Promise.all((await caches.keys()).map(async (k) => (await (await caches.open(k)).keys()).map((r) => r.url))))
            .flat()
            .some((u) => u.includes('/api/')),
      ),
    ).toBe(false);
    await ctx.close();
  });

  it("loads within 100 KB of gzipped JavaScript on its first screen and the connect link's", async () => {
    const measure = async (path: string) => {
      const fresh = await (await browser.newContext({ baseURL: baseUrl, serviceWorkers: 'block' })).newPage();
      const kb = await scriptKilobytes(fresh, path);
      await fresh.context().close();
      return kb;
    };
    const home = await measure('/p/');
    allowConsole(
      { type: 'warning', text: /^Service Worker registration blocked by Playwright$/, because: 'measured without the service worker' },
      { text: /status of 404/, url: /\/public\/patient-connect\/enlace-de-prueba-que-no-existe$/, because: 'a link that does not exist' },
    );
    const connect = await measure('/p/connect/enlace-de-prueba-que-no-existe');
    console.log(`gzipped JS loaded: companion /p/ ${home.toFixed(1)} KB, connect link ${connect.toFixed(1)} KB`);
    expect(home).toBeLessThanOrEqual(100);
    expect(connect).toBeLessThanOrEqual(100);
  });
});
