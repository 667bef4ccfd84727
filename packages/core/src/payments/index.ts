/** Card payments (issue 12): when a charge is allowed, refunds, and the payments API's contracts. */
export * from './charge-rules';
export * from './payments.contracts';
export * from './refund-lines';
export * from './packs';
