CREATE TABLE "measure_administrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"therapist_id" uuid,
	"measure" text NOT NULL,
	"mode" text NOT NULL,
	"status" text NOT NULL,
	"token_hash" text,
	"expires_at" timestamp with time zone,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reminded_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"result_enc" text,
	"risk_flagged" boolean DEFAULT false NOT NULL,
	"risk_reviewed_at" timestamp with time zone,
	"risk_reviewed_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "measure_administrations_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "measure_administrations" ADD CONSTRAINT "measure_administrations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measure_administrations" ADD CONSTRAINT "measure_administrations_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measure_administrations" ADD CONSTRAINT "measure_administrations_therapist_id_users_id_fk" FOREIGN KEY ("therapist_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measure_administrations" ADD CONSTRAINT "measure_administrations_risk_reviewed_by_users_id_fk" FOREIGN KEY ("risk_reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "measure_administrations_patient_idx" ON "measure_administrations" USING btree ("patient_id","measure","completed_at");--> statement-breakpoint
CREATE INDEX "measure_administrations_pending_idx" ON "measure_administrations" USING btree ("status","sent_at");--> statement-breakpoint
CREATE INDEX "measure_administrations_flags_idx" ON "measure_administrations" USING btree ("workspace_id","risk_flagged","risk_reviewed_at");