CREATE TABLE "patient_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text DEFAULT substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', floor(random() * 31)::int + 1, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', floor(random() * 31)::int + 1, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', floor(random() * 31)::int + 1, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', floor(random() * 31)::int + 1, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', floor(random() * 31)::int + 1, 1) || substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', floor(random() * 31)::int + 1, 1) NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"key_id" text,
	"sealed" text,
	"message_key_id" text,
	"message_sealed" text,
	"token_hash" text NOT NULL,
	"practice_noticed" boolean DEFAULT false NOT NULL,
	"status_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"purged_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patient_requests_kind_known" CHECK ("patient_requests"."kind" in ('prescription', 'referral', 'callback')),
	CONSTRAINT "patient_requests_status_known" CHECK ("patient_requests"."status" in ('new', 'in_progress', 'done', 'declined')),
	CONSTRAINT "patient_requests_closed_when_done" CHECK (("patient_requests"."closed_at" is not null) = ("patient_requests"."status" in ('done', 'declined'))),
	CONSTRAINT "patient_requests_sealed_with_key" CHECK (("patient_requests"."sealed" is null) = ("patient_requests"."key_id" is null)),
	CONSTRAINT "patient_requests_message_with_key" CHECK (("patient_requests"."message_sealed" is null) = ("patient_requests"."message_key_id" is null)),
	CONSTRAINT "patient_requests_key_id_format" CHECK ("patient_requests"."key_id" is null or "patient_requests"."key_id" ~ '^[0-9a-f]{16}$'),
	CONSTRAINT "patient_requests_message_key_id_format" CHECK ("patient_requests"."message_key_id" is null or "patient_requests"."message_key_id" ~ '^[0-9a-f]{16}$'),
	CONSTRAINT "patient_requests_sealed_format" CHECK ("patient_requests"."sealed" is null or "patient_requests"."sealed" ~ '^[A-Za-z0-9_-]+$'),
	CONSTRAINT "patient_requests_message_sealed_format" CHECK ("patient_requests"."message_sealed" is null or "patient_requests"."message_sealed" ~ '^[A-Za-z0-9_-]+$'),
	CONSTRAINT "patient_requests_token_hash_format" CHECK ("patient_requests"."token_hash" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "patient_requests_reference_format" CHECK ("patient_requests"."reference" ~ '^[2-9A-HJKMNP-Z]{6}$')
);
--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "requests_prescription" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "requests_referral" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "requests_callback" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "requests_notice_de" text;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "requests_notice_en" text;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "requests_noticed_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "patient_requests_reference_idx" ON "patient_requests" USING btree ("reference");--> statement-breakpoint
CREATE UNIQUE INDEX "patient_requests_token_hash_idx" ON "patient_requests" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "patient_requests_status_created_idx" ON "patient_requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "patient_requests_unnoticed_idx" ON "patient_requests" USING btree ("created_at") WHERE not "patient_requests"."practice_noticed";