CREATE TABLE "history_drafts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"entry_id" uuid,
	"content_enc" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "history_drafts_author_entry_key" UNIQUE NULLS NOT DISTINCT("patient_id","author_id","entry_id")
);
--> statement-breakpoint
ALTER TABLE "patient_documents" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patient_documents" ADD COLUMN "deleted_by" uuid;--> statement-breakpoint
ALTER TABLE "history_entries" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "history_entries" ADD COLUMN "deleted_by" uuid;--> statement-breakpoint
ALTER TABLE "history_drafts" ADD CONSTRAINT "history_drafts_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "history_drafts" ADD CONSTRAINT "history_drafts_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "history_drafts" ADD CONSTRAINT "history_drafts_entry_id_history_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."history_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "history_drafts_updated_idx" ON "history_drafts" USING btree ("updated_at");