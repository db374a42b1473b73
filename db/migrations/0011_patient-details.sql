-- Patient details for staff (docs/decisions/025). Every contact sealed from now on also holds birth date
-- and phone (details = 2); contacts sealed before keep their value and read as details = 1 (no birth date,
-- no phone). The default stays 1, so a function of the release before, still live during the deploy,
-- writes a contact that says what it holds. A phone booking may now have a link (when the caller gave an
-- email); an online booking still always has one.
ALTER TABLE "booked_slots" DROP CONSTRAINT "booked_slots_token_iff_online";--> statement-breakpoint
ALTER TABLE "appointment_contacts" ADD COLUMN "details" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "appointment_contacts" ADD CONSTRAINT "appointment_contacts_details_known" CHECK ("appointment_contacts"."details" in (1, 2));--> statement-breakpoint
ALTER TABLE "booked_slots" ADD CONSTRAINT "booked_slots_token_if_online" CHECK ("booked_slots"."source" <> 'online' or "booked_slots"."cancellation_token_hash" is not null);