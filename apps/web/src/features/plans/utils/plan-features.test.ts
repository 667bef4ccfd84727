import { describe, expect, it } from 'vitest';
import { PLAN_FEATURES } from '@divan/core';
import { featureLines, intervalPriceLines, planLines, priceLines } from './plan-features';

describe('plan lines', () => {
  it('say what each plan gives, from core’s features', () => {
    expect(featureLines(PLAN_FEATURES.basic).map((l) => l.label)).toEqual([
      'Hasta 30 pacientes activos por terapeuta',
      'Historia clínica cifrada, documentos e importación desde Excel',
      '1 recordatorio por sesión',
      'Facturas manuales',
    ]);
    expect(planLines('advance')).toContainEqual({ label: 'Pacientes activos ilimitados' });
    expect(planLines('advance')).toContainEqual({ label: 'Facturas automáticas y por lotes' });
    expect(planLines('team').at(-1)).toEqual({ label: 'Comisión y cobro por terapeuta' });
  });

  it('price Basic and Premium per month and year, and Team on contact', () => {
    expect(priceLines('basic')).toEqual({ monthly: '19,00\u00a0€', yearly: 'o 190,00\u00a0€ al año' });
    expect(priceLines('advance')?.monthly).toBe('29,00\u00a0€');
    expect(priceLines('team')).toBeNull();
  });

  it('price a plan for the interval chosen, with the other one beside it, and Team on contact', () => {
    expect(intervalPriceLines('advance', 'month')).toEqual({
      amount: '29,00\u00a0€',
      per: 'al mes por usuario + IVA',
      other: 'o 290,00\u00a0€ al año',
    });
    expect(intervalPriceLines('basic', 'year')).toEqual({
      amount: '190,00\u00a0€',
      per: 'al año por usuario + IVA',
      other: 'o 19,00\u00a0€ al mes',
    });
    expect(intervalPriceLines('team', 'month')).toBeNull();
  });
});
