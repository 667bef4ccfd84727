import { describe, expect, it } from 'vitest';
import { holidaysBetween } from '@divan/core';
import { holidayNotice } from './holiday-notice';

describe('the notice about holidays open to booking', () => {
  it('says holidays are bookable until blocked, how many are left, the next one, and offers to block them all', () => {
    const open = holidaysBetween('2026-11-20', '2027-01-06', null);
    expect(holidayNotice(open)).toEqual({
      text: 'Los festivos se pueden reservar como cualquier otro día mientras no los bloquees. Quedan 5 festivos sin bloquear en los próximos 12 meses; el primero, Día de la Constitución, el 06/12/2026.',
      action: 'Bloquear los 5 festivos',
    });
  });

  it('names the last one left, and says nothing once all are blocked', () => {
    const [reyes] = holidaysBetween('2027-01-06', '2027-01-06', null);
    expect(holidayNotice([reyes!])).toMatchObject({ action: `Bloquear ${reyes!.name}` });
    expect(holidayNotice([reyes!])!.text).toContain('Queda 1 festivo sin bloquear');
    expect(holidayNotice([])).toBeNull();
  });
});
