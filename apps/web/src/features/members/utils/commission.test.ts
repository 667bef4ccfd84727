import { describe, expect, it } from 'vitest';
import { commissionExample, commissionText, describeCommission, toCommission } from './commission';

const eur = (s: string) => s.replace(/ €/g, '\u00a0€');

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
  it('says the stored value as the workspace’s share, the Spanish way', () => {
    expect(commissionText({ type: 'fixed', value: 1250 })).toBe('12,50');
    expect(commissionText({ type: 'percentage', value: 1250 })).toBe('12,5');
    expect(describeCommission({ type: 'percentage', value: 3000 })).toBe('El espacio se queda el 30 % por sesión');
    expect(describeCommission({ type: 'fixed', value: 1500 })).toBe(eur('El espacio se queda 15,00 € por sesión'));
    expect(describeCommission(null)).toBe('Sin comisión del espacio');
  });
  it('works the example out from what is typed, as sessions’ fees are computed', () => {
    expect(commissionExample('percentage', '30')).toBe(
      eur('De una sesión de 70,00 €: 49,00 € para el terapeuta y 21,00 € para el espacio.'),
    );
    expect(commissionExample('percentage', '12,5')).toBe(
      eur('De una sesión de 70,00 €: 61,25 € para el terapeuta y 8,75 € para el espacio.'),
    );
    expect(commissionExample('fixed', '15')).toBe(eur('De una sesión de 70,00 €: 55,00 € para el terapeuta y 15,00 € para el espacio.'));
    expect(commissionExample('fixed', '90')).toBe(eur('De una sesión de 70,00 €: 0,00 € para el terapeuta y 70,00 € para el espacio.'));
    expect(commissionExample('percentage', 'treinta')).toBeNull();
    expect(commissionExample('none', '')).toMatch(/todo para el terapeuta/);
  });
});
