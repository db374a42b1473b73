CREATE TABLE "email_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"audience" text NOT NULL,
	"booking_id" uuid,
	"key_id" text,
	"sealed" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"provider_id" text,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"event_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_outbox_status_known" CHECK ("email_outbox"."status" in ('pending', 'sent', 'delivered', 'bounced', 'complained', 'failed')),
	CONSTRAINT "email_outbox_audience_known" CHECK ("email_outbox"."audience" in ('patient', 'practice', 'staff')),
	CONSTRAINT "email_outbox_kind_format" CHECK ("email_outbox"."kind" ~ '^[a-z0-9-]{1,40}$'),
	CONSTRAINT "email_outbox_sealed_with_key" CHECK (("email_outbox"."sealed" is null) = ("email_outbox"."key_id" is null)),
	CONSTRAINT "email_outbox_key_id_format" CHECK ("email_outbox"."key_id" is null or "email_outbox"."key_id" ~ '^[0-9a-f]{16}$'),
	CONSTRAINT "email_outbox_sealed_format" CHECK ("email_outbox"."sealed" is null or "email_outbox"."sealed" ~ '^[A-Za-z0-9_-]+$'),
	CONSTRAINT "email_outbox_pending_has_body" CHECK ("email_outbox"."status" <> 'pending' or "email_outbox"."sealed" is not null)
);
--> statement-breakpoint
ALTER TABLE "cancelled_bookings" ADD COLUMN "contact_key_id" text;--> statement-breakpoint
ALTER TABLE "cancelled_bookings" ADD COLUMN "contact_sealed" text;--> statement-breakpoint
CREATE INDEX "email_outbox_due_idx" ON "email_outbox" USING btree ("next_attempt_at") WHERE "email_outbox"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "email_outbox_booking_idx" ON "email_outbox" USING btree ("booking_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "email_outbox_provider_id_idx" ON "email_outbox" USING btree ("provider_id");--> statement-breakpoint
ALTER TABLE "cancelled_bookings" ADD CONSTRAINT "cancelled_bookings_contact_sealed_with_key" CHECK (("cancelled_bookings"."contact_sealed" is null) = ("cancelled_bookings"."contact_key_id" is null));--> statement-breakpoint
ALTER TABLE "cancelled_bookings" ADD CONSTRAINT "cancelled_bookings_contact_key_id_format" CHECK ("cancelled_bookings"."contact_key_id" is null or "cancelled_bookings"."contact_key_id" ~ '^[0-9a-f]{16}$');--> statement-breakpoint
ALTER TABLE "cancelled_bookings" ADD CONSTRAINT "cancelled_bookings_contact_sealed_format" CHECK ("cancelled_bookings"."contact_sealed" is null or "cancelled_bookings"."contact_sealed" ~ '^[A-Za-z0-9_-]+$');