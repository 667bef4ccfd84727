import { describe, expect, it } from 'vitest';
import type { InvoiceBatchStatus } from '@divan/core';
import { batchOutcome } from './batch-outcome';

const batch = (b: Partial<InvoiceBatchStatus>): InvoiceBatchStatus => ({
  id: '00000000-0000-4000-8000-000000000001',
  from: '2026-11-01',
  to: '2026-11-30',
  status: 'done',
  total: 2,
  done: 2,
  invoiceIds: [],
  errors: [],
  createdAt: '2026-11-30T10:00:00.000Z',
  ...b,
});
const failure = (patientName: string) => ({
  patientId: '00000000-0000-4000-8000-000000000002',
  patientName,
  message: 'Completa los datos de facturación de Olga (nombre y NIF) en Ajustes › Datos de facturación.',
});

describe('batchOutcome', () => {
  it('a finished batch that issued no invoice is an error, never «Lote terminado»', () => {
    expect(batchOutcome(batch({ errors: [failure('Ana Prueba'), failure('Bruno Prueba')] }))).toEqual({
      tone: 'error',
      title: 'No se emitió ninguna factura',
      summary: '2 de 2 procesadas · 0 facturas emitidas · 2 sin emitir',
    });
    expect(batchOutcome(batch({ status: 'failed', errors: [failure('Ana Prueba')] })).tone).toBe('error');
  });
  it('some left out is a warning; all issued a success', () => {
    expect(batchOutcome(batch({ invoiceIds: ['00000000-0000-4000-8000-000000000003'], errors: [failure('Ana Prueba')] }))).toMatchObject({
      tone: 'warning',
      title: 'Lote terminado con avisos',
    });
    expect(batchOutcome(batch({ invoiceIds: ['00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000004'] }))).toEqual({
      tone: 'success',
      title: 'Lote terminado',
      summary: '2 de 2 procesadas · 2 facturas emitidas',
    });
  });
  it('says it is still working while queued or running', () => {
    expect(batchOutcome(batch({ status: 'running', done: 1 })).title).toBe('Emitiendo facturas…');
    expect(batchOutcome(undefined).tone).toBe('progress');
  });
});
