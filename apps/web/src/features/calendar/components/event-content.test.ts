// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { Calendar } from '@event-calendar/core';
import { eventContent } from './event-content';

const info = (event: Record<string, unknown>, view = 'timeGridWeek') =>
  ({
    event: { id: 's1', title: 'Lucía Martín', ...event },
    timeText: '10:00–10:50',
    view: { type: view },
  }) as unknown as Calendar.EventContentInfo;

const text = (content: Calendar.Content) => (content as { domNodes: Node[] }).domNodes.map((n) => n.textContent).join('');

describe('the calendar event box', () => {
  it('draws the grid’s own events (the hour under the mouse, the slot being selected) without session data', () => {
    // @event-calendar draws these with empty extendedProps: reading their `badges` threw on every hover.
    for (const display of ['pointer', 'preview']) {
      const box = eventContent(info({ id: `{${display}}`, title: '', display, extendedProps: {} }));
      expect(text(box)).toBe('10:00–10:50');
    }
    expect(text(eventContent(info({ id: '{pointer}', title: '', display: 'pointer', extendedProps: {} }, 'dayGridMonth')))).toBe(
      '10:00–10:50',
    );
  });

  it('draws a session with its name, time, place, signs and what screen readers hear', () => {
    const props = { label: 'lunes, 4 de mayo de 2026, Pendiente', badges: ['online', 'note'], sub: 'Sala 2', canceled: false, done: true };
    expect(text(eventContent(info({ extendedProps: props })))).toBe(
      '✓ Lucía Martín 10:00–10:50 · Sala 2 Online Sin nota. lunes, 4 de mayo de 2026, Pendiente',
    );
    expect(text(eventContent(info({ extendedProps: props }, 'dayGridMonth')))).toBe(
      '10:00–10:50 ✓ Lucía Martín  Sin nota. lunes, 4 de mayo de 2026, Pendiente',
    );
  });

  it('draws a Google busy block as «Ocupado en Google» and nothing else', () => {
    expect(text(eventContent(info({ id: 'google-busy-0', title: '', display: 'background', extendedProps: { busy: true } })))).toBe(
      'Ocupado en Google',
    );
  });
});
