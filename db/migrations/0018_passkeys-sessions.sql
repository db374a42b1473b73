CREATE TABLE "auth_challenges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"purpose" text NOT NULL,
	"user_id" uuid,
	"session_id" uuid,
	"challenge" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_challenges_purpose_known" CHECK ("auth_challenges"."purpose" in ('passkey-register', 'passkey-login', 'second-factor')),
	CONSTRAINT "auth_challenges_challenge_format" CHECK ("auth_challenges"."challenge" ~ '^[A-Za-z0-9_-]{16,128}$')
);
--> statement-breakpoint
CREATE TABLE "staff_passkeys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"credential_id" text NOT NULL,
	"public_key" text NOT NULL,
	"counter" bigint DEFAULT 0 NOT NULL,
	"transports" text[] DEFAULT '{}'::text[] NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "staff_passkeys_credential_id_format" CHECK ("staff_passkeys"."credential_id" ~ '^[A-Za-z0-9_-]+$' and char_length("staff_passkeys"."credential_id") between 16 and 1366),
	CONSTRAINT "staff_passkeys_public_key_format" CHECK ("staff_passkeys"."public_key" ~ '^[A-Za-z0-9_-]+$'),
	CONSTRAINT "staff_passkeys_counter_non_negative" CHECK ("staff_passkeys"."counter" >= 0),
	CONSTRAINT "staff_passkeys_name_length" CHECK (char_length("staff_passkeys"."name") between 1 and 60)
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "staff_second_factors" ADD COLUMN "session_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "wrong_code_alert_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "code_step_closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "auth_challenges" ADD CONSTRAINT "auth_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_challenges" ADD CONSTRAINT "auth_challenges_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_passkeys" ADD CONSTRAINT "staff_passkeys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_challenges_expires_idx" ON "auth_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_passkeys_credential_id_idx" ON "staff_passkeys" USING btree ("credential_id");--> statement-breakpoint
CREATE INDEX "staff_passkeys_user_idx" ON "staff_passkeys" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "staff_second_factors" ADD CONSTRAINT "staff_second_factors_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_agent_length" CHECK (char_length("sessions"."user_agent") <= 512);