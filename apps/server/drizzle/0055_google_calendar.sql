CREATE TABLE "google_busy_blocks" (
	"busy_calendar_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	CONSTRAINT "google_busy_blocks_busy_calendar_id_event_id_pk" PRIMARY KEY("busy_calendar_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "google_busy_calendars" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"connection_id" uuid NOT NULL,
	"calendar_id" text NOT NULL,
	"sync_token" text,
	"channel_id" text,
	"channel_token_hash" text,
	"channel_resource_id" text,
	"channel_expires_at" timestamp with time zone,
	"last_synced_at" timestamp with time zone,
	CONSTRAINT "google_busy_calendars_connection_calendar_key" UNIQUE("connection_id","calendar_id"),
	CONSTRAINT "google_busy_calendars_channel_key" UNIQUE("channel_id")
);
--> statement-breakpoint
CREATE TABLE "google_calendar_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"google_email" text,
	"refresh_token" text NOT NULL,
	"access_token" text,
	"access_expires_at" timestamp with time zone,
	"divan_calendar_id" text,
	"title_format" text DEFAULT 'initials' NOT NULL,
	"existing_synced_at" timestamp with time zone,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_synced_at" timestamp with time zone,
	CONSTRAINT "google_calendar_connections_member_key" UNIQUE("workspace_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "google_oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"code_verifier" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "google_session_events" (
	"connection_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"google_event_id" text NOT NULL,
	"etag" text,
	"meet_link" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "google_session_events_connection_id_session_id_pk" PRIMARY KEY("connection_id","session_id")
);
--> statement-breakpoint
ALTER TABLE "google_busy_blocks" ADD CONSTRAINT "google_busy_blocks_busy_calendar_id_google_busy_calendars_id_fk" FOREIGN KEY ("busy_calendar_id") REFERENCES "public"."google_busy_calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "google_busy_blocks" ADD CONSTRAINT "google_busy_blocks_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "google_busy_calendars" ADD CONSTRAINT "google_busy_calendars_connection_id_google_calendar_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."google_calendar_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "google_calendar_connections" ADD CONSTRAINT "google_calendar_connections_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "google_calendar_connections" ADD CONSTRAINT "google_calendar_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "google_oauth_states" ADD CONSTRAINT "google_oauth_states_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "google_oauth_states" ADD CONSTRAINT "google_oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "google_session_events" ADD CONSTRAINT "google_session_events_connection_id_google_calendar_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."google_calendar_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "google_busy_blocks_member_starts_idx" ON "google_busy_blocks" USING btree ("workspace_id","user_id","starts_at");--> statement-breakpoint
CREATE INDEX "google_session_events_session_idx" ON "google_session_events" USING btree ("session_id");