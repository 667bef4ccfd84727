/**
 * `@divan/core/rules`: core's rules and constants in plain TypeScript, with no Zod and no date library
 * anywhere in their imports (rules.test.ts walks them), so a public page imports a rule without
 * loading a schema. Money, Spanish dates and zoned wall clocks on Intl, limits, slots, taxes and
 * invoice arithmetic, the error catalogue. The Zod contracts built on them are `@divan/core/contracts`;
 * `@divan/core` is both (and the permissions).
 */
export * from './version';
export * from './constants';
export * from './errors';
export * from './generic-messages';
export * from './messages';
export * from './person-name';
export * from './email';
export * from './phone/phone';
export * from './auth/password-rule';
export * from './realtime';
// The domain events that reach other members' screens, and the queries each refreshes.
export * from './socket-events';

// Time: days, wall clocks and instants in a named zone; the zones' names.
export * from './time/tz-offset';
export * from './time/zoned';
export * from './time/zone-label';
export * from './time/add-months';

// Money: integer cents as Spanish euros, and back.
export * from './money/format';
export * from './money/euros';

export * from './workspaces/plans';
export * from './workspaces/divan-tax';
export * from './billing/referral-code';
export * from './billing/gift-code';
export * from './workspaces/default-roles';
export * from './patients/patient.constants';
export * from './patients/tax-id';
export * from './sessions/session.constants';
// The calendar grid's compact week.
export * from './sessions/session-grid';
export * from './meet/meet.constants';

// Chat: limits, the list's cursor, attachments.
export * from './chat/chat.constants';
export * from './chat/chat.cursor';
export * from './chat/chat-attachments';

// Invoices: arithmetic in integer cents, numbering, and the Spanish tax rules of a therapist.
export * from './invoices/invoice-math';
export * from './invoices/invoice-taxes';
export * from './invoices/patient-buyer';

// Card payments (issue 12): when a charge is allowed, refunds, packs.
export * from './payments/charge-rules';
export * from './payments/refund-lines';
export * from './payments/packs';
// Diván's own plans (issue 27): intervals, self-serve plans, prices per interval.
export * from './billing/billing-plans';
export * from './learning/learning';

// Consents (issue 13): the templates' and envelopes' rules, variables, signatures, the ready-made templates.
export * from './consents/consent-template.rules';
export * from './consents/consent-variables';
export * from './consents/signature-image';
export * from './consents/ready-made';
export * from './consents/consent-envelope.rules';

// Open booking (issue 14): services' rules, blocked dates, timespans, the free slots, the public form's limits.
export * from './booking/booking.constants';
export * from './booking/timespan';
export * from './booking/booking-service.rules';
export * from './booking/availability-override.rules';
export * from './booking/offered-time';
export * from './booking/slots';
export * from './booking/slots-view';
export * from './booking/holidays';
export * from './booking/public-booking.limits';

// Statistics (issue 28): periods and presets, the formulas, bands and buckets.
export * from './analytics/periods';
export * from './analytics/metrics';
export * from './analytics/analytics.labels';

// Outcome measures (issue 32): the instruments as data, their scoring and reliable change.
export * from './measures';
