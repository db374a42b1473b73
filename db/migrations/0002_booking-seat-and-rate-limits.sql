CREATE TABLE "rate_limits" (
	"bucket" text NOT NULL,
	"key_hash" text NOT NULL,
	"hits" timestamp with time zone[] NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "rate_limits_bucket_key_hash_pk" PRIMARY KEY("bucket","key_hash"),
	CONSTRAINT "rate_limits_key_hash_format" CHECK ("rate_limits"."key_hash" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
DROP INDEX "booked_slots_type_date_time_idx";--> statement-breakpoint
ALTER TABLE "booked_slots" ADD COLUMN "seat" smallint;--> statement-breakpoint
-- Hand-added: existing bookings take seats 1, 2, ... in the order they were made.
UPDATE "booked_slots" AS b SET "seat" = n.seat FROM (
	SELECT "id", row_number() OVER (PARTITION BY "appointment_type_id", "appointment_date", "appointment_time" ORDER BY "created_at", "id") AS seat
	FROM "booked_slots"
) AS n WHERE n."id" = b."id";--> statement-breakpoint
ALTER TABLE "booked_slots" ALTER COLUMN "seat" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "rate_limits_expires_at_idx" ON "rate_limits" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "booked_slots_type_date_time_seat_idx" ON "booked_slots" USING btree ("appointment_type_id","appointment_date","appointment_time","seat");--> statement-breakpoint
ALTER TABLE "booked_slots" ADD CONSTRAINT "booked_slots_seat_range" CHECK ("booked_slots"."seat" between 1 and 10);