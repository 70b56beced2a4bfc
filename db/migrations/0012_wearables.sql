-- Hand-written: "PARTITION BY RANGE" on wearable_samples (drizzle-kit cannot express it); monthly partitions are created by the ingestion activity.
CREATE TABLE "wearable_pulls" (
	"user_id" uuid NOT NULL,
	"team_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"resource" text NOT NULL,
	"historical_status" text NOT NULL,
	"historical_start" timestamp with time zone,
	"historical_end" timestamp with time zone,
	"last_pull_at" timestamp with time zone,
	"oldest_data" timestamp with time zone,
	"newest_data" timestamp with time zone,
	"sample_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "wearable_pulls_pk" PRIMARY KEY("user_id","provider","resource")
);
--> statement-breakpoint
CREATE TABLE "wearable_samples" (
	"user_id" uuid NOT NULL,
	"resource" text NOT NULL,
	"timestamp" timestamp with time zone NOT NULL,
	"provider" text NOT NULL,
	"source_type" text NOT NULL,
	"value" double precision NOT NULL,
	"end" timestamp with time zone,
	"unit" text NOT NULL,
	"type" text,
	"timezone_offset" integer,
	"extra" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wearable_samples_pk" PRIMARY KEY("user_id","resource","timestamp","provider","source_type")
) PARTITION BY RANGE ("timestamp");
--> statement-breakpoint
CREATE TABLE "wearable_summaries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"team_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"connection_id" uuid,
	"resource" text NOT NULL,
	"provider" text NOT NULL,
	"source_type" text NOT NULL,
	"calendar_date" date NOT NULL,
	"data" jsonb NOT NULL,
	"stream" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "wearable_pulls" ADD CONSTRAINT "wearable_pulls_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wearable_summaries" ADD CONSTRAINT "wearable_summaries_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wearable_summaries" ADD CONSTRAINT "wearable_summaries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wearable_summaries" ADD CONSTRAINT "wearable_summaries_connection_id_provider_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."provider_connections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wearable_summaries_user_resource_date_idx" ON "wearable_summaries" USING btree ("user_id","resource","calendar_date");