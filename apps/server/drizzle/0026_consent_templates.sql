CREATE TABLE "consent_template_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"template_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"content" jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consent_template_versions_template_version_key" UNIQUE("template_id","version")
);
--> statement-breakpoint
CREATE TABLE "consent_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"current_version" integer NOT NULL,
	"name" text NOT NULL,
	"document_title" text NOT NULL,
	"search_text" text NOT NULL,
	"ready_made_key" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	"archived_by" uuid
);
--> statement-breakpoint
ALTER TABLE "consent_template_versions" ADD CONSTRAINT "consent_template_versions_template_id_consent_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."consent_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_templates" ADD CONSTRAINT "consent_templates_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_templates" ADD CONSTRAINT "consent_templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_templates" ADD CONSTRAINT "consent_templates_archived_by_users_id_fk" FOREIGN KEY ("archived_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consent_templates_workspace_name_idx" ON "consent_templates" USING btree ("workspace_id","name");--> statement-breakpoint
CREATE INDEX "consent_templates_workspace_updated_idx" ON "consent_templates" USING btree ("workspace_id","updated_at");--> statement-breakpoint
CREATE INDEX "consent_templates_search_trgm_idx" ON "consent_templates" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
-- A template's version is what a consent sent with it shows and is sealed with: once written it never
-- changes (an edit is a new version). Rows go only with their template, which is archived, not deleted.
CREATE FUNCTION "consent_template_versions_frozen"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'consent_template_versions are frozen (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "consent_template_versions_no_update" BEFORE UPDATE ON "consent_template_versions" FOR EACH ROW EXECUTE FUNCTION "consent_template_versions_frozen"();
