CREATE TABLE "invoice_month_stats" (
	"workspace_id" uuid NOT NULL,
	"month" date NOT NULL,
	"seller_type" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"payment_type" text NOT NULL,
	"issued_cents" integer NOT NULL,
	"issued_count" integer NOT NULL,
	"collected_cents" integer NOT NULL,
	"collected_count" integer NOT NULL,
	CONSTRAINT "invoice_month_stats_pkey" PRIMARY KEY("workspace_id","month","seller_type","owner_id","payment_type")
);
--> statement-breakpoint
CREATE TABLE "invoice_stats_dirty" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"month" date NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoice_month_stats" ADD CONSTRAINT "invoice_month_stats_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_stats_dirty_workspace_idx" ON "invoice_stats_dirty" USING btree ("workspace_id","month");--> statement-breakpoint
-- Hand-written (issue 28): every write of an invoice that is not a draft, by any module (issuing,
-- paying, refunds, voiding), marks the months it counts in as stale — its issue date's and, once paid,
-- the local month (Madrid) of the instant paid — one row per statement and month, appended, never
-- upserted. An update marks only when something the statistics count changed.
CREATE FUNCTION "invoice_stats_months"("w" uuid, "status" text, "issue_date" date, "paid_at" timestamptz)
  RETURNS TABLE ("workspace_id" uuid, "month" date) LANGUAGE sql STABLE AS $$
  SELECT w, m FROM (VALUES (date_trunc('month', issue_date)::date), (date_trunc('month', timezone('Europe/Madrid', paid_at))::date)) AS v(m)
   WHERE status <> 'draft' AND m IS NOT NULL
$$;--> statement-breakpoint
CREATE FUNCTION "invoice_stats_mark_new"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "invoice_stats_dirty" ("workspace_id", "month")
    SELECT DISTINCT m."workspace_id", m."month" FROM "new_rows" n
    CROSS JOIN LATERAL "invoice_stats_months"(n."workspace_id", n."status", n."issue_date", n."paid_at") m;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "invoice_stats_mark_old"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "invoice_stats_dirty" ("workspace_id", "month")
    SELECT DISTINCT m."workspace_id", m."month" FROM "old_rows" o
    CROSS JOIN LATERAL "invoice_stats_months"(o."workspace_id", o."status", o."issue_date", o."paid_at") m;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "invoice_stats_mark_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "invoice_stats_dirty" ("workspace_id", "month")
    SELECT DISTINCT m."workspace_id", m."month"
    FROM "old_rows" o JOIN "new_rows" n ON n."id" = o."id"
    CROSS JOIN LATERAL (VALUES (o."workspace_id", o."status", o."issue_date", o."paid_at"), (n."workspace_id", n."status", n."issue_date", n."paid_at")) AS v(w, s, d, p)
    CROSS JOIN LATERAL "invoice_stats_months"(v.w, v.s, v.d, v.p) m
    WHERE (o."workspace_id", o."owner_id", o."seller_type", o."status", o."kind", o."issue_date", o."total", o."payment_status", o."payment_type", o."paid_at", o."rectifies_id", o."rectification_method")
      IS DISTINCT FROM (n."workspace_id", n."owner_id", n."seller_type", n."status", n."kind", n."issue_date", n."total", n."payment_status", n."payment_type", n."paid_at", n."rectifies_id", n."rectification_method");
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "invoices_stats_insert" AFTER INSERT ON "invoices" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "invoice_stats_mark_new"();--> statement-breakpoint
CREATE TRIGGER "invoices_stats_update" AFTER UPDATE ON "invoices" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "invoice_stats_mark_changed"();--> statement-breakpoint
CREATE TRIGGER "invoices_stats_delete" AFTER DELETE ON "invoices" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "invoice_stats_mark_old"();--> statement-breakpoint
-- The invoices already written: every month of theirs is stale until the first refresh.
INSERT INTO "invoice_stats_dirty" ("workspace_id", "month")
  SELECT DISTINCT m."workspace_id", m."month" FROM "invoices" i
  CROSS JOIN LATERAL "invoice_stats_months"(i."workspace_id", i."status", i."issue_date", i."paid_at") m;
