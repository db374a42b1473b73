-- Patient details for staff (docs/decisions/025): every contact sealed from now on also holds
-- birth date and phone (details = 2). Contacts sealed before keep their value and read as details = 1
-- (no birth date, no phone); the default stays 1, so a function of the release before, still live
-- during the deploy, writes a contact that says what it holds.
ALTER TABLE "appointment_contacts" ADD COLUMN "details" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "appointment_contacts" ADD CONSTRAINT "appointment_contacts_details_known" CHECK ("appointment_contacts"."details" in (1, 2));