CREATE TABLE "link_bulk_ops" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"type" text NOT NULL,
	"provider" text NOT NULL,
	"status" text DEFAULT 'in_progress' NOT NULL,
	"total" integer NOT NULL,
	"results" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "link_bulk_ops" ADD CONSTRAINT "link_bulk_ops_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "link_bulk_ops_team_started_idx" ON "link_bulk_ops" USING btree ("team_id","started_at","id");