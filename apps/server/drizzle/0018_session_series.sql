CREATE TABLE "session_series" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"therapist_id" uuid NOT NULL,
	"frequency" text NOT NULL,
	"start_day" date NOT NULL,
	"start_time" text NOT NULL,
	"duration_minutes" integer NOT NULL,
	"time_zone" text NOT NULL,
	"monthly_week" integer,
	"until_day" date,
	"count" integer,
	"fields" jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_series_one_end" CHECK (("session_series"."until_day" is null) <> ("session_series"."count" is null))
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "series_id" uuid;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "series_index" integer;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "series_original_day" date;--> statement-breakpoint
ALTER TABLE "session_series" ADD CONSTRAINT "session_series_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_series" ADD CONSTRAINT "session_series_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_series" ADD CONSTRAINT "session_series_therapist_id_users_id_fk" FOREIGN KEY ("therapist_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_series_workspace_idx" ON "session_series" USING btree ("workspace_id","patient_id");--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_series_id_session_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."session_series"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_series_index_key" UNIQUE("series_id","series_index");