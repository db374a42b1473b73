ALTER TABLE "patient_requests" ADD COLUMN "duplicate_key" text;--> statement-breakpoint
ALTER TABLE "patient_requests" ADD CONSTRAINT "patient_requests_duplicate_key_format" CHECK ("patient_requests"."duplicate_key" is null or "patient_requests"."duplicate_key" ~ '^[0-9a-f]{64}$');--> statement-breakpoint
CREATE UNIQUE INDEX "patient_requests_duplicate_key_idx" ON "patient_requests" USING btree ("duplicate_key") WHERE "patient_requests"."duplicate_key" is not null;
