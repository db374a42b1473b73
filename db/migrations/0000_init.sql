CREATE TABLE "appointment_time_slots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"appointment_type_id" uuid NOT NULL,
	"day_of_week" smallint NOT NULL,
	"start_time" time NOT NULL,
	"end_time" time NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointment_time_slots_day_of_week_range" CHECK ("appointment_time_slots"."day_of_week" between 0 and 6),
	CONSTRAINT "appointment_time_slots_start_before_end" CHECK ("appointment_time_slots"."start_time" < "appointment_time_slots"."end_time")
);
--> statement-breakpoint
CREATE TABLE "appointment_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"name_en" text,
	"description" text NOT NULL,
	"description_en" text,
	"max_advance_days" integer DEFAULT 14 NOT NULL,
	"slot_duration_minutes" integer DEFAULT 20 NOT NULL,
	"max_slots_per_time" integer DEFAULT 1 NOT NULL,
	"price_cents" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointment_types_name_not_blank" CHECK (length(btrim("appointment_types"."name")) between 1 and 100),
	CONSTRAINT "appointment_types_description_not_blank" CHECK (length(btrim("appointment_types"."description")) between 1 and 2000),
	CONSTRAINT "appointment_types_max_advance_days_range" CHECK ("appointment_types"."max_advance_days" between 0 and 365),
	CONSTRAINT "appointment_types_slot_duration_range" CHECK ("appointment_types"."slot_duration_minutes" between 5 and 180 and "appointment_types"."slot_duration_minutes" % 5 = 0),
	CONSTRAINT "appointment_types_max_slots_range" CHECK ("appointment_types"."max_slots_per_time" between 1 and 10),
	CONSTRAINT "appointment_types_price_non_negative" CHECK ("appointment_types"."price_cents" is null or "appointment_types"."price_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "blocked_dates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"date" date NOT NULL,
	"reason" text,
	"appointment_type_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blocked_dates_reason_length" CHECK ("blocked_dates"."reason" is null or length("blocked_dates"."reason") <= 500)
);
--> statement-breakpoint
CREATE TABLE "booked_slots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"appointment_type_id" uuid NOT NULL,
	"appointment_date" date NOT NULL,
	"appointment_time" time NOT NULL,
	"cancellation_token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booked_slots_token_hash_format" CHECK ("booked_slots"."cancellation_token_hash" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "inventory_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"article_number" text,
	"supplier" text NOT NULL,
	"expiry_date" date,
	"current_stock" integer DEFAULT 0 NOT NULL,
	"minimum_stock" integer DEFAULT 0 NOT NULL,
	"is_ordered" boolean DEFAULT false NOT NULL,
	"last_inventory_check" date,
	"last_usage_date" date,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inventory_items_name_not_blank" CHECK (length(btrim("inventory_items"."name")) between 1 and 200),
	CONSTRAINT "inventory_items_supplier_not_blank" CHECK (length(btrim("inventory_items"."supplier")) between 1 and 200),
	CONSTRAINT "inventory_items_current_stock_non_negative" CHECK ("inventory_items"."current_stock" >= 0),
	CONSTRAINT "inventory_items_minimum_stock_non_negative" CHECK ("inventory_items"."minimum_stock" >= 0)
);
--> statement-breakpoint
CREATE TABLE "login_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"client_key" text NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"refresh_token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sessions_refresh_hash_format" CHECK ("sessions"."refresh_token_hash" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "sessions_expiry_after_creation" CHECK ("sessions"."expires_at" > "sessions"."created_at")
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_roles_role_known" CHECK ("user_roles"."role" in ('admin'))
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_normalised" CHECK ("users"."email" = lower(btrim("users"."email")) and position('@' in "users"."email") > 1)
);
--> statement-breakpoint
ALTER TABLE "appointment_time_slots" ADD CONSTRAINT "appointment_time_slots_appointment_type_id_appointment_types_id_fk" FOREIGN KEY ("appointment_type_id") REFERENCES "public"."appointment_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocked_dates" ADD CONSTRAINT "blocked_dates_appointment_type_id_appointment_types_id_fk" FOREIGN KEY ("appointment_type_id") REFERENCES "public"."appointment_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booked_slots" ADD CONSTRAINT "booked_slots_appointment_type_id_appointment_types_id_fk" FOREIGN KEY ("appointment_type_id") REFERENCES "public"."appointment_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointment_time_slots_type_day_idx" ON "appointment_time_slots" USING btree ("appointment_type_id","day_of_week");--> statement-breakpoint
CREATE INDEX "blocked_dates_date_idx" ON "blocked_dates" USING btree ("date");--> statement-breakpoint
CREATE UNIQUE INDEX "booked_slots_token_hash_idx" ON "booked_slots" USING btree ("cancellation_token_hash");--> statement-breakpoint
CREATE INDEX "booked_slots_type_date_time_idx" ON "booked_slots" USING btree ("appointment_type_id","appointment_date","appointment_time");--> statement-breakpoint
CREATE INDEX "booked_slots_date_time_idx" ON "booked_slots" USING btree ("appointment_date","appointment_time");--> statement-breakpoint
CREATE INDEX "login_attempts_email_time_idx" ON "login_attempts" USING btree ("email","attempted_at");--> statement-breakpoint
CREATE INDEX "login_attempts_client_time_idx" ON "login_attempts" USING btree ("client_key","attempted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_refresh_token_hash_idx" ON "sessions" USING btree ("refresh_token_hash");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_roles_user_role_idx" ON "user_roles" USING btree ("user_id","role");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_idx" ON "users" USING btree ("email");