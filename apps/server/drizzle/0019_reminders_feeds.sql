CREATE TABLE "calendar_feeds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"show_full_names" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "member_notification_settings" (
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"reminder_offsets" jsonb NOT NULL,
	"notify_patient_canceled" boolean DEFAULT true NOT NULL,
	"notify_patient_booked" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_notification_settings_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id"),
	CONSTRAINT "member_notification_settings_offsets_array" CHECK (jsonb_typeof("member_notification_settings"."reminder_offsets") = 'array')
);
--> statement-breakpoint
CREATE TABLE "session_reminder_sends" (
	"session_id" uuid NOT NULL,
	"offset_minutes" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"outcome" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_reminder_sends_session_id_offset_minutes_starts_at_pk" PRIMARY KEY("session_id","offset_minutes","starts_at")
);
--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_notification_settings" ADD CONSTRAINT "member_notification_settings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_notification_settings" ADD CONSTRAINT "member_notification_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_reminder_sends" ADD CONSTRAINT "session_reminder_sends_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_feeds_token_key" ON "calendar_feeds" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_feeds_member_key" ON "calendar_feeds" USING btree ("workspace_id","user_id");--> statement-breakpoint
CREATE INDEX "sessions_reminders_due_idx" ON "sessions" USING btree ("starts_at") WHERE "sessions"."status" = 'pending' and "sessions"."reminders" <> '[]'::jsonb;