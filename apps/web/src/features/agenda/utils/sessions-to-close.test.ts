import { describe, expect, it } from 'vitest';
import { closedText, pastRange, sessionsToClose } from './sessions-to-close';

const now = new Date('2026-12-01T18:00:00Z');
const s = (id: string, endsAt: string, status: 'pending' | 'completed' | 'canceled' = 'pending') => ({ id, endsAt, status });

describe('«Sesiones por cerrar»', () => {
  it('lists the sessions already over that are still «Pendiente», oldest first', () => {
    const list = [
      s('later', '2026-12-01T17:50:00Z'),
      s('done', '2026-11-30T10:00:00Z', 'completed'),
      s('old', '2026-11-20T09:50:00Z'),
      s('gone', '2026-11-21T09:50:00Z', 'canceled'),
      s('now', '2026-12-01T18:30:00Z'),
    ];
    expect(sessionsToClose(list, now).map((x) => x.id)).toEqual(['old', 'later']);
  });

  it('looks back as far as the sessions API reads, up to now', () => {
    expect(pastRange(now)).toEqual({ from: '2026-10-20T18:00:00.000Z', to: '2026-12-01T18:00:00.000Z' });
  });

  it('says how each was closed', () => {
    expect(closedText({ kind: 'completed' }, 'Lucía Martín')).toBe('Sesión con Lucía Martín completada');
    expect(closedText({ kind: 'canceled', reason: 'no_show' }, 'Lucía Martín')).toBe('Lucía Martín no asistió: sesión cerrada');
    expect(closedText({ kind: 'canceled', reason: 'patient' }, 'Lucía Martín')).toBe('Sesión con Lucía Martín cancelada');
  });
});
