-- What a signer gives (ID number, address, their signature) is stored encrypted with the workspace's key.
-- Consents were not released before this migration: there is nothing to carry over.
ALTER TABLE "consent_signers" DROP COLUMN "data";--> statement-breakpoint
ALTER TABLE "consent_signers" DROP COLUMN "signature";--> statement-breakpoint
ALTER TABLE "consent_signers" ADD COLUMN "data_enc" text;--> statement-breakpoint
ALTER TABLE "consent_signers" ADD COLUMN "signature_enc" text;--> statement-breakpoint
-- The therapist's signature on a sent consent is the sender's own, kept with the envelope.
ALTER TABLE "consent_envelopes" ADD COLUMN "therapist_signature" jsonb;
