import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { allowConsole, launchBrowser, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { signUpAndIn, type SignedIn } from '../support/accounts';
import { madridDmy, madridIsoDay } from '../support/days';
import { ok, publicApi } from '../support/api';
import { codeIn, linkIn, mailsTo, waitForMail } from '../support/mail';

const baseUrl = inject('baseUrl');
const every = (from: string, to: string) => Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((d) => [d, [{ from, to }]]));

/**
 * The companion's «Sesiones» and «Documentos» (issue 15), on a phone: a patient connected once, with a
 * session they booked on the therapist's public service (which they may move and cancel from here), one
 * the therapist booked (read only) and a past one; the documents the therapist shared (and not the one
 * kept private), downloaded with the patient's token.
 */
describe.skipIf(!hasChromium || !baseUrl)('patient companion: sessions and documents', () => {
  let browser: Browser;
  let me: SignedIn;
  let phone: BrowserContext;
  let patient: Page;
  let patientId: string;
  let bookedAt: string;
  const email = `pablo-${Date.now()}@example.com`;

  beforeAll(async () => {
    browser = await launchBrowser();
    me = await signUpAndIn(browser, baseUrl, 'Lucía');
    patientId = (await me.call<{ id: string }>('POST', '/patients', { firstName: 'Pablo', lastName: 'Ruiz', email })).id;

    // A session the patient booked on the public page of an online service (a slot two days or more ahead).
    const serviceId = (
      await me.call<{ id: string }>('POST', '/booking-services', {
        title: 'Sesión de seguimiento',
        schedule: every('09:00', '13:00'),
        priceCents: 0,
        modality: 'online',
        durationMinutes: 50,
        gapMinutes: 10,
        minNotice: { amount: 1, unit: 'hours' },
        maxNotice: { amount: 2, unit: 'months' },
      })
    ).id;
    const svc = `/public/reservations/${me.workspaceId}/${me.userId}/${serviceId}`;
    const from = madridIsoDay(2);
    const months = [madridIsoDay(0).slice(0, 7), from.slice(0, 7)];
    const slots: { day: string; startsAt: string }[] = [];
    for (const month of new Set(months)) {
      const answer = await ok(publicApi.get<{ days: { day: string; slots: { startsAt: string }[] }[] }>(`${svc}/slots?month=${month}`));
      for (const d of answer.days) for (const s of d.slots) slots.push({ day: d.day, startsAt: s.startsAt });
    }
    bookedAt = slots.find((s) => s.day >= from)!.startsAt;
    const hold = await ok(
      publicApi.post<{ holdId: string }>(`${svc}/holds`, {
        startsAt: bookedAt,
        firstName: 'Pablo',
        lastName: 'Ruiz',
        email,
        phone: '+34600111222',
        privacyAccepted: true,
      }),
    );
    const code = codeIn(await waitForMail(baseUrl, email, (m) => /código/i.test(m.subject) || /código/i.test(m.text)));
    await ok(publicApi.post(`/public/booking-holds/${hold.holdId}/confirm`, { code }));

    // One the therapist booked ahead, and eleven already held (a page of ten, then «Ver más»).
    await me.call('POST', '/sessions', { patientId, day: madridIsoDay(4), from: '17:00', to: '17:50' });
    for (let i = 6; i <= 16; i++) await me.call('POST', '/sessions', { patientId, day: madridIsoDay(-i), from: '10:00', to: '10:50' });

    // Two documents: one shared with the patient, one kept private.
    const upload = async (name: string, text: string) => {
      const form = new FormData();
      form.append('file', new Blob([text], { type: 'text/plain' }), name);
      const res = await me.api.in(me.workspaceId).post<{ id: string }>(`/patients/${patientId}/documents`, undefined, { form });
      expect(res.status, res.text).toBe(201);
      return res.body.id;
    };
    const shared = await upload('pautas-respiracion.txt', 'Respira en cuatro tiempos.\n');
    await upload('notas-privadas.txt', 'Solo para la terapeuta.\n');
    await me.call('PUT', `/patients/${patientId}/documents/${shared}/sharing`, { shared: true });

    // The patient connects from the mailed invitation, once, on a phone.
    await me.call('POST', `/patients/${patientId}/connect`, { email });
    const invite = await waitForMail(baseUrl, email, (m) => m.text.includes('/p/connect/'));
    phone = await browser.newContext({
      baseURL: baseUrl,
      locale: 'es-ES',
      timezoneId: 'Europe/Madrid',
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 1,
      colorScheme: 'light',
      hasTouch: true,
      isMobile: true,
      acceptDownloads: true,
    });
    patient = await phone.newPage();
    const seen = new Set((await mailsTo(baseUrl, email)).map((m) => m.id));
    await patient.goto(linkIn(invite, '/p/connect'));
    await patient.getByRole('button', { name: 'Enviarme un código' }).click();
    const mail = await waitForMail(baseUrl, email, (m) => m.subject === 'Tu código de acceso a Diván' && !seen.has(m.id));
    await patient.getByRole('textbox', { name: 'Código' }).fill(codeIn(mail));
    await patient.getByRole('button', { name: 'Conectar' }).click();
    await patient.waitForURL(new RegExp(`/p/${patientId}$`));
  });
  afterAll(async () => {
    await browser?.close();
  });

  const upcoming = () => patient.getByTestId('sessions-upcoming').getByTestId('session-card');

  it('lists upcoming sessions soonest first and past ones, with the video room and what may be changed', async () => {
    await patient.getByRole('navigation', { name: 'Secciones' }).getByRole('link', { name: 'Sesiones' }).click();
    await patient.waitForURL(new RegExp(`/p/${patientId}/sesiones$`));
    await expect.poll(() => upcoming().count()).toBe(2);
    const [booked, byTherapist] = [upcoming().nth(0), upcoming().nth(1)];
    const day = (iso: string) =>
      new Intl.DateTimeFormat('es-ES', { timeZone: 'Europe/Madrid', day: '2-digit', month: '2-digit', year: 'numeric' }).format(
        new Date(iso),
      );
    expect(await booked.textContent()).toContain(day(bookedAt));
    expect(await booked.textContent()).toContain('50 min');
    expect(await booked.textContent()).toContain('Online (videollamada)');
    expect(await booked.getByRole('link', { name: 'Entrar a la videollamada' }).getAttribute('href')).toMatch(/\/meet\//);
    await booked.getByRole('button', { name: /^Cambiar hora/ }).waitFor();
    await booked.getByRole('button', { name: /^Cancelar/ }).waitFor();
    const [y, m, d] = madridIsoDay(4).split('-');
    expect(await byTherapist.textContent()).toContain(`${d}/${m}/${y}`);
    expect(await byTherapist.textContent()).toContain('17:00 – 17:50');
    expect(await byTherapist.getByRole('button').count()).toBe(0);
    await byTherapist.getByRole('link', { name: 'escribe a tu terapeuta' }).waitFor();
    // Past ones latest first, ten at a time.
    const past = patient.getByTestId('sessions-past').getByTestId('session-card');
    await expect.poll(() => past.count()).toBe(10);
    expect(await past.first().textContent()).toContain(madridDmy(-6));
    await shot(patient, 'companion-sections-01-sessions-phone');
    expect(JSON.stringify(await seriousA11yViolations(patient), null, 1)).toBe('[]');
    await patient.getByTestId('sessions-past').getByRole('button', { name: 'Ver más' }).click();
    await expect.poll(() => past.count()).toBe(11);
    expect(await past.last().textContent()).toContain(madridDmy(-16));
    expect(await patient.getByRole('button', { name: 'Ver más' }).count()).toBe(0);
  });

  it('moves the booked session to another free hour, and the list shows it', async () => {
    // Opened and left without a change: the focus is back on the button.
    await upcoming()
      .nth(0)
      .getByRole('button', { name: /^Cambiar hora/ })
      .click();
    await patient.getByRole('heading', { name: 'Elige día y hora' }).waitFor();
    await patient.getByRole('button', { name: 'Mantener la hora actual' }).click();
    await expect
      .poll(() => patient.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toMatch(/^Cambiar hora de la sesión del/);

    await patient.keyboard.press('Enter');
    await patient.getByRole('heading', { name: 'Elige día y hora' }).waitFor();
    const slot = patient.getByTestId('slots').getByRole('button').first();
    await slot.waitFor();
    await shot(patient, 'companion-sections-02-move-picker-phone');
    expect(JSON.stringify(await seriousA11yViolations(patient), null, 1)).toBe('[]');
    await slot.click();
    await patient.getByRole('heading', { name: '¿Cambiamos tu sesión?' }).waitFor();
    const to = (await patient.getByTestId('move-to').textContent())!;
    await shot(patient, 'companion-sections-03-move-confirm-phone');
    await patient.getByRole('button', { name: 'Confirmar el cambio' }).click();
    const notice = patient.getByTestId('sessions-notice');
    await notice.waitFor();
    const [, dayLabel, time] = /^(.+) a las (\d\d:\d\d)/.exec(to)!;
    expect(await notice.textContent()).toBe(`Hecho: tu sesión ahora es el ${dayLabel} a las ${time}.`);
    // The list is read again: the moved session at its new day and hour.
    const ddmmyyyy = dayLabel!.split(' ').pop()!;
    await expect
      .poll(async () => (await upcoming().allTextContents()).some((t) => t.includes(ddmmyyyy) && t.includes(`${time} –`)))
      .toBe(true);
  });

  it('cancels it after a confirmation dialog that keeps the keyboard inside and gives the focus back', async () => {
    const cancel = upcoming().getByRole('button', { name: /^Cancelar la sesión/ });
    await expect.poll(() => cancel.count()).toBe(1);
    await cancel.click();
    const dialog = patient.getByRole('dialog', { name: '¿Cancelar esta sesión?' });
    await dialog.waitFor();
    // It opens on the safe answer; Escape closes it and the focus is back on «Cancelar».
    expect(await patient.evaluate(() => document.activeElement?.textContent)).toBe('No, mantenerla');
    await shot(patient, 'companion-sections-04-cancel-dialog-phone');
    expect(JSON.stringify(await seriousA11yViolations(patient), null, 1)).toBe('[]');
    await patient.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await patient.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/^Cancelar la sesión/);

    await patient.keyboard.press('Enter');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Sí, cancelar la sesión' }).click();
    const notice = patient.getByTestId('sessions-notice');
    await expect.poll(() => notice.textContent()).toMatch(/^Sesión del .+ cancelada\.$/);
    await expect.poll(() => cancel.count()).toBe(0);
    await shot(patient, 'companion-sections-05-canceled-phone');
  });

  it('lists the shared documents only, and downloads one with the patient’s session', async () => {
    // The list's read failing first (the network drops it): the section says so and offers «Reintentar».
    const list = `**/api/v1/patient/files/${patientId}/documents`;
    await patient.route(list, (route) => route.abort('internetdisconnected'));
    allowConsole({ text: /net::ERR_INTERNET_DISCONNECTED/, url: /\/documents$/, because: 'the test drops the documents read' });
    await patient.getByRole('navigation', { name: 'Secciones' }).getByRole('link', { name: 'Documentos' }).click();
    await patient.waitForURL(new RegExp(`/p/${patientId}/documentos$`));
    const failed = patient.getByTestId('error-state');
    await failed.getByRole('heading', { name: 'No se han podido cargar los documentos' }).waitFor();
    await shot(patient, 'companion-sections-06-documents-offline-phone');
    await patient.unroute(list);
    await failed.getByRole('button', { name: 'Reintentar' }).click();
    const rows = patient.getByTestId('document-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('pautas-respiracion.txt');
    expect(await patient.getByText('notas-privadas.txt').count()).toBe(0);
    await shot(patient, 'companion-sections-07-documents-phone');
    expect(JSON.stringify(await seriousA11yViolations(patient), null, 1)).toBe('[]');
    const [download] = await Promise.all([
      patient.waitForEvent('download'),
      rows.first().getByRole('button', { name: 'Descargar pautas-respiracion.txt' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('pautas-respiracion.txt');
    expect(readFileSync((await download.path())!, 'utf8')).toBe('Respira en cuatro tiempos.\n');
  });
});
