CREATE TABLE "invoice_auto_runs" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"therapist_id" uuid NOT NULL,
	"status" text NOT NULL,
	"invoice_id" uuid,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_auto_runs_outcome" CHECK (("invoice_auto_runs"."status" = 'issued') = ("invoice_auto_runs"."reason" is null))
);
--> statement-breakpoint
CREATE TABLE "invoice_member_settings" (
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"auto_invoice" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_member_settings_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "invoice_counters" DROP CONSTRAINT "invoice_counters_seller_key_kind_year_pk";--> statement-breakpoint
ALTER TABLE "invoice_counters" ADD CONSTRAINT "invoice_counters_seller_key_kind_prefix_year_pk" PRIMARY KEY("seller_key","kind","prefix","year");--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "void_reason" text;--> statement-breakpoint
ALTER TABLE "therapist_billing" ADD COLUMN "series_prefix" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "billing_series_prefix" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_auto_runs" ADD CONSTRAINT "invoice_auto_runs_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_auto_runs" ADD CONSTRAINT "invoice_auto_runs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_auto_runs" ADD CONSTRAINT "invoice_auto_runs_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_member_settings" ADD CONSTRAINT "invoice_member_settings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_member_settings" ADD CONSTRAINT "invoice_member_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_auto_runs_member_idx" ON "invoice_auto_runs" USING btree ("workspace_id","therapist_id","created_at");--> statement-breakpoint
CREATE INDEX "invoices_rectifies_idx" ON "invoices" USING btree ("rectifies_id");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_voided" CHECK (("invoices"."status" = 'voided') = ("invoices"."voided_at" is not null));--> statement-breakpoint
-- Voiding (a RegistroAnulacion): an issued invoice may become `voided`, recording only when and why;
-- a voided one changes no more, and neither is ever deleted nor has its lines touched.
CREATE OR REPLACE FUNCTION "invoices_issued_frozen"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.status IN ('issued', 'voided') THEN
      RAISE EXCEPTION 'an issued invoice cannot be deleted' USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN OLD;
  END IF;
  IF OLD.status IN ('issued', 'voided') AND (
    NEW.number IS DISTINCT FROM OLD.number OR NEW.sequence IS DISTINCT FROM OLD.sequence
    OR NEW.series IS DISTINCT FROM OLD.series OR NEW.issue_date IS DISTINCT FROM OLD.issue_date OR NEW.issued_at IS DISTINCT FROM OLD.issued_at
    OR NEW.buyer IS DISTINCT FROM OLD.buyer OR NEW.seller IS DISTINCT FROM OLD.seller OR NEW.seller_key IS DISTINCT FROM OLD.seller_key
    OR NEW.seller_type IS DISTINCT FROM OLD.seller_type OR NEW.subtotal IS DISTINCT FROM OLD.subtotal OR NEW.vat IS DISTINCT FROM OLD.vat
    OR NEW.withholding IS DISTINCT FROM OLD.withholding OR NEW.total IS DISTINCT FROM OLD.total OR NEW.footer IS DISTINCT FROM OLD.footer
    OR NEW.kind IS DISTINCT FROM OLD.kind OR NEW.rectifies_id IS DISTINCT FROM OLD.rectifies_id
    OR NEW.rectification_method IS DISTINCT FROM OLD.rectification_method OR NEW.rectification_reason IS DISTINCT FROM OLD.rectification_reason
    OR NEW.workspace_id IS DISTINCT FROM OLD.workspace_id OR NEW.owner_id IS DISTINCT FROM OLD.owner_id
    OR (OLD.status = 'issued' AND NEW.status NOT IN ('issued', 'voided'))
    OR (OLD.status = 'voided' AND (NEW.status IS DISTINCT FROM OLD.status OR NEW.voided_at IS DISTINCT FROM OLD.voided_at OR NEW.void_reason IS DISTINCT FROM OLD.void_reason
      OR NEW.payment_status IS DISTINCT FROM OLD.payment_status OR NEW.payment_type IS DISTINCT FROM OLD.payment_type OR NEW.paid_at IS DISTINCT FROM OLD.paid_at))
    OR (OLD.status = 'issued' AND NEW.status = 'issued' AND (NEW.voided_at IS NOT NULL OR NEW.void_reason IS NOT NULL))
  ) THEN
    RAISE EXCEPTION 'an issued invoice is corrected only by a rectifying invoice' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "invoice_lines_frozen"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  parent uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.invoice_id ELSE NEW.invoice_id END;
BEGIN
  -- A session erased with its patient leaves the line, without its link.
  IF TG_OP = 'UPDATE' AND NEW.session_id IS NULL AND (to_jsonb(NEW) - 'session_id') = (to_jsonb(OLD) - 'session_id') THEN
    RETURN NEW;
  END IF;
  IF EXISTS (SELECT 1 FROM "invoices" WHERE "id" = parent AND "status" IN ('issued', 'voided')) THEN
    RAISE EXCEPTION 'the lines of an issued invoice cannot change' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.invoice_id <> NEW.invoice_id AND EXISTS (SELECT 1 FROM "invoices" WHERE "id" = OLD.invoice_id AND "status" IN ('issued', 'voided')) THEN
    RAISE EXCEPTION 'the lines of an issued invoice cannot change' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;
