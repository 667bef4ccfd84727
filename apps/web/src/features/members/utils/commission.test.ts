import { describe, expect, it } from 'vitest';
import { commissionText, describeCommission, toCommission } from './commission';

describe('commission', () => {
  it('sends a fixed amount in cents and a percentage in basis points', () => {
    expect(toCommission('fixed', '12,50')).toEqual({ commission: { type: 'fixed', value: 1250 } });
    expect(toCommission('percentage', '30')).toEqual({ commission: { type: 'percentage', value: 3000 } });
    expect(toCommission('percentage', '12.5')).toEqual({ commission: { type: 'percentage', value: 1250 } });
    expect(toCommission('none', 'lo que sea')).toEqual({ commission: null });
  });
  it('refuses text that is not an amount, and percentages above 100', () => {
    expect(toCommission('fixed', '12,505')).toHaveProperty('error');
    expect(toCommission('fixed', '')).toHaveProperty('error');
    expect(toCommission('percentage', '101')).toEqual({ error: 'No puede ser mayor de 100 %' });
  });
  it('shows the stored value the Spanish way', () => {
    expect(commissionText({ type: 'fixed', value: 1250 })).toBe('12,50');
    expect(commissionText({ type: 'percentage', value: 1250 })).toBe('12,5');
    expect(describeCommission({ type: 'percentage', value: 3000 })).toBe('30 % por sesión');
    expect(describeCommission({ type: 'fixed', value: 1500 })).toMatch(/^15,00\s€ por sesión$/);
    expect(describeCommission(null)).toBe('Sin comisión');
  });
});
