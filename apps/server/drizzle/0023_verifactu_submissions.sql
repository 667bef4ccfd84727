CREATE TABLE "verifactu_senders" (
	"issuer_tax_id" text PRIMARY KEY NOT NULL,
	"sent_through" bigint DEFAULT 0 NOT NULL,
	"not_before" timestamp with time zone,
	"failures" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verifactu_submissions" (
	"record_id" uuid PRIMARY KEY NOT NULL,
	"issuer_tax_id" text NOT NULL,
	"position" bigint NOT NULL,
	"invoice_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"csv" text,
	"error_code" text,
	"error_description" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "verifactu_submissions" ADD CONSTRAINT "verifactu_submissions_record_id_verifactu_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."verifactu_records"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verifactu_submissions_state_idx" ON "verifactu_submissions" USING btree ("issuer_tax_id","state","position");--> statement-breakpoint
CREATE INDEX "verifactu_submissions_invoice_idx" ON "verifactu_submissions" USING btree ("invoice_id");