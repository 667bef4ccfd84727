-- Issue 31, shard-ready keys: workspace_id leads three unique keys whose other columns already name one workspace's row (a series, an invoice, a patient), so each key is the same; db/shard-ready.test.ts lists the rest.
ALTER TABLE "history_drafts" DROP CONSTRAINT "history_drafts_author_entry_key";--> statement-breakpoint
ALTER TABLE "invoice_payments" DROP CONSTRAINT "invoice_payments_attempt_key";--> statement-breakpoint
ALTER TABLE "sessions" DROP CONSTRAINT "sessions_series_index_key";--> statement-breakpoint
ALTER TABLE "history_drafts" ADD CONSTRAINT "history_drafts_author_entry_key" UNIQUE NULLS NOT DISTINCT("workspace_id","patient_id","author_id","entry_id");--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_attempt_key" UNIQUE("workspace_id","invoice_id","kind","attempt");--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_series_index_key" UNIQUE("workspace_id","series_id","series_index");