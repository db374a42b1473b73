CREATE TABLE "reminders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"send_at" timestamp with time zone NOT NULL,
	"key_id" text NOT NULL,
	"sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reminders_key_id_format" CHECK ("reminders"."key_id" ~ '^[0-9a-f]{16}$'),
	CONSTRAINT "reminders_sealed_format" CHECK ("reminders"."sealed" ~ '^[A-Za-z0-9_-]+$')
);
--> statement-breakpoint
ALTER TABLE "reminders" ADD CONSTRAINT "reminders_booking_id_booked_slots_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booked_slots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reminders_booking_idx" ON "reminders" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "reminders_send_at_idx" ON "reminders" USING btree ("send_at");