CREATE TABLE "contact_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"client_key" text NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contact_attempts_client_key_format" CHECK ("contact_attempts"."client_key" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE INDEX "contact_attempts_client_time_idx" ON "contact_attempts" USING btree ("client_key","attempted_at");