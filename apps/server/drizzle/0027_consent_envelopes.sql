CREATE TABLE "consent_envelope_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"envelope_id" uuid NOT NULL,
	"type" text NOT NULL,
	"signer_role" text,
	"actor" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	"user_agent" text,
	"document_sha256" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consent_envelopes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	"template_version_id" uuid NOT NULL,
	"template_version" integer NOT NULL,
	"therapist_id" uuid,
	"state" text DEFAULT 'sent' NOT NULL,
	"variables" jsonb NOT NULL,
	"document_title" text NOT NULL,
	"document_sha256" text NOT NULL,
	"minor_exception" jsonb,
	"document_id" uuid,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_by" uuid
);
--> statement-breakpoint
CREATE TABLE "consent_signers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"envelope_id" uuid NOT NULL,
	"role" text NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"asked" jsonb NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"mailed_at" timestamp with time zone,
	"opened_at" timestamp with time zone,
	"signed_at" timestamp with time zone,
	"data" jsonb,
	"checkboxes" jsonb,
	"signature" jsonb,
	CONSTRAINT "consent_signers_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "consent_signers_envelope_role_key" UNIQUE("envelope_id","role")
);
--> statement-breakpoint
ALTER TABLE "consent_envelope_events" ADD CONSTRAINT "consent_envelope_events_envelope_id_consent_envelopes_id_fk" FOREIGN KEY ("envelope_id") REFERENCES "public"."consent_envelopes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_envelopes" ADD CONSTRAINT "consent_envelopes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_envelopes" ADD CONSTRAINT "consent_envelopes_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_envelopes" ADD CONSTRAINT "consent_envelopes_template_id_consent_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."consent_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_envelopes" ADD CONSTRAINT "consent_envelopes_template_version_id_consent_template_versions_id_fk" FOREIGN KEY ("template_version_id") REFERENCES "public"."consent_template_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_envelopes" ADD CONSTRAINT "consent_envelopes_therapist_id_users_id_fk" FOREIGN KEY ("therapist_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_envelopes" ADD CONSTRAINT "consent_envelopes_document_id_patient_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."patient_documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_signers" ADD CONSTRAINT "consent_signers_envelope_id_consent_envelopes_id_fk" FOREIGN KEY ("envelope_id") REFERENCES "public"."consent_envelopes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consent_envelope_events_envelope_idx" ON "consent_envelope_events" USING btree ("envelope_id","id");--> statement-breakpoint
CREATE INDEX "consent_envelopes_workspace_sent_idx" ON "consent_envelopes" USING btree ("workspace_id","sent_at");--> statement-breakpoint
CREATE INDEX "consent_envelopes_patient_idx" ON "consent_envelopes" USING btree ("patient_id","sent_at");--> statement-breakpoint
CREATE INDEX "consent_envelopes_state_idx" ON "consent_envelopes" USING btree ("state","sent_at");--> statement-breakpoint
CREATE INDEX "consent_signers_unsigned_idx" ON "consent_signers" USING btree ("signed_at","expires_at");--> statement-breakpoint
-- Signing evidence is a legal record, append-only in the database itself (ARCHITECTURE.md): no event
-- changes, and none goes but with its envelope (the patient's erasure after retention cascades here).
CREATE FUNCTION "consent_envelope_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM "consent_envelopes" WHERE "id" = OLD.envelope_id) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'consent_envelope_events is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;--> statement-breakpoint
CREATE TRIGGER "consent_envelope_events_no_update_delete" BEFORE UPDATE OR DELETE ON "consent_envelope_events" FOR EACH ROW EXECUTE FUNCTION "consent_envelope_events_append_only"();--> statement-breakpoint
CREATE TRIGGER "consent_envelope_events_no_truncate" BEFORE TRUNCATE ON "consent_envelope_events" FOR EACH STATEMENT EXECUTE FUNCTION "consent_envelope_events_append_only"();
