ALTER TABLE "verifactu_chains" ADD COLUMN "last_generated_at" timestamp with time zone;--> statement-breakpoint
-- Existing chains: the latest FechaHoraHusoGenRegistro (ISO 8601 with its offset) of their records, from the records themselves.
UPDATE "verifactu_chains" c SET "last_generated_at" = (SELECT max(r."generated_at"::timestamptz) FROM "verifactu_records" r WHERE r."issuer_tax_id" = c."issuer_tax_id");
