CREATE TABLE "chat_conversations" (
	"patient_file_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"last_message_at" timestamp with time zone NOT NULL,
	"last_message_id" uuid NOT NULL,
	"members_read_at" timestamp with time zone,
	"members_read_id" uuid,
	"patient_read_at" timestamp with time zone,
	"patient_read_id" uuid
);
--> statement-breakpoint
CREATE TABLE "chat_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"patient_file_id" uuid NOT NULL,
	"sender_kind" text NOT NULL,
	"sender_id" uuid NOT NULL,
	"body_enc" text NOT NULL,
	"attachment_document_id" uuid,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_conversations" ADD CONSTRAINT "chat_conversations_patient_file_id_patients_id_fk" FOREIGN KEY ("patient_file_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_conversations" ADD CONSTRAINT "chat_conversations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_patient_file_id_patients_id_fk" FOREIGN KEY ("patient_file_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_attachment_document_id_patient_documents_id_fk" FOREIGN KEY ("attachment_document_id") REFERENCES "public"."patient_documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_conversations_workspace_last_idx" ON "chat_conversations" USING btree ("workspace_id","last_message_at");--> statement-breakpoint
CREATE INDEX "chat_messages_file_keyset_idx" ON "chat_messages" USING btree ("patient_file_id","created_at","id");--> statement-breakpoint
CREATE INDEX "chat_messages_file_sender_idx" ON "chat_messages" USING btree ("patient_file_id","sender_kind","created_at","id");