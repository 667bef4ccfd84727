ALTER TABLE "patients" ADD COLUMN "treatment_medication_enc" text;--> statement-breakpoint
CREATE INDEX "patients_tax_id_trgm_idx" ON "patients" USING gin ("billing_tax_id" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
-- The search text no longer carries the tax id (billing data; searched in its own column by those who read billing).
-- It was the last word of search_text, lower-cased (searchTextOf in patients.repository.ts).
UPDATE "patients" SET "search_text" = left("search_text", length("search_text") - length("billing_tax_id") - 1)
  WHERE "billing_tax_id" IS NOT NULL AND right("search_text", length("billing_tax_id") + 1) = ' ' || lower("billing_tax_id");
-- "treatment_medication" is NOT dropped here: SQL cannot encrypt with the application's keys. At start-up the
-- patients service encrypts its values into "treatment_medication_enc" and then drops it, in one transaction
-- (encryptClearMedication in modules/patients/patient-medication.ts). The snapshot already shows it gone.
