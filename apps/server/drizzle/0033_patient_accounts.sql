CREATE TABLE "patient_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"first_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patient_connections" (
	"patient_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"email" text NOT NULL,
	"token_hash" text,
	"invited_at" timestamp with time zone DEFAULT now() NOT NULL,
	"invited_by" uuid,
	"invite_expires_at" timestamp with time zone NOT NULL,
	"account_id" uuid,
	"connected_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "auth_challenges_link_key";--> statement-breakpoint
ALTER TABLE "auth_challenges" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "device_sessions" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "auth_challenges" ADD COLUMN "patient_account_id" uuid;--> statement-breakpoint
ALTER TABLE "device_sessions" ADD COLUMN "patient_account_id" uuid;--> statement-breakpoint
ALTER TABLE "patient_connections" ADD CONSTRAINT "patient_connections_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_connections" ADD CONSTRAINT "patient_connections_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_connections" ADD CONSTRAINT "patient_connections_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_connections" ADD CONSTRAINT "patient_connections_account_id_patient_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."patient_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "patient_accounts_email_key" ON "patient_accounts" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "patient_connections_token_key" ON "patient_connections" USING btree ("token_hash") WHERE "patient_connections"."token_hash" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "patient_connections_account_idx" ON "patient_connections" USING btree ("account_id");--> statement-breakpoint
ALTER TABLE "auth_challenges" ADD CONSTRAINT "auth_challenges_patient_account_id_patient_accounts_id_fk" FOREIGN KEY ("patient_account_id") REFERENCES "public"."patient_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_sessions" ADD CONSTRAINT "device_sessions_patient_account_id_patient_accounts_id_fk" FOREIGN KEY ("patient_account_id") REFERENCES "public"."patient_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_challenges_patient_account_idx" ON "auth_challenges" USING btree ("patient_account_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "device_sessions_patient_account_idx" ON "device_sessions" USING btree ("patient_account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_challenges_link_key" ON "auth_challenges" USING btree ("secret_hash") WHERE "auth_challenges"."kind" <> 'login' AND "auth_challenges"."kind" <> 'patient_login';--> statement-breakpoint
ALTER TABLE "auth_challenges" ADD CONSTRAINT "auth_challenges_one_subject" CHECK (("auth_challenges"."user_id" IS NULL) <> ("auth_challenges"."patient_account_id" IS NULL));--> statement-breakpoint
ALTER TABLE "device_sessions" ADD CONSTRAINT "device_sessions_one_subject" CHECK (("device_sessions"."user_id" IS NULL) <> ("device_sessions"."patient_account_id" IS NULL));