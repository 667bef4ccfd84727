import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, seriousA11yViolations, shot } from '../support/browser';
import { hasChromium } from '../support/env';
import { apiAs, signUp } from '../support/api';
import { linkIn, waitForMail } from '../support/mail';

const baseUrl = inject('baseUrl');
const email = `videollamada.${Date.now()}@example.com`;
/** Debian Chromium's fake camera (a moving test pattern) and microphone (a beep), allowed without asking. */
const FAKE_MEDIA = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'];

/** Today's day and hours in Madrid that put the patient's window (30 min before to 2 h after) around now. */
function aroundNow() {
  const at = (d: Date) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Madrid',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(d)
        .map((p) => [p.type, p.value]),
    );
    return { day: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
  };
  const now = new Date();
  const start = at(now).time >= '01:00' ? new Date(now.getTime() - 60 * 60_000) : new Date(now.getTime() + 60_000);
  const { day, time } = at(start);
  const [h, m] = time.split(':').map(Number) as [number, number];
  const end = h * 60 + m + 50;
  return { day, from: time, to: `${String(Math.floor(end / 60)).padStart(2, '0')}:${String(end % 60).padStart(2, '0')}` };
}

/** Every RTCPeerConnection the page makes, kept where the test can read its state and stats. */
const recordPeerConnections = () => {
  const Native = window.RTCPeerConnection;
  const all: RTCPeerConnection[] = [];
  (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs = all;
  window.RTCPeerConnection = class extends Native {
    constructor(config?: RTCConfiguration) {
      super(config);
      all.push(this);
    }
  } as typeof RTCPeerConnection;
};

/** The page's newest call is connected and decodes the other side's video. */
async function receivesVideo(page: Page) {
  await page.waitForFunction(
    () => (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.at(-1)?.connectionState === 'connected',
    undefined,
    { timeout: 30_000 },
  );
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const pc = (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.at(-1)!;
          let frames = 0;
          (await pc.getStats()).forEach((s: { type: string; kind?: string; framesDecoded?: number }) => {
            if (s.type === 'inbound-rtp' && s.kind === 'video') frames += s.framesDecoded ?? 0;
          });
          return frames;
        }),
      { timeout: 30_000, interval: 250 },
    )
    .toBeGreaterThan(0);
}

