ALTER TABLE "email_outbox" ADD COLUMN "quiet_exempt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "fallback_of" uuid;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "parts" smallint;--> statement-breakpoint
CREATE UNIQUE INDEX "email_outbox_fallback_of_idx" ON "email_outbox" USING btree ("fallback_of") WHERE "email_outbox"."fallback_of" is not null;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_parts_range" CHECK ("email_outbox"."parts" is null or "email_outbox"."parts" between 1 and 2);--> statement-breakpoint
CREATE TABLE "sms_usage" (
	"month" text PRIMARY KEY NOT NULL,
	"parts" integer DEFAULT 0 NOT NULL,
	"limit_noticed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sms_usage_month_format" CHECK ("sms_usage"."month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "sms_usage_parts_non_negative" CHECK ("sms_usage"."parts" >= 0)
);
--> statement-breakpoint
CREATE TABLE "short_links" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"booking_id" uuid,
	"offer_id" uuid,
	"request_id" uuid,
	"key_id" text NOT NULL,
	"sealed" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "short_links_code_hash_format" CHECK ("short_links"."code_hash" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "short_links_key_id_format" CHECK ("short_links"."key_id" ~ '^[0-9a-f]{16}$'),
	CONSTRAINT "short_links_sealed_format" CHECK ("short_links"."sealed" ~ '^[A-Za-z0-9_-]+$'),
	CONSTRAINT "short_links_one_target" CHECK (num_nonnulls("short_links"."booking_id", "short_links"."offer_id", "short_links"."request_id") = 1)
);
--> statement-breakpoint
ALTER TABLE "short_links" ADD CONSTRAINT "short_links_booking_id_booked_slots_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booked_slots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "short_links" ADD CONSTRAINT "short_links_offer_id_waitlist_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."waitlist_offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "short_links" ADD CONSTRAINT "short_links_request_id_patient_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."patient_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "short_links_booking_idx" ON "short_links" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "short_links_offer_idx" ON "short_links" USING btree ("offer_id");--> statement-breakpoint
CREATE INDEX "short_links_request_idx" ON "short_links" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "short_links_expires_idx" ON "short_links" USING btree ("expires_at");
