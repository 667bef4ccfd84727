CREATE TABLE "measure_schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"therapist_id" uuid,
	"measure" text NOT NULL,
	"cadence" text NOT NULL,
	"every_weeks" integer,
	"status" text DEFAULT 'active' NOT NULL,
	"sessions_counted" integer DEFAULT 0 NOT NULL,
	"last_sent_at" timestamp with time zone,
	"stopped_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "measure_schedules" ADD CONSTRAINT "measure_schedules_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measure_schedules" ADD CONSTRAINT "measure_schedules_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measure_schedules" ADD CONSTRAINT "measure_schedules_therapist_id_users_id_fk" FOREIGN KEY ("therapist_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "measure_schedules_open_key" ON "measure_schedules" USING btree ("workspace_id","patient_id","measure") WHERE "measure_schedules"."status" <> 'stopped';--> statement-breakpoint
CREATE INDEX "measure_schedules_active_idx" ON "measure_schedules" USING btree ("status","id");