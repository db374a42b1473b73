CREATE TABLE "job_heartbeat" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"ran_at" timestamp with time zone NOT NULL,
	"outcome" text NOT NULL,
	"failed_steps" text,
	"duration_ms" integer NOT NULL,
	CONSTRAINT "job_heartbeat_single_row" CHECK ("job_heartbeat"."id"),
	CONSTRAINT "job_heartbeat_outcome_known" CHECK ("job_heartbeat"."outcome" in ('ok', 'failed')),
	CONSTRAINT "job_heartbeat_failed_steps_format" CHECK ("job_heartbeat"."failed_steps" is null or "job_heartbeat"."failed_steps" ~ '^[a-z-]+(,[a-z-]+)*$')
);
--> statement-breakpoint
CREATE TABLE "operations_alerts" (
	"kind" text PRIMARY KEY NOT NULL,
	"since" timestamp with time zone,
	"alerted_at" timestamp with time zone,
	"episode_alerted" boolean DEFAULT false NOT NULL,
	"cleared_at" timestamp with time zone,
	CONSTRAINT "operations_alerts_kind_format" CHECK ("operations_alerts"."kind" ~ '^[a-z-]{1,30}$')
);
--> statement-breakpoint
INSERT INTO "operations_alerts" ("kind") VALUES ('job'), ('outbox'), ('keys'), ('practice-mail');--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "operations_alerts" boolean DEFAULT false NOT NULL;
