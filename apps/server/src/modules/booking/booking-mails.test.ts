import { describe, expect, it } from 'vitest';
import { toInstant } from '@divan/core';
import { whenText } from './booking-mails';

describe('the booking mails’ «when»', () => {
  it('names a zone other than Madrid’s as people say it, not by its IANA id', () => {
    expect(whenText(toInstant('2026-12-01', '10:00', 'America/Mexico_City'), 'America/Mexico_City')).toBe(
      'el martes 01/12/2026 a las 10:00 (hora de Ciudad de México)',
    );
    expect(whenText(toInstant('2026-12-01', '10:00', 'Atlantic/Canary'), 'Atlantic/Canary')).toBe(
      'el martes 01/12/2026 a las 10:00 (hora de Canarias)',
    );
    expect(whenText(toInstant('2026-12-01', '10:00', 'Europe/Madrid'), 'Europe/Madrid')).toBe('el martes 01/12/2026 a las 10:00');
  });
});
