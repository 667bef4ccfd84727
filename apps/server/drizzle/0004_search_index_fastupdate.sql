DROP INDEX "patients_search_trgm_idx";--> statement-breakpoint
CREATE INDEX "patients_search_trgm_idx" ON "patients" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);