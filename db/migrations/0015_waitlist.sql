CREATE TABLE "waitlist_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"appointment_type_id" uuid NOT NULL,
	"booking_id" uuid,
	"from_date" date NOT NULL,
	"to_date" date NOT NULL,
	"weekdays" smallint DEFAULT 127 NOT NULL,
	"dayparts" smallint DEFAULT 3 NOT NULL,
	"key_id" text NOT NULL,
	"sealed" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waitlist_entries_range" CHECK ("waitlist_entries"."from_date" <= "waitlist_entries"."to_date"),
	CONSTRAINT "waitlist_entries_weekdays" CHECK ("waitlist_entries"."weekdays" between 1 and 127),
	CONSTRAINT "waitlist_entries_dayparts" CHECK ("waitlist_entries"."dayparts" between 1 and 3),
	CONSTRAINT "waitlist_entries_key_id_format" CHECK ("waitlist_entries"."key_id" ~ '^[0-9a-f]{16}$'),
	CONSTRAINT "waitlist_entries_sealed_format" CHECK ("waitlist_entries"."sealed" ~ '^[A-Za-z0-9_-]+$'),
	CONSTRAINT "waitlist_entries_token_hash_format" CHECK ("waitlist_entries"."token_hash" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "waitlist_offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entry_id" uuid,
	"appointment_type_id" uuid NOT NULL,
	"appointment_date" date NOT NULL,
	"appointment_time" time NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waitlist_offers_token_hash_format" CHECK ("waitlist_offers"."token_hash" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_appointment_type_id_appointment_types_id_fk" FOREIGN KEY ("appointment_type_id") REFERENCES "public"."appointment_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_booking_id_booked_slots_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booked_slots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_offers" ADD CONSTRAINT "waitlist_offers_entry_id_waitlist_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."waitlist_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_offers" ADD CONSTRAINT "waitlist_offers_appointment_type_id_appointment_types_id_fk" FOREIGN KEY ("appointment_type_id") REFERENCES "public"."appointment_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_entries_booking_idx" ON "waitlist_entries" USING btree ("booking_id");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_entries_token_hash_idx" ON "waitlist_entries" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "waitlist_entries_type_created_idx" ON "waitlist_entries" USING btree ("appointment_type_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_offers_token_hash_idx" ON "waitlist_offers" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "waitlist_offers_entry_time_idx" ON "waitlist_offers" USING btree ("entry_id","appointment_type_id","appointment_date","appointment_time");--> statement-breakpoint
CREATE INDEX "waitlist_offers_time_idx" ON "waitlist_offers" USING btree ("appointment_type_id","appointment_date","appointment_time");