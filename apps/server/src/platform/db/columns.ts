import { text, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** The billing address of spec §3, shared by workspaces and patients (same columns in both tables). */
export const billingAddressColumns = () => ({
  billingFullName: text('billing_full_name'),
  billingTaxId: text('billing_tax_id'),
  billingLine1: text('billing_line1'),
  billingLine2: text('billing_line2'),
  billingCity: text('billing_city'),
  billingZipCode: text('billing_zip_code'),
  billingCountry: text('billing_country'),
});

/** A table a foreign key points at, by its `id`. The module passes its own imports: platform imports no module. */
type Keyed = { id: AnyPgColumn };

/** The workspace a row belongs to: the row goes with its workspace. */
export const workspaceColumn = (workspaces: Keyed) =>
  uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' });

/** The patient a row is about: the row goes with its patient. */
export const patientColumn = (patients: Keyed) =>
  uuid('patient_id')
    .notNull()
    .references(() => patients.id, { onDelete: 'cascade' });

/**
 * The tenant of a patient's row (a session, a series, a pack): its workspace and its patient, gone with
 * them, and its therapist, the owner for "is owner" permissions (no cascade: a user who still has such
 * rows is not deleted).
 */
export const tenantColumns = (to: { workspaces: Keyed; patients: Keyed; users: Keyed }) => ({
  workspaceId: workspaceColumn(to.workspaces),
  patientId: patientColumn(to.patients),
  therapistId: uuid('therapist_id')
    .notNull()
    .references(() => to.users.id),
});
