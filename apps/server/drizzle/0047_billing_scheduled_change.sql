ALTER TABLE "billing_subscriptions" ADD COLUMN "scheduled_plan_id" text;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD COLUMN "scheduled_interval" text;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD COLUMN "scheduled_at" timestamp with time zone;