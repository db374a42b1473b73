-- Hand-trimmed: the generator's snapshot predated 0004-0006 and re-created their tables; only this migration's changes remain.
-- The reference default is volatile, so ADD COLUMN gives every existing booking its own random reference.
ALTER TABLE "booked_slots" DROP CONSTRAINT "booked_slots_token_hash_format";--> statement-breakpoint
ALTER TABLE "booked_slots" ALTER COLUMN "cancellation_token_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "blocked_dates" ADD COLUMN "start_time" time;--> statement-breakpoint
ALTER TABLE "blocked_dates" ADD COLUMN "end_time" time;--> statement-breakpoint
ALTER TABLE "booked_slots" ADD COLUMN "source" text DEFAULT 'online' NOT NULL;--> statement-breakpoint
ALTER TABLE "booked_slots" ADD COLUMN "reference" text DEFAULT substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', floor(random() * 31)::int + 1, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', floor(random() * 31)::int + 1, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', floor(random() * 31)::int + 1, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', floor(random() * 31)::int + 1, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', floor(random() * 31)::int + 1, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', floor(random() * 31)::int + 1, 1) NOT NULL;--> statement-breakpoint
ALTER TABLE "booked_slots" ADD COLUMN "practice_notified" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "booked_slots_reference_idx" ON "booked_slots" USING btree ("reference");--> statement-breakpoint
ALTER TABLE "blocked_dates" ADD CONSTRAINT "blocked_dates_time_range" CHECK (("blocked_dates"."start_time" is null and "blocked_dates"."end_time" is null) or ("blocked_dates"."start_time" is not null and "blocked_dates"."end_time" is not null and "blocked_dates"."start_time" < "blocked_dates"."end_time"));--> statement-breakpoint
ALTER TABLE "booked_slots" ADD CONSTRAINT "booked_slots_source_known" CHECK ("booked_slots"."source" in ('online', 'phone'));--> statement-breakpoint
ALTER TABLE "booked_slots" ADD CONSTRAINT "booked_slots_token_iff_online" CHECK (("booked_slots"."source" = 'online') = ("booked_slots"."cancellation_token_hash" is not null));--> statement-breakpoint
ALTER TABLE "booked_slots" ADD CONSTRAINT "booked_slots_reference_format" CHECK ("booked_slots"."reference" ~ '^[2-9A-HJKMNP-Z]{6}$');--> statement-breakpoint
ALTER TABLE "booked_slots" ADD CONSTRAINT "booked_slots_token_hash_format" CHECK ("booked_slots"."cancellation_token_hash" is null or "booked_slots"."cancellation_token_hash" ~ '^[0-9a-f]{64}$');
