CREATE TABLE "appointment_contacts" (
	"booking_id" uuid PRIMARY KEY NOT NULL,
	"key_id" text NOT NULL,
	"sealed" text NOT NULL,
	"reminder" boolean DEFAULT false NOT NULL,
	"remind_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointment_contacts_key_id_format" CHECK ("appointment_contacts"."key_id" ~ '^[0-9a-f]{16}$'),
	CONSTRAINT "appointment_contacts_sealed_format" CHECK ("appointment_contacts"."sealed" ~ '^[A-Za-z0-9_-]+$'),
	CONSTRAINT "appointment_contacts_remind_only_if_wanted" CHECK ("appointment_contacts"."remind_at" is null or "appointment_contacts"."reminder")
);
--> statement-breakpoint
CREATE TABLE "cancelled_bookings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"appointment_type_id" uuid NOT NULL,
	"appointment_date" date NOT NULL,
	"appointment_time" time NOT NULL,
	"cancellation_token_hash" text,
	"source" text NOT NULL,
	"reference" text NOT NULL,
	"patient_notified" boolean DEFAULT false NOT NULL,
	"cancelled_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cancelled_bookings_token_hash_format" CHECK ("cancelled_bookings"."cancellation_token_hash" is null or "cancelled_bookings"."cancellation_token_hash" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "cancelled_bookings_source_known" CHECK ("cancelled_bookings"."source" in ('online', 'phone'))
);
--> statement-breakpoint
ALTER TABLE "blocked_dates" ADD COLUMN "range_id" uuid;--> statement-breakpoint
ALTER TABLE "booked_slots" ADD COLUMN "patient_notified" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "booked_slots" ADD COLUMN "sequence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "appointment_contacts" ADD CONSTRAINT "appointment_contacts_booking_id_booked_slots_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booked_slots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Every reminder row of the earlier schema becomes the contact of its booking (no last name was kept: the emails then greet by first name).
INSERT INTO "appointment_contacts" ("booking_id", "key_id", "sealed", "reminder", "remind_at", "created_at")
SELECT "booking_id", "key_id", "sealed", true, "send_at", "created_at" FROM "reminders";--> statement-breakpoint
DROP TABLE "reminders";--> statement-breakpoint
-- Expand, not contract: the functions still live during a deploy read and write "reminders". It stays as a view over the
-- contacts, written through the trigger below, until a later release drops both (docs/decisions/021).
CREATE VIEW "reminders" AS
SELECT "booking_id" AS "id", "booking_id", "remind_at" AS "send_at", "key_id", "sealed", "created_at"
FROM "appointment_contacts" WHERE "remind_at" IS NOT NULL;--> statement-breakpoint
CREATE FUNCTION "reminders_view_write"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "appointment_contacts" ("booking_id", "key_id", "sealed", "reminder", "remind_at")
    VALUES (NEW."booking_id", NEW."key_id", NEW."sealed", true, NEW."send_at")
    ON CONFLICT ("booking_id") DO UPDATE SET "reminder" = true, "remind_at" = EXCLUDED."remind_at";
    NEW."id" := NEW."booking_id";
    NEW."created_at" := now();
    RETURN NEW;
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE "appointment_contacts" SET "remind_at" = NEW."send_at" WHERE "booking_id" = OLD."booking_id";
    RETURN NEW;
  END IF;
  -- The earlier schema deleted a reminder once sent or when its booking moved less than 24 hours ahead: the contact stays.
  UPDATE "appointment_contacts" SET "remind_at" = NULL WHERE "booking_id" = OLD."booking_id";
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER "reminders_view_write" INSTEAD OF INSERT OR UPDATE OR DELETE ON "reminders"
FOR EACH ROW EXECUTE FUNCTION "reminders_view_write"();--> statement-breakpoint
ALTER TABLE "cancelled_bookings" ADD CONSTRAINT "cancelled_bookings_appointment_type_id_appointment_types_id_fk" FOREIGN KEY ("appointment_type_id") REFERENCES "public"."appointment_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointment_contacts_remind_at_idx" ON "appointment_contacts" USING btree ("remind_at");--> statement-breakpoint
CREATE UNIQUE INDEX "cancelled_bookings_token_hash_idx" ON "cancelled_bookings" USING btree ("cancellation_token_hash");--> statement-breakpoint
CREATE INDEX "cancelled_bookings_date_idx" ON "cancelled_bookings" USING btree ("appointment_date");--> statement-breakpoint
CREATE INDEX "blocked_dates_range_idx" ON "blocked_dates" USING btree ("range_id");--> statement-breakpoint
ALTER TABLE "booked_slots" ADD CONSTRAINT "booked_slots_sequence_non_negative" CHECK ("booked_slots"."sequence" >= 0);