import { describe, expect, it } from 'vitest';
import { patientBillingGap, patientBuyerName } from './patient-buyer';

describe('the patient as buyer', () => {
  it('a NIF without a billing name is complete: the invoice carries the patient’s own name', () => {
    expect(patientBillingGap({ fullName: null, taxId: '12345678Z' })).toBeNull();
    expect(patientBuyerName('Lucía Romero', { fullName: null, taxId: '12345678Z' })).toBe('Lucía Romero');
    expect(patientBuyerName('Lucía Romero', { fullName: 'Empresa SL', taxId: 'B12345674' })).toBe('Empresa SL');
  });
  it('without a NIF it says so, whatever the name', () => {
    expect(patientBillingGap({ fullName: 'Lucía Romero', taxId: null })).toMatch(/^Falta el NIF/);
    expect(patientBillingGap({ fullName: 'Lucía Romero', taxId: '  ' })).toMatch(/^Falta el NIF/);
    expect(patientBillingGap(null)).toMatch(/^Falta el NIF/);
  });
});
