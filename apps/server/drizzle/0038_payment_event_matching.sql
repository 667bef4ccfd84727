CREATE TABLE "booking_checkouts" (
	"checkout_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"hold_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"amount" integer,
	"currency" text DEFAULT 'eur' NOT NULL,
	"customer_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD COLUMN "currency" text DEFAULT 'eur' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_events" ADD COLUMN "ignored" text;--> statement-breakpoint
ALTER TABLE "booking_checkouts" ADD CONSTRAINT "booking_checkouts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;