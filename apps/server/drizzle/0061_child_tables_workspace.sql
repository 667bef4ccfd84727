-- Shard-ready data (issue 31): the child tables carry their parent's workspace_id too, so that every
-- table of a workspace can be distributed by it (Citus) and colocated with its parent. Added nullable,
-- filled from the parent, then NOT NULL; the unique keys get it first. The append-only and frozen tables'
-- triggers are set aside for the fill only (the rows' own content does not change).
ALTER TABLE "consent_envelope_events" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "consent_signers" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "consent_template_versions" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "document_tag_links" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "google_busy_calendars" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "google_session_events" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "history_revisions" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "session_pack_uses" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "session_reminder_sends" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "member_roles" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "consent_envelope_events" DISABLE TRIGGER "consent_envelope_events_no_update_delete";--> statement-breakpoint
UPDATE "consent_envelope_events" c SET "workspace_id" = p."workspace_id" FROM "consent_envelopes" p WHERE p."id" = c."envelope_id";--> statement-breakpoint
ALTER TABLE "consent_envelope_events" ENABLE TRIGGER "consent_envelope_events_no_update_delete";--> statement-breakpoint
UPDATE "consent_signers" c SET "workspace_id" = p."workspace_id" FROM "consent_envelopes" p WHERE p."id" = c."envelope_id";--> statement-breakpoint
ALTER TABLE "consent_template_versions" DISABLE TRIGGER "consent_template_versions_no_update";--> statement-breakpoint
UPDATE "consent_template_versions" c SET "workspace_id" = p."workspace_id" FROM "consent_templates" p WHERE p."id" = c."template_id";--> statement-breakpoint
ALTER TABLE "consent_template_versions" ENABLE TRIGGER "consent_template_versions_no_update";--> statement-breakpoint
UPDATE "document_tag_links" c SET "workspace_id" = p."workspace_id" FROM "patient_documents" p WHERE p."id" = c."document_id";--> statement-breakpoint
UPDATE "google_busy_calendars" c SET "workspace_id" = p."workspace_id" FROM "google_calendar_connections" p WHERE p."id" = c."connection_id";--> statement-breakpoint
UPDATE "google_session_events" c SET "workspace_id" = p."workspace_id" FROM "google_calendar_connections" p WHERE p."id" = c."connection_id";--> statement-breakpoint
ALTER TABLE "invoice_lines" DISABLE TRIGGER "invoice_lines_frozen";--> statement-breakpoint
UPDATE "invoice_lines" c SET "workspace_id" = p."workspace_id" FROM "invoices" p WHERE p."id" = c."invoice_id";--> statement-breakpoint
ALTER TABLE "invoice_lines" ENABLE TRIGGER "invoice_lines_frozen";--> statement-breakpoint
UPDATE "history_revisions" c SET "workspace_id" = p."workspace_id" FROM "history_entries" p WHERE p."id" = c."entry_id";--> statement-breakpoint
UPDATE "session_pack_uses" c SET "workspace_id" = p."workspace_id" FROM "session_packs" p WHERE p."id" = c."pack_id";--> statement-breakpoint
UPDATE "payment_refunds" c SET "workspace_id" = p."workspace_id" FROM "invoice_payments" p WHERE p."id" = c."payment_id";--> statement-breakpoint
UPDATE "session_reminder_sends" c SET "workspace_id" = p."workspace_id" FROM "sessions" p WHERE p."id" = c."session_id";--> statement-breakpoint
UPDATE "member_roles" c SET "workspace_id" = p."workspace_id" FROM "members" p WHERE p."id" = c."member_id";--> statement-breakpoint
ALTER TABLE "consent_envelope_events" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "consent_signers" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "consent_template_versions" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "document_tag_links" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "google_busy_calendars" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "google_session_events" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_lines" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "history_revisions" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "session_pack_uses" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_refunds" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "session_reminder_sends" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "member_roles" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "consent_signers" ADD CONSTRAINT "consent_signers_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_template_versions" ADD CONSTRAINT "consent_template_versions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_tag_links" ADD CONSTRAINT "document_tag_links_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "google_busy_calendars" ADD CONSTRAINT "google_busy_calendars_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "google_session_events" ADD CONSTRAINT "google_session_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_pack_uses" ADD CONSTRAINT "session_pack_uses_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_reminder_sends" ADD CONSTRAINT "session_reminder_sends_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_roles" ADD CONSTRAINT "member_roles_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_signers" DROP CONSTRAINT "consent_signers_envelope_role_key";--> statement-breakpoint
ALTER TABLE "consent_signers" ADD CONSTRAINT "consent_signers_envelope_role_key" UNIQUE("workspace_id","envelope_id","role");--> statement-breakpoint
ALTER TABLE "consent_template_versions" DROP CONSTRAINT "consent_template_versions_template_version_key";--> statement-breakpoint
ALTER TABLE "consent_template_versions" ADD CONSTRAINT "consent_template_versions_template_version_key" UNIQUE("workspace_id","template_id","version");--> statement-breakpoint
ALTER TABLE "google_busy_calendars" DROP CONSTRAINT "google_busy_calendars_connection_calendar_key";--> statement-breakpoint
ALTER TABLE "google_busy_calendars" ADD CONSTRAINT "google_busy_calendars_connection_calendar_key" UNIQUE("workspace_id","connection_id","calendar_id");--> statement-breakpoint
ALTER TABLE "invoice_lines" DROP CONSTRAINT "invoice_lines_position_key";--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_position_key" UNIQUE("workspace_id","invoice_id","position");
