ALTER TABLE "practice_settings" ADD COLUMN "holidays_opened" date[] DEFAULT '{}'::date[] NOT NULL;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "close_dec_24" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "close_dec_31" boolean DEFAULT false NOT NULL;
