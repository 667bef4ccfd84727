ALTER TABLE "referrals" ADD COLUMN "refused_reason" text;--> statement-breakpoint
ALTER TABLE "referrals" ADD COLUMN "refused_at" timestamp with time zone;