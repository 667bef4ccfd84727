CREATE TABLE "session_month_stats" (
	"workspace_id" uuid NOT NULL,
	"therapist_id" uuid NOT NULL,
	"month" date NOT NULL,
	"scheduled" integer NOT NULL,
	"pending" integer NOT NULL,
	"completed" integer NOT NULL,
	"canceled" integer NOT NULL,
	"by_patient" integer NOT NULL,
	"by_therapist" integer NOT NULL,
	"late" integer NOT NULL,
	"no_show" integer NOT NULL,
	"no_reason" integer NOT NULL,
	"online" integer NOT NULL,
	"presential" integer NOT NULL,
	"booked_minutes" numeric NOT NULL,
	"fee_cents" integer NOT NULL,
	"commission_cents" integer NOT NULL,
	"uninvoiced" integer NOT NULL,
	"uninvoiced_cents" integer NOT NULL,
	"pending_cents" integer NOT NULL,
	"heat" integer[] NOT NULL,
	"days" integer[] NOT NULL,
	CONSTRAINT "session_month_stats_pkey" PRIMARY KEY("workspace_id","month","therapist_id")
);
--> statement-breakpoint
CREATE TABLE "session_stats_dirty" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"month" date NOT NULL
);
--> statement-breakpoint
ALTER TABLE "session_month_stats" ADD CONSTRAINT "session_month_stats_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_stats_dirty_workspace_idx" ON "session_stats_dirty" USING btree ("workspace_id","month");--> statement-breakpoint
-- Hand-written (issue 28): every write of sessions, by any module, marks the local months (Madrid) it
-- touched as stale, one row per statement and month — appended, never upserted, so writers never wait
-- on each other. An update marks only when something the statistics count changed.
CREATE FUNCTION "session_stats_mark_new"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "session_stats_dirty" ("workspace_id", "month")
    SELECT DISTINCT "workspace_id", date_trunc('month', timezone('Europe/Madrid', "starts_at"))::date FROM "new_rows";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "session_stats_mark_old"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "session_stats_dirty" ("workspace_id", "month")
    SELECT DISTINCT "workspace_id", date_trunc('month', timezone('Europe/Madrid', "starts_at"))::date FROM "old_rows";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "session_stats_mark_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "session_stats_dirty" ("workspace_id", "month")
    SELECT DISTINCT v.w, date_trunc('month', timezone('Europe/Madrid', v.s))::date
    FROM "old_rows" o JOIN "new_rows" n ON n."id" = o."id"
    CROSS JOIN LATERAL (VALUES (o."workspace_id", o."starts_at"), (n."workspace_id", n."starts_at")) AS v(w, s)
    WHERE (o."workspace_id", o."therapist_id", o."starts_at", o."ends_at", o."status", o."cancellation_reason", o."modality", o."price", o."fee", o."invoiced")
      IS DISTINCT FROM (n."workspace_id", n."therapist_id", n."starts_at", n."ends_at", n."status", n."cancellation_reason", n."modality", n."price", n."fee", n."invoiced");
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "sessions_stats_insert" AFTER INSERT ON "sessions" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "session_stats_mark_new"();--> statement-breakpoint
CREATE TRIGGER "sessions_stats_update" AFTER UPDATE ON "sessions" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "session_stats_mark_changed"();--> statement-breakpoint
CREATE TRIGGER "sessions_stats_delete" AFTER DELETE ON "sessions" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "session_stats_mark_old"();--> statement-breakpoint
-- The sessions already written: every month of theirs is stale until the first refresh.
INSERT INTO "session_stats_dirty" ("workspace_id", "month")
  SELECT DISTINCT "workspace_id", date_trunc('month', timezone('Europe/Madrid', "starts_at"))::date FROM "sessions";
