import { defineFieldMap } from '../workspaces/field-access';

/**
 * Which permission guards each field of a session (see workspaces/field-access.ts). The record's
 * owner ("is owner") is the session's therapist.
 *
 * - Sesiones (`sessions`, the base): times, patient, therapist, status, cancellation, price, fee,
 *   payment, modality, location, reminders, video call. Recepción reads and writes all of these.
 * - Historia clínica (`patient_histories`): the link to the session's clinical note (`noteId`, once
 *   notes are written from sessions) and whether it is missing (`noteMissing`). Never Recepción's.
 */
export const SESSION_FIELDS = defineFieldMap('sessions', {
  patient_histories: ['noteId', 'noteMissing'],
});
