CREATE TABLE "clinical_data_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"wrapped_key" text NOT NULL,
	"master_key_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rewrapped_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "clinical_data_keys_scope_uq" ON "clinical_data_keys" USING btree ("scope");