import type { InvoiceBatchStatus } from '@divan/core';

export type BatchOutcome = { tone: 'progress' | 'success' | 'warning' | 'error'; title: string; summary: string };

export const invoicesLabel = (n: number) => (n === 1 ? '1 factura' : `${n} facturas`);

/**
 * What a batch's screen says of it: in progress; a success only when it issued every invoice; a warning when
 * some were left out; an error when it issued none (whatever the job's status) or stopped half way.
 */
export function batchOutcome(b: InvoiceBatchStatus | undefined): BatchOutcome {
  if (!b) return { tone: 'progress', title: 'Cargando el lote…', summary: '' };
  const issued = b.invoiceIds.length;
  const summary = `${b.done} de ${b.total} procesadas · ${issued === 1 ? '1 factura emitida' : `${issued} facturas emitidas`}${b.errors.length ? ` · ${b.errors.length} sin emitir` : ''}`;
  if (b.status === 'queued') return { tone: 'progress', title: 'En cola…', summary };
  if (b.status === 'running') return { tone: 'progress', title: 'Emitiendo facturas…', summary };
  if (issued === 0) return { tone: 'error', title: 'No se emitió ninguna factura', summary };
  if (b.status === 'failed') return { tone: 'error', title: 'El lote no pudo terminar', summary };
  if (b.errors.length) return { tone: 'warning', title: 'Lote terminado con avisos', summary };
  return { tone: 'success', title: 'Lote terminado', summary };
}
