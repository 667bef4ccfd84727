CREATE TABLE "availability_overrides" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"therapist_id" uuid NOT NULL,
	"day" date NOT NULL,
	"all_day" boolean DEFAULT true NOT NULL,
	"from_time" text,
	"to_time" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "availability_overrides_day_key" UNIQUE("workspace_id","therapist_id","day")
);
--> statement-breakpoint
CREATE TABLE "booking_services" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"therapist_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"schedule" jsonb NOT NULL,
	"time_zone" text NOT NULL,
	"price_cents" integer NOT NULL,
	"modality" text NOT NULL,
	"location_id" uuid,
	"duration_minutes" integer NOT NULL,
	"gap_minutes" integer DEFAULT 0 NOT NULL,
	"min_notice" jsonb NOT NULL,
	"max_notice" jsonb NOT NULL,
	"reminders" jsonb NOT NULL,
	"allow_new_patients" boolean DEFAULT true NOT NULL,
	"booking_limit_per_patient" integer,
	"status" text DEFAULT 'active' NOT NULL,
	"payment" text DEFAULT 'none' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_services_title_key" UNIQUE("workspace_id","therapist_id","title")
);
--> statement-breakpoint
ALTER TABLE "availability_overrides" ADD CONSTRAINT "availability_overrides_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "availability_overrides" ADD CONSTRAINT "availability_overrides_therapist_id_users_id_fk" FOREIGN KEY ("therapist_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_services" ADD CONSTRAINT "booking_services_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_services" ADD CONSTRAINT "booking_services_therapist_id_users_id_fk" FOREIGN KEY ("therapist_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_services" ADD CONSTRAINT "booking_services_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE set null ON UPDATE no action;