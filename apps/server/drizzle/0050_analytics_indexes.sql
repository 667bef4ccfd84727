CREATE INDEX "invoices_workspace_paid_idx" ON "invoices" USING btree ("workspace_id","paid_at") WHERE "invoices"."status" = 'issued' and "invoices"."payment_status" = 'paid';--> statement-breakpoint
CREATE INDEX "invoices_workspace_owed_idx" ON "invoices" USING btree ("workspace_id","issue_date") WHERE "invoices"."status" = 'issued' and "invoices"."kind" = 'ordinary' and "invoices"."payment_status" = 'pending';--> statement-breakpoint
-- Hand-written (drizzle cannot declare INCLUDE): the calendar's range index, same key, now also carrying
-- what the statistics sum, so a workspace-wide period is an index-only scan (issue 28).
DROP INDEX "sessions_workspace_starts_idx";--> statement-breakpoint
CREATE INDEX "sessions_workspace_starts_idx" ON "sessions" USING btree ("workspace_id","starts_at") INCLUDE ("therapist_id","patient_id","status","cancellation_reason","modality","ends_at","price","fee","invoiced");
