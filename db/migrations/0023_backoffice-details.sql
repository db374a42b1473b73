ALTER TABLE "booked_slots" ADD COLUMN "informed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "booked_slots" ADD COLUMN "informed_by" text;--> statement-breakpoint
ALTER TABLE "cancelled_bookings" ADD COLUMN "informed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cancelled_bookings" ADD COLUMN "informed_by" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "ended_by" text;--> statement-breakpoint
ALTER TABLE "booked_slots" ADD CONSTRAINT "booked_slots_informed_by_length" CHECK (char_length("booked_slots"."informed_by") <= 254);--> statement-breakpoint
ALTER TABLE "cancelled_bookings" ADD CONSTRAINT "cancelled_bookings_informed_by_length" CHECK (char_length("cancelled_bookings"."informed_by") <= 254);--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_name_length" CHECK (char_length("sessions"."name") <= 60);--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_ended_by_known" CHECK ("sessions"."ended_by" is null or "sessions"."ended_by" in ('owner', 'admin'));
