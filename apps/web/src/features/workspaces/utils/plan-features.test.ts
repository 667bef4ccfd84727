import { describe, expect, it } from 'vitest';
import { PLAN_FEATURES } from '@divan/core';
import { featureLines, planLines, planMailto, priceLines } from './plan-features';

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

  it('writes to support naming the workspace', () => {
    const href = planMailto('Cambiar al plan Premium', 'Consulta de Laura');
    expect(href.startsWith('mailto:soporte@divan.app?subject=Cambiar%20al%20plan%20Premium&body=')).toBe(true);
    expect(decodeURIComponent(href)).toContain('«Consulta de Laura»');
  });
});
