ALTER TABLE "email_outbox" ADD COLUMN "channel" text DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_channel_known" CHECK ("email_outbox"."channel" in ('email', 'sms'));--> statement-breakpoint
DROP INDEX IF EXISTS "email_outbox_provider_id_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "email_outbox_channel_provider_id_idx" ON "email_outbox" USING btree ("channel","provider_id");
