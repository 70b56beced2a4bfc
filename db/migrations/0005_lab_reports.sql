CREATE TABLE "parsing_jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"team_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text NOT NULL,
	"failure_reason" text,
	"failure_detail" text,
	"needs_human_review" boolean NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"review_status" text,
	"review_deadline" timestamp with time zone,
	"reviewed_at" timestamp with time zone,
	"file_sha256" text NOT NULL,
	"file_size" integer NOT NULL,
	"file_mime" text NOT NULL,
	"file_name" text,
	"extraction" jsonb,
	"data" jsonb,
	"parsed_data" jsonb,
	"workflow_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "parsing_jobs" ADD CONSTRAINT "parsing_jobs_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parsing_jobs" ADD CONSTRAINT "parsing_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "parsing_jobs_team_created_idx" ON "parsing_jobs" USING btree ("team_id","created_at");--> statement-breakpoint
CREATE INDEX "parsing_jobs_team_user_idx" ON "parsing_jobs" USING btree ("team_id","user_id");