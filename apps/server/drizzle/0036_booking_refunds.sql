ALTER TABLE "public_bookings" ADD COLUMN "payment_account_id" text;--> statement-breakpoint
ALTER TABLE "public_bookings" ADD COLUMN "payment_intent_id" text;--> statement-breakpoint
ALTER TABLE "public_bookings" ADD COLUMN "paid_amount" integer;--> statement-breakpoint
ALTER TABLE "public_bookings" ADD COLUMN "refunded_at" timestamp with time zone;