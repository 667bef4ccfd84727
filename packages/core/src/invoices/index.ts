/** Invoices: arithmetic in integer cents, numbering, and the Spanish tax rules of a therapist. */
export * from './invoice-math';
export * from './invoice-taxes';
export * from './fee-balance';
export * from './invoice-batch.contracts';
export * from './invoice-series';
export * from './patient-buyer';
