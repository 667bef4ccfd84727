CREATE TABLE "billing_vat_checks" (
	"workspace_id" uuid PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"status" text NOT NULL,
	"verified_name" text,
	"checked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_vat_checks" ADD CONSTRAINT "billing_vat_checks_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;