describe.skipIf(!hasChromium || !baseUrl)('the video room: a therapist and a patient on fake devices', () => {
  let browser: Browser;
  let therapistCtx: BrowserContext;
  let patientCtx: BrowserContext;
  let therapist: Page;
  let patient: Page;
  let sessionId = '';
  let patientLink = '';

  beforeAll(async () => {
    browser = await launchBrowser(FAKE_MEDIA);
    therapistCtx = await newContext(browser, baseUrl);
    // The patient on a phone, signed out.
    patientCtx = await newContext(browser, baseUrl, { mobile: true });
    for (const ctx of [therapistCtx, patientCtx]) await ctx.addInitScript(recordPeerConnections);
    therapist = await therapistCtx.newPage();
    patient = await patientCtx.newPage();

    await signUp('Marta', email);
    const mail = await waitForMail(baseUrl, email, (m) => m.text.includes('/verify-email/'));
    await therapist.goto(linkIn(mail, '/verify-email'));
    await therapist.waitForURL(`${baseUrl}/`);
    await therapist.waitForFunction(
      () => !!(JSON.parse(localStorage.getItem('workspaces') ?? '{}') as { state?: { currentId?: string } }).state?.currentId,
    );
    const { accessToken, workspaceId } = await therapist.evaluate(() => ({
      accessToken: (JSON.parse(localStorage.getItem('auth') ?? '{}') as { state?: { accessToken?: string } }).state?.accessToken ?? '',
      workspaceId: (JSON.parse(localStorage.getItem('workspaces') ?? '{}') as { state?: { currentId?: string } }).state?.currentId ?? '',
    }));
    const api = apiAs(accessToken).in(workspaceId);
    const created = await api.post<{ id: string }>('/patients', { firstName: 'Lucía', lastName: 'Ferrer' });
    expect(created.status).toBe(201);
    const patientId = created.body.id;
    const session = await api.post<{ session: { id: string } }>('/sessions', { patientId, modality: 'online', ...aroundNow() });
    expect(session.status).toBe(201);
    sessionId = session.body.session.id;
    const join = await api.post<{ patientLink: string }>(`/sessions/${sessionId}/meet`, {});
    expect(join.status).toBe(200);
    patientLink = join.body.patientLink;
    expect(patientLink).toMatch(new RegExp(`^${baseUrl}/meet/${sessionId}\\?t=[\\w-]+$`));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the patient waits until admitted, then both are connected and decode each other’s video', async () => {
    await therapist.goto(`/meet/${sessionId}`);
    await therapist.getByRole('heading', { name: 'Videollamada con Lucía Ferrer' }).waitFor();
    await therapist.getByRole('combobox', { name: 'Cámara', exact: true }).waitFor();
    expect(await seriousA11yViolations(therapist)).toEqual([]);
    await shot(therapist, 'meet-01-lobby-desktop');
    await therapist.getByRole('button', { name: 'Entrar en la sala' }).click();
    await therapist.getByText('Lucía Ferrer aún no ha entrado.').waitFor();

    await patient.goto(patientLink);
    await patient.getByRole('heading', { name: 'Videollamada con Marta' }).waitFor();
    await patient.getByText('Marta te dará paso en cuanto entres.', { exact: false }).waitFor();
    await shot(patient, 'meet-02-lobby-phone');
    await patient.getByRole('button', { name: 'Entrar en la sala' }).click();
    await patient.getByText('Estás en la sala de espera. Marta te dará paso enseguida.').waitFor();
    await shot(patient, 'meet-03-waiting-room-phone');

    const banner = therapist.getByRole('status').filter({ hasText: 'Lucía Ferrer espera para entrar' });
    await banner.waitFor();
    await shot(therapist, 'meet-04-admit-desktop');
    // The keyboard admits: the button has the focus when the banner appears.
    await expect.poll(() => therapist.evaluate(() => document.activeElement?.textContent)).toBe('Admitir');
    await therapist.keyboard.press('Enter');

    await receivesVideo(therapist);
    await receivesVideo(patient);
    await therapist.getByText('En llamada').waitFor();
    expect(await seriousA11yViolations(therapist)).toEqual([]);
    await shot(therapist, 'meet-05-call-desktop');
    await shot(patient, 'meet-06-call-phone');
  });

  it('a third one with the same link is refused in Spanish', async () => {
    const ctx = await newContext(browser, baseUrl, { mobile: true });
    const third = await ctx.newPage();
    await third.goto(patientLink);
    await third.getByRole('button', { name: 'Entrar en la sala' }).click();
    await third.getByRole('heading', { name: 'La sala está completa' }).waitFor();
    await third.getByText('La sala ya está completa: en esta videollamada solo pueden estar dos personas.').waitFor();
    await ctx.close();
  });

  it('after the patient’s connection drops, the call comes back by itself', async () => {
    const calls = await therapist.evaluate(() => (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.length);
    // The browser says the network is back: the page drops its socket and joins again, as after a real drop.
    await patient.evaluate(() => window.dispatchEvent(new Event('online')));
    await therapist.waitForFunction((n) => (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.length > n, calls);
    await receivesVideo(therapist);
    await receivesVideo(patient);
  });

  it('camera and microphone toggles say their state; «Salir» leaves, and the therapist sees it', async () => {
    const mic = patient.getByRole('button', { name: 'Micrófono', exact: true });
    await mic.click();
    expect(await mic.getAttribute('aria-pressed')).toBe('false');
    const cam = patient.getByRole('button', { name: 'Cámara', exact: true });
    await cam.click();
    expect(await cam.getAttribute('aria-pressed')).toBe('false');
    await patient.getByText('Cámara apagada').waitFor();
    await cam.click();
    await expect.poll(() => cam.getAttribute('aria-pressed')).toBe('true');

    await patient.getByRole('button', { name: 'Salir' }).click();
    await patient.getByRole('heading', { name: 'Has salido de la videollamada' }).waitFor();
    await therapist.getByText('Lucía Ferrer aún no ha entrado.').waitFor();
  });

  it('a browser that refuses the camera and microphone says so in Spanish, and still lets the patient in', async () => {
    const denying = await launchBrowser([FAKE_MEDIA[0]!, '--use-fake-ui-for-media-stream=deny']);
    try {
      const page = await (await newContext(denying, baseUrl, { mobile: true })).newPage();
      await page.goto(patientLink);
      const alert = page.getByRole('alert').filter({ hasText: 'Tu navegador no permite que Diván use la cámara ni el micrófono.' });
      await alert.waitFor();
      await alert.getByRole('button', { name: 'Reintentar' }).waitFor();
      await page.getByText('Tu cámara está apagada').waitFor();
      await shot(page, 'meet-07-devices-denied-phone');
      await page.getByRole('button', { name: 'Entrar en la sala' }).click();
      await page.getByText('Estás en la sala de espera. Marta te dará paso enseguida.').waitFor();
      await therapist.getByRole('status').filter({ hasText: 'Lucía Ferrer espera para entrar' }).waitFor();
    } finally {
      await denying.close();
    }
  });
});
