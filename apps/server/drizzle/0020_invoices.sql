CREATE TABLE "invoice_counters" (
	"seller_key" text NOT NULL,
	"kind" text NOT NULL,
	"year" integer NOT NULL,
	"prefix" text NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "invoice_counters_seller_key_kind_year_pk" PRIMARY KEY("seller_key","kind","year")
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"description" text NOT NULL,
	"item_kind" text DEFAULT 'therapy' NOT NULL,
	"unit_price" integer NOT NULL,
	"quantity_hundredths" integer NOT NULL,
	"vat_rate" integer NOT NULL,
	"withholding_rate" integer NOT NULL,
	"exemption" text,
	"base" integer NOT NULL,
	"vat" integer NOT NULL,
	"withholding" integer NOT NULL,
	"total" integer NOT NULL,
	"session_id" uuid,
	CONSTRAINT "invoice_lines_position_key" UNIQUE("invoice_id","position")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"seller_type" text NOT NULL,
	"seller_key" text NOT NULL,
	"patient_id" uuid,
	"status" text DEFAULT 'draft' NOT NULL,
	"kind" text DEFAULT 'ordinary' NOT NULL,
	"series" text,
	"sequence" integer,
	"number" text,
	"issue_date" date,
	"issued_at" timestamp with time zone,
	"buyer" jsonb,
	"seller" jsonb,
	"subtotal" integer DEFAULT 0 NOT NULL,
	"vat" integer DEFAULT 0 NOT NULL,
	"withholding" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"payment_status" text DEFAULT 'pending' NOT NULL,
	"payment_type" text,
	"paid_at" timestamp with time zone,
	"charge_date" date,
	"footer" text,
	"rectifies_id" uuid,
	"rectification_method" text,
	"rectification_reason" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_seller_number_key" UNIQUE("seller_key","number"),
	CONSTRAINT "invoices_issued_numbered" CHECK ("invoices"."status" = 'draft' or ("invoices"."number" is not null and "invoices"."issue_date" is not null and "invoices"."sequence" is not null)),
	CONSTRAINT "invoices_rectifying" CHECK (("invoices"."kind" = 'rectifying') = ("invoices"."rectifies_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "therapist_billing" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"billing_full_name" text,
	"billing_tax_id" text,
	"billing_line1" text,
	"billing_line2" text,
	"billing_city" text,
	"billing_zip_code" text,
	"billing_country" text,
	"footer" text,
	"withholding_rate" integer DEFAULT 15 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "therapist_billing_withholding_rate" CHECK ("therapist_billing"."withholding_rate" in (7, 15))
);
--> statement-breakpoint
CREATE TABLE "verifactu_chains" (
	"issuer_tax_id" text PRIMARY KEY NOT NULL,
	"length" bigint NOT NULL,
	"last_fingerprint" text,
	"last_record_id" uuid
);
--> statement-breakpoint
CREATE TABLE "verifactu_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"issuer_tax_id" text NOT NULL,
	"issuer_name" text NOT NULL,
	"position" bigint NOT NULL,
	"record_type" text NOT NULL,
	"invoice_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"invoice_number" text NOT NULL,
	"issue_date" date NOT NULL,
	"invoice_type" text NOT NULL,
	"vat_total" integer NOT NULL,
	"total" integer NOT NULL,
	"previous_fingerprint" text,
	"fingerprint" text NOT NULL,
	"generated_at" text NOT NULL,
	"detail" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verifactu_records_chain_key" UNIQUE("issuer_tax_id","position")
);
--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "therapist_billing" ADD CONSTRAINT "therapist_billing_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifactu_records" ADD CONSTRAINT "verifactu_records_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_lines_session_idx" ON "invoice_lines" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "invoices_workspace_date_idx" ON "invoices" USING btree ("workspace_id","issue_date");--> statement-breakpoint
CREATE INDEX "invoices_workspace_owner_idx" ON "invoices" USING btree ("workspace_id","owner_id","issue_date");--> statement-breakpoint
CREATE INDEX "invoices_patient_idx" ON "invoices" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "verifactu_records_workspace_idx" ON "verifactu_records" USING btree ("workspace_id","issue_date");--> statement-breakpoint
-- Legal records are append-only in the database itself (ARCHITECTURE.md): VERI*FACTU records are never
-- changed; an issued invoice keeps everything but its payment fields; its lines are frozen with it.
CREATE FUNCTION "verifactu_records_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'verifactu_records is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;--> statement-breakpoint
CREATE TRIGGER "verifactu_records_no_update_delete" BEFORE UPDATE OR DELETE ON "verifactu_records" FOR EACH ROW EXECUTE FUNCTION "verifactu_records_append_only"();--> statement-breakpoint
CREATE TRIGGER "verifactu_records_no_truncate" BEFORE TRUNCATE ON "verifactu_records" FOR EACH STATEMENT EXECUTE FUNCTION "verifactu_records_append_only"();--> statement-breakpoint
CREATE FUNCTION "invoices_issued_frozen"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.status = 'issued' THEN
      RAISE EXCEPTION 'an issued invoice cannot be deleted' USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN OLD;
  END IF;
  IF OLD.status = 'issued' AND (
    NEW.status IS DISTINCT FROM OLD.status OR NEW.number IS DISTINCT FROM OLD.number OR NEW.sequence IS DISTINCT FROM OLD.sequence
    OR NEW.series IS DISTINCT FROM OLD.series OR NEW.issue_date IS DISTINCT FROM OLD.issue_date OR NEW.issued_at IS DISTINCT FROM OLD.issued_at
    OR NEW.buyer IS DISTINCT FROM OLD.buyer OR NEW.seller IS DISTINCT FROM OLD.seller OR NEW.seller_key IS DISTINCT FROM OLD.seller_key
    OR NEW.seller_type IS DISTINCT FROM OLD.seller_type OR NEW.subtotal IS DISTINCT FROM OLD.subtotal OR NEW.vat IS DISTINCT FROM OLD.vat
    OR NEW.withholding IS DISTINCT FROM OLD.withholding OR NEW.total IS DISTINCT FROM OLD.total OR NEW.footer IS DISTINCT FROM OLD.footer
    OR NEW.kind IS DISTINCT FROM OLD.kind OR NEW.rectifies_id IS DISTINCT FROM OLD.rectifies_id
    OR NEW.rectification_method IS DISTINCT FROM OLD.rectification_method OR NEW.rectification_reason IS DISTINCT FROM OLD.rectification_reason
    OR NEW.workspace_id IS DISTINCT FROM OLD.workspace_id OR NEW.owner_id IS DISTINCT FROM OLD.owner_id
  ) THEN
    RAISE EXCEPTION 'an issued invoice is corrected only by a rectifying invoice' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "invoices_frozen" BEFORE UPDATE OR DELETE ON "invoices" FOR EACH ROW EXECUTE FUNCTION "invoices_issued_frozen"();--> statement-breakpoint
CREATE FUNCTION "invoice_lines_frozen"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  parent uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.invoice_id ELSE NEW.invoice_id END;
BEGIN
  -- A session erased with its patient leaves the line, without its link.
  IF TG_OP = 'UPDATE' AND NEW.session_id IS NULL AND (to_jsonb(NEW) - 'session_id') = (to_jsonb(OLD) - 'session_id') THEN
    RETURN NEW;
  END IF;
  IF EXISTS (SELECT 1 FROM "invoices" WHERE "id" = parent AND "status" = 'issued') THEN
    RAISE EXCEPTION 'the lines of an issued invoice cannot change' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.invoice_id <> NEW.invoice_id AND EXISTS (SELECT 1 FROM "invoices" WHERE "id" = OLD.invoice_id AND "status" = 'issued') THEN
    RAISE EXCEPTION 'the lines of an issued invoice cannot change' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;--> statement-breakpoint
CREATE TRIGGER "invoice_lines_frozen" BEFORE INSERT OR UPDATE OR DELETE ON "invoice_lines" FOR EACH ROW EXECUTE FUNCTION "invoice_lines_frozen"();
