CREATE TABLE "team_payors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"payor_code" text NOT NULL,
	"name" text NOT NULL,
	"address" jsonb NOT NULL,
	"provider" text,
	"provider_payor_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_insurances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"payor_code" text NOT NULL,
	"member_id" text NOT NULL,
	"group_id" text,
	"relationship" text NOT NULL,
	"insured" jsonb NOT NULL,
	"guarantor" jsonb,
	"is_primary" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lab_accounts" ADD COLUMN "delegated_flow" text DEFAULT 'not_delegated' NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_accounts" ADD COLUMN "delegated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lab_accounts" ADD COLUMN "allowed_billing" jsonb DEFAULT '{"client_bill":["*"]}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_accounts" ADD COLUMN "provider_account_id" text;--> statement-breakpoint
ALTER TABLE "lab_accounts" ADD COLUMN "business_units" text[];--> statement-breakpoint
ALTER TABLE "team_payors" ADD CONSTRAINT "team_payors_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_insurances" ADD CONSTRAINT "user_insurances_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_insurances" ADD CONSTRAINT "user_insurances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "team_payors_code_uq" ON "team_payors" USING btree ("team_id","payor_code");--> statement-breakpoint
CREATE INDEX "user_insurances_user_idx" ON "user_insurances" USING btree ("team_id","user_id","created_at");