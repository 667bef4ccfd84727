// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMBED_CLOSE_MESSAGE, EMBED_RESIZE_MESSAGE } from '@divan/core/rules';

/** The snippet therapists paste on their website (apps/web/public/embed.js), run as the browser would. */
const source = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../../../public/embed.js'), 'utf8');
const DIVAN = 'https://app.divan.es';
const PAGE = `${DIVAN}/v1/reservations/8a1f8a52-6a43-4c59-9f1f-0a4f3c1b5e01`;
const run = () => new Function(source)();
const post = (source: unknown, origin: string, data: unknown) =>
  window.dispatchEvent(new MessageEvent('message', { data, origin, source: source as Window }));

beforeEach(() => {
  document.body.innerHTML = '';
});
afterEach(() => {
  document.documentElement.style.overflow = '';
});

describe('embed.js', () => {
  it('listens for the message name core defines', () => {
    expect(source).toContain(`'${EMBED_RESIZE_MESSAGE}'`);
    expect(source).toContain(`'${EMBED_CLOSE_MESSAGE}'`);
  });

  it('puts an iframe of the booking page in each container, and grows it only on messages from that iframe and Diván', () => {
    document.body.innerHTML = `<div data-divan-booking="${PAGE}"></div><div data-divan-booking="javascript:alert(1)"></div><div data-divan-booking="https://otra.es/x"></div>`;
    run();
    const frames = document.querySelectorAll('iframe');
    expect(frames).toHaveLength(1);
    const frame = frames[0]!;
    expect(frame.src).toBe(`${PAGE}?embed=1`);
    expect(frame.title).toBe('Reserva online');
    post(frame.contentWindow, 'https://malo.es', { type: EMBED_RESIZE_MESSAGE, height: 2000 });
    post(window, DIVAN, { type: EMBED_RESIZE_MESSAGE, height: 2000 });
    post(frame.contentWindow, DIVAN, { type: 'other', height: 2000 });
    expect(frame.style.height).toBe('480px');
    post(frame.contentWindow, DIVAN, { type: EMBED_RESIZE_MESSAGE, height: 1234.5 });
    expect(frame.style.height).toBe('1235px');
    // Mounting again adds nothing.
    (window as unknown as { DivanBooking: { mount(): void } }).DivanBooking.mount();
    expect(document.querySelectorAll('iframe')).toHaveLength(1);
  });

  it('button mode opens the page in a dialog that Escape closes, giving the focus back', () => {
    document.body.innerHTML = `<div data-divan-booking="${PAGE}" data-mode="button" data-label="Pide cita"></div>`;
    run();
    const button = document.querySelector('button')!;
    expect(button.textContent).toBe('Pide cita');
    expect(document.querySelector('iframe')).toBeNull();
    button.focus();
    button.click();
    const dialog = document.querySelector('[role="dialog"]')!;
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.querySelector('iframe')!.src).toBe(`${PAGE}?embed=1`);
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Cerrar');
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('button mode: Escape pressed inside the booking page (its close message, from that frame and Diván only) closes the dialog', () => {
    document.body.innerHTML = `<div data-divan-booking="${PAGE}" data-mode="button"></div>`;
    run();
    const button = document.querySelector('button')!;
    button.click();
    const frame = document.querySelector('[role="dialog"] iframe') as HTMLIFrameElement;
    post(frame.contentWindow, 'https://malo.es', { type: EMBED_CLOSE_MESSAGE });
    post(window, DIVAN, { type: EMBED_CLOSE_MESSAGE });
    expect(document.querySelector('[role="dialog"]')).not.toBeNull();
    post(frame.contentWindow, DIVAN, { type: EMBED_CLOSE_MESSAGE });
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    expect(document.activeElement).toBe(button);
  });
});
