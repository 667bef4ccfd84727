CREATE TABLE "invoice_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"holder_key" text NOT NULL,
	"account_id" text NOT NULL,
	"kind" text NOT NULL,
	"attempt" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"checkout_id" text,
	"intent_id" text,
	"amount" integer NOT NULL,
	"status" text NOT NULL,
	"error_code" text,
	"decline_code" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_payments_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "invoice_payments_checkout_id_unique" UNIQUE("checkout_id"),
	CONSTRAINT "invoice_payments_intent_id_unique" UNIQUE("intent_id"),
	CONSTRAINT "invoice_payments_attempt_key" UNIQUE("invoice_id","kind","attempt")
);
--> statement-breakpoint
CREATE TABLE "patient_cards" (
	"patient_id" uuid NOT NULL,
	"holder_key" text NOT NULL,
	"workspace_id" uuid NOT NULL,
	"account_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"payment_method_id" text,
	"brand" text,
	"last4" text,
	"exp_month" integer,
	"exp_year" integer,
	"auto_charge" boolean DEFAULT true NOT NULL,
	"mandate_accepted_at" timestamp with time zone,
	"card_set_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patient_cards_patient_id_holder_key_pk" PRIMARY KEY("patient_id","holder_key"),
	CONSTRAINT "patient_cards_customer_key" UNIQUE("account_id","customer_id")
);
--> statement-breakpoint
CREATE TABLE "payment_accounts" (
	"holder_key" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"account_id" text NOT NULL,
	"details_submitted" boolean DEFAULT false NOT NULL,
	"charges_enabled" boolean DEFAULT false NOT NULL,
	"payouts_enabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_accounts_account_id_unique" UNIQUE("account_id")
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"account" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"workspace_id" uuid NOT NULL,
	"holder_key" text NOT NULL,
	"patient_id" uuid,
	"invoice_id" uuid,
	"mailed_to" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_links_target" CHECK (("payment_links"."kind" = 'card') = ("payment_links"."patient_id" is not null and "payment_links"."invoice_id" is null))
);
--> statement-breakpoint
CREATE TABLE "payment_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"payment_id" uuid NOT NULL,
	"refund_id" text,
	"amount" integer NOT NULL,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"rectifying_invoice_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_refunds_refund_id_unique" UNIQUE("refund_id"),
	CONSTRAINT "payment_refunds_amount" CHECK ("payment_refunds"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "session_pack_uses" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"pack_id" uuid NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_packs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"therapist_id" uuid NOT NULL,
	"name" text NOT NULL,
	"sessions_total" integer NOT NULL,
	"price_cents" integer NOT NULL,
	"invoice_id" uuid,
	"expires_on" date,
	"refunded_sessions" integer DEFAULT 0 NOT NULL,
	"refund_invoice_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_packs_sessions" CHECK ("session_packs"."sessions_total" between 1 and 100 and "session_packs"."refunded_sessions" between 0 and "session_packs"."sessions_total"),
	CONSTRAINT "session_packs_price" CHECK ("session_packs"."price_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "sandbox_stripe_objects" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"account" text,
	"data" jsonb NOT NULL,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_cards" ADD CONSTRAINT "patient_cards_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_cards" ADD CONSTRAINT "patient_cards_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_payment_id_invoice_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."invoice_payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_pack_uses" ADD CONSTRAINT "session_pack_uses_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_pack_uses" ADD CONSTRAINT "session_pack_uses_pack_id_session_packs_id_fk" FOREIGN KEY ("pack_id") REFERENCES "public"."session_packs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_packs" ADD CONSTRAINT "session_packs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_packs" ADD CONSTRAINT "session_packs_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_packs" ADD CONSTRAINT "session_packs_therapist_id_users_id_fk" FOREIGN KEY ("therapist_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_packs" ADD CONSTRAINT "session_packs_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_payments_invoice_idx" ON "invoice_payments" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "payment_links_patient_idx" ON "payment_links" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "payment_refunds_invoice_idx" ON "payment_refunds" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "session_pack_uses_pack_idx" ON "session_pack_uses" USING btree ("pack_id");--> statement-breakpoint
CREATE INDEX "session_packs_patient_idx" ON "session_packs" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "sandbox_stripe_objects_type_idx" ON "sandbox_stripe_objects" USING btree ("type","account");--> statement-breakpoint
CREATE INDEX "sandbox_stripe_objects_idem_idx" ON "sandbox_stripe_objects" USING btree ("account","idempotency_key");