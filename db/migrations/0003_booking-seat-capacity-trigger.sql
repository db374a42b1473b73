-- Capacity enforced by the database (docs/decisions/003): a booking's seat
-- must lie within its type's max_slots_per_time at the moment it is written.
-- Together with the unique (type, date, time, seat) index no code path can
-- store more bookings of a time than the type allows. The type row is read
-- FOR SHARE so a concurrent capacity change waits for the booking (and the
-- booking for it) instead of judging against a stale value.
CREATE FUNCTION "booked_slots_check_seat"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	capacity integer;
BEGIN
	SELECT "max_slots_per_time" INTO capacity FROM "appointment_types" WHERE "id" = NEW."appointment_type_id" FOR SHARE;
	IF capacity IS NULL THEN
		-- No such type: the foreign key refuses the row.
		RETURN NEW;
	END IF;
	IF NEW."seat" < 1 OR NEW."seat" > capacity THEN
		RAISE EXCEPTION 'seat % is beyond the capacity % of this consultation type', NEW."seat", capacity
			USING ERRCODE = 'check_violation', CONSTRAINT = 'booked_slots_seat_within_capacity', TABLE = 'booked_slots';
	END IF;
	RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "booked_slots_seat_within_capacity"
	BEFORE INSERT OR UPDATE OF "seat", "appointment_type_id" ON "booked_slots"
	FOR EACH ROW EXECUTE FUNCTION "booked_slots_check_seat"();
--> statement-breakpoint
-- Aborts the statement that calls it (and so everything that statement
-- wrote): a booking's single statement calls it when a rate limit is
-- exceeded, which undoes the hit it had just counted. The bucket and the
-- seconds until the limit allows another hit travel in DETAIL and HINT.
CREATE FUNCTION "rate_limit_exceeded"(bucket text, retry_after_seconds integer) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	RAISE EXCEPTION 'rate limit exceeded' USING ERRCODE = 'RL429', DETAIL = bucket, HINT = retry_after_seconds::text;
END
$$;
