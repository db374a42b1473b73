ALTER TABLE "appointment_types" ADD COLUMN "online_bookable" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "label" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "invitation_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_label_length" CHECK (length("audit_log"."label") between 1 and 200);--> statement-breakpoint
-- Hand-written backfill: an invitation never used by an account that never used any link is still pending.
-- (Before this release a link was marked used only when claimed or when a newer link of its purpose replaced it,
-- and invitations were never sent twice, so an unused invitation means the colleague never set a password through it.)
UPDATE "users" SET "invitation_pending" = true
WHERE EXISTS (SELECT 1 FROM "password_tokens" t WHERE t."user_id" = "users"."id" AND t."purpose" = 'invitation' AND t."used_at" IS NULL)
  AND NOT EXISTS (SELECT 1 FROM "password_tokens" t WHERE t."user_id" = "users"."id" AND t."used_at" IS NOT NULL);
