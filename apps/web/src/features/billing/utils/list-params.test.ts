import { describe, expect, it } from 'vitest';
import { readListState, toQuery, writeListState } from './list-params';

const PID = '4f1c2b7e-7a51-4f0e-9a0b-6b7f0c2d9e11';

describe('invoice list state in the URL', () => {
  it('reads what it knows and ignores the rest', () => {
    const s = readListState(
      new URLSearchParams(`period=lastMonth&status=issued&payment=paid&patient=${PID}&therapist=nope&series=RF-2026&page=3&x=1`),
    );
    expect(s).toEqual({
      q: '',
      period: 'lastMonth',
      status: 'issued',
      payment: 'paid',
      therapist: null,
      patient: PID,
      series: 'RF-2026',
      page: 3,
    });
    expect(readListState(new URLSearchParams('period=forever&status=void&series=a b&page=-2'))).toMatchObject({
      period: null,
      status: null,
      series: null,
      page: 1,
    });
  });

  it('writes back only what is set, and round-trips', () => {
    expect(writeListState(readListState(new URLSearchParams(''))).toString()).toBe('');
    const params = new URLSearchParams(`q=2026-0001&period=today&payment=pending&page=2`);
    expect(writeListState(readListState(params)).toString()).toBe(params.toString());
  });

  it('asks the API for the period as dates, with the other filters', () => {
    const now = new Date(2026, 2, 4, 10);
    const q = toQuery(
      readListState(new URLSearchParams(`period=thisMonth&status=draft&payment=pending&q=%20Ana%20&patient=${PID}&series=R2026`)),
      now,
    );
    expect(q).toEqual({
      page: 1,
      pageSize: 25,
      from: '2026-03-01',
      to: '2026-03-31',
      status: 'draft',
      paymentStatus: 'pending',
      q: 'Ana',
      patientId: PID,
      series: 'R2026',
    });
  });
});
