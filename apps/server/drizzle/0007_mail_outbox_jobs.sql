-- Mail written before the outbox was encrypted is dropped: it was sent, or shown at /dev/mail, already.
DELETE FROM "mail_outbox";--> statement-breakpoint
CREATE TABLE "job_claims" (
	"key" text PRIMARY KEY NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "mail_outbox_to_idx";--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "key" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "purpose" text NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "to_hash" text NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "payload_enc" text NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "status" text DEFAULT 'queued' NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "last_error" text;--> statement-breakpoint
CREATE UNIQUE INDEX "mail_outbox_key" ON "mail_outbox" USING btree ("key");--> statement-breakpoint
CREATE INDEX "mail_outbox_status_idx" ON "mail_outbox" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_to_idx" ON "mail_outbox" USING btree ("to_hash","created_at");--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP COLUMN "to";--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP COLUMN "subject";--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP COLUMN "text";--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP COLUMN "html";--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP COLUMN "error";