CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "clinical_access_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"patient_name" text NOT NULL,
	"user_id" uuid NOT NULL,
	"action" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "history_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"entry_date" date NOT NULL,
	"title_enc" text NOT NULL,
	"body_enc" text NOT NULL,
	"private" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "history_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entry_id" uuid NOT NULL,
	"editor_id" uuid NOT NULL,
	"entry_date" date NOT NULL,
	"title_enc" text NOT NULL,
	"body_enc" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"assigned_therapist_id" uuid,
	"first_name" text NOT NULL,
	"last_name" text,
	"email" text,
	"phone" text,
	"birthdate" date,
	"gender" text,
	"picture_file_id" uuid,
	"billing_full_name" text,
	"billing_tax_id" text,
	"billing_line1" text,
	"billing_line2" text,
	"billing_city" text,
	"billing_zip_code" text,
	"billing_country" text,
	"treatment_status" text DEFAULT 'active' NOT NULL,
	"treatment_start_date" date,
	"treatment_end_date" date,
	"treatment_ending_reason" text,
	"treatment_motive" text,
	"treatment_session_type" text,
	"treatment_medication" text,
	"treatment_referral_source" text,
	"insurance_company" text,
	"insurance_policy" text,
	"session_price" integer,
	"session_modality" text,
	"search_text" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"blocked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "history_entries" ADD CONSTRAINT "history_entries_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "history_revisions" ADD CONSTRAINT "history_revisions_entry_id_history_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."history_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_assigned_therapist_id_users_id_fk" FOREIGN KEY ("assigned_therapist_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "clinical_access_log_workspace_idx" ON "clinical_access_log" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "clinical_access_log_patient_idx" ON "clinical_access_log" USING btree ("patient_id","created_at");--> statement-breakpoint
CREATE INDEX "history_entries_patient_idx" ON "history_entries" USING btree ("patient_id","entry_date");--> statement-breakpoint
CREATE INDEX "history_revisions_entry_idx" ON "history_revisions" USING btree ("entry_id","created_at");--> statement-breakpoint
CREATE INDEX "patients_workspace_status_name_idx" ON "patients" USING btree ("workspace_id","treatment_status","last_name","first_name");--> statement-breakpoint
CREATE INDEX "patients_workspace_name_idx" ON "patients" USING btree ("workspace_id","last_name","first_name");--> statement-breakpoint
CREATE INDEX "patients_workspace_therapist_idx" ON "patients" USING btree ("workspace_id","assigned_therapist_id","treatment_status");--> statement-breakpoint
CREATE INDEX "patients_search_trgm_idx" ON "patients" USING gin ("search_text" gin_trgm_ops);