ALTER TABLE "verifactu_chains" ADD COLUMN "last_number" text;--> statement-breakpoint
ALTER TABLE "verifactu_chains" ADD COLUMN "last_issue_date" date;--> statement-breakpoint
ALTER TABLE "verifactu_chains" ADD COLUMN "previous_fingerprint" text;--> statement-breakpoint
ALTER TABLE "verifactu_chains" ADD COLUMN "previous_number" text;--> statement-breakpoint
ALTER TABLE "verifactu_chains" ADD COLUMN "previous_issue_date" date;--> statement-breakpoint
-- Existing chains: the head's last record's reference, from the record itself.
UPDATE "verifactu_chains" c SET "last_number" = r."invoice_number", "last_issue_date" = r."issue_date"
FROM "verifactu_records" r WHERE r."id" = c."last_record_id";
