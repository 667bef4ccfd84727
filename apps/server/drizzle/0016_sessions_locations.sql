CREATE TABLE "locations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text DEFAULT 'room' NOT NULL,
	"address" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"therapist_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"time_zone" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"cancellation_reason" text,
	"canceled_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"price" integer NOT NULL,
	"fee" integer,
	"payments_receiver" text NOT NULL,
	"payment_status" text DEFAULT 'pending' NOT NULL,
	"payment_type" text,
	"paid_at" timestamp with time zone,
	"modality" text NOT NULL,
	"location_id" uuid,
	"reminders" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"invoiced" boolean DEFAULT false NOT NULL,
	"charge_date" date,
	"video_conference" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sessions_ends_after_start" CHECK ("sessions"."ends_at" > "sessions"."starts_at")
);
--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_therapist_id_users_id_fk" FOREIGN KEY ("therapist_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "locations_workspace_idx" ON "locations" USING btree ("workspace_id","name");--> statement-breakpoint
CREATE INDEX "sessions_workspace_starts_idx" ON "sessions" USING btree ("workspace_id","starts_at");--> statement-breakpoint
CREATE INDEX "sessions_workspace_therapist_starts_idx" ON "sessions" USING btree ("workspace_id","therapist_id","starts_at");--> statement-breakpoint
CREATE INDEX "sessions_patient_starts_idx" ON "sessions" USING btree ("patient_id","starts_at");--> statement-breakpoint
CREATE INDEX "sessions_location_starts_idx" ON "sessions" USING btree ("location_id","starts_at") WHERE "sessions"."location_id" is not null;