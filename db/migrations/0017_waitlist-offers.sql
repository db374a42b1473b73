CREATE TABLE "waitlist_freed_times" (
	"appointment_type_id" uuid NOT NULL,
	"appointment_date" date NOT NULL,
	"appointment_time" time NOT NULL,
	"freed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "waitlist_freed_times_appointment_type_id_appointment_date_appointment_time_pk" PRIMARY KEY("appointment_type_id","appointment_date","appointment_time")
);
--> statement-breakpoint
ALTER TABLE "waitlist_offers" ADD COLUMN "booking_id" uuid;--> statement-breakpoint
ALTER TABLE "waitlist_freed_times" ADD CONSTRAINT "waitlist_freed_times_appointment_type_id_appointment_types_id_fk" FOREIGN KEY ("appointment_type_id") REFERENCES "public"."appointment_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_offers" ADD CONSTRAINT "waitlist_offers_booking_id_booked_slots_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booked_slots"("id") ON DELETE set null ON UPDATE no action;