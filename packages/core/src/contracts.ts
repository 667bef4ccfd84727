/**
 * `@divan/core/contracts`: the Zod schema of every payload (request bodies, queries, responses, frames
 * and domain events), with the types inferred from them. They are built on the rules of
 * `@divan/core/rules` (limits, checks, messages), never on copies.
 */
export * from './fields';
export * from './time/time.contracts';
export * from './phone/phone.contracts';
export * from './auth/auth.contracts';
export * from './auth/social.contracts';
export * from './auth/second-factor.contracts';
export * from './auth/passkeys.contracts';
export * from './profile/profile.contracts';
export * from './realtime-frames';
export * from './health';
export * from './events';
export * from './workspaces/workspace.contracts';
export * from './workspaces/billing-info.contracts';
export * from './workspaces/workspace-response.contracts';
export * from './patients/patient.contracts';
export * from './patients/history.contracts';
export * from './patients/document.contracts';
export * from './patients/import.contracts';
export * from './patients/export.contracts';
export * from './patients/connect.contracts';
export * from './tasks/task.contracts';
export * from './billing/billing.contracts';
export * from './billing/billing-details.contracts';
export * from './billing/referral.contracts';
export * from './billing/gift.contracts';
export * from './feedback/feedback.contracts';
export * from './learning/learning.contracts';
export * from './chat/chat.contracts';
export * from './chat/chat-office-hours';
// The patient's own side of Diván (issue 15): contracts of /api/v1/patient/… that the companion (/p/…) reads.
export * from './companion/companion.contracts';
export * from './companion/companion-billing.contracts';
export * from './sessions/session.contracts';
export * from './sessions/reminders.contracts';
export * from './sessions/patient-sessions.contracts';
export * from './meet/meet-frames';
export * from './meet/meet.contracts';
export * from './invoices/invoice.contracts';
export * from './invoices/invoice-settings.contracts';
export * from './invoices/invoice-batch.contracts';
export * from './invoices/invoice-series';
export * from './invoices/fee-balance';
export * from './verifactu/verifactu-sending.contracts';
export * from './payments/payments.contracts';
export * from './consents/consent-template.contracts';
export * from './consents/consent-envelope.contracts';
export * from './booking/booking-service.contracts';
export * from './booking/availability-override.contracts';
export * from './booking/timespan.contracts';
export * from './booking/public-booking.contracts';
// Statistics (issue 28): the four tabs, the rows behind a card, the dashboard's figures.
export * from './analytics/analytics.contracts';
// Google Calendar (issue 30): the therapist's connection, its settings, busy blocks and Meet links.
export * from './google-calendar/google-calendar.contracts';
export * from './measures/measure.contracts';
