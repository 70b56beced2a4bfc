CREATE TABLE "lab_test_markers" (
	"lab_test_id" uuid NOT NULL,
	"marker_id" integer NOT NULL,
	CONSTRAINT "lab_test_markers_lab_test_id_marker_id_pk" PRIMARY KEY("lab_test_id","marker_id")
);
--> statement-breakpoint
CREATE TABLE "lab_tests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"sample_type" text NOT NULL,
	"method" text NOT NULL,
	"price" numeric(10, 2) DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"fasting" boolean DEFAULT false NOT NULL,
	"lab_id" integer,
	"auto_generated" boolean DEFAULT false NOT NULL,
	"has_collection_instructions" boolean DEFAULT false NOT NULL,
	"common_tat_days" integer,
	"worst_case_tat_days" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lab_tests_team_slug_uq" UNIQUE NULLS NOT DISTINCT("team_id","slug")
);
--> statement-breakpoint
CREATE TABLE "labs" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"first_line_address" text NOT NULL,
	"city" text NOT NULL,
	"zipcode" text NOT NULL,
	"collection_methods" text[] NOT NULL,
	"sample_types" text[] NOT NULL,
	CONSTRAINT "labs_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "loinc_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"unit" text,
	CONSTRAINT "loinc_codes_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "marker_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"marker_id" integer NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"provider_id" text,
	"required" boolean DEFAULT true NOT NULL,
	"loinc_id" integer
);
--> statement-breakpoint
CREATE TABLE "markers" (
	"id" serial PRIMARY KEY NOT NULL,
	"lab_id" integer NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text,
	"provider_id" text NOT NULL,
	"type" text NOT NULL,
	"unit" text,
	"price" text,
	"a_la_carte_enabled" boolean DEFAULT true NOT NULL,
	"common_tat_days" integer,
	"worst_case_tat_days" integer,
	"is_orderable" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"team_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"order_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_team_id_key_pk" PRIMARY KEY("team_id","key")
);
--> statement-breakpoint
CREATE TABLE "order_events" (
	"order_id" uuid NOT NULL,
	"id" integer NOT NULL,
	"status" text NOT NULL,
	"status_detail" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "order_events_order_id_id_pk" PRIMARY KEY("order_id","id")
);
--> statement-breakpoint
CREATE TABLE "order_results" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"results" jsonb NOT NULL,
	"missing_results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"interpretation" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"team_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"lab_test_id" uuid NOT NULL,
	"method" text NOT NULL,
	"registrable" boolean DEFAULT false NOT NULL,
	"status" text NOT NULL,
	"low_level_status" text NOT NULL,
	"low_level_status_created_at" timestamp with time zone NOT NULL,
	"sample_id" text,
	"origin" text DEFAULT 'initial' NOT NULL,
	"details_id" uuid NOT NULL,
	"shipment" jsonb,
	"patient_details" jsonb,
	"patient_address" jsonb,
	"shipping_details" jsonb,
	"physician" jsonb,
	"consents" jsonb,
	"health_insurance" jsonb,
	"activate_by" date,
	"passthrough" text,
	"priority" boolean DEFAULT false NOT NULL,
	"billing_type" text DEFAULT 'client_bill' NOT NULL,
	"icd_codes" text[],
	"clinical_notes" text,
	"lab_account_id" uuid,
	"notes" text,
	"interpretation" text,
	"has_missing_results" boolean,
	"expected_result_by_date" date,
	"worst_case_result_by_date" date,
	"workflow_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"team_id" uuid NOT NULL,
	"user_id" uuid,
	"client_user_id" text,
	"event_type" text NOT NULL,
	"subject_id" uuid,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lab_test_markers" ADD CONSTRAINT "lab_test_markers_lab_test_id_lab_tests_id_fk" FOREIGN KEY ("lab_test_id") REFERENCES "public"."lab_tests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_test_markers" ADD CONSTRAINT "lab_test_markers_marker_id_markers_id_fk" FOREIGN KEY ("marker_id") REFERENCES "public"."markers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_tests" ADD CONSTRAINT "lab_tests_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_tests" ADD CONSTRAINT "lab_tests_lab_id_labs_id_fk" FOREIGN KEY ("lab_id") REFERENCES "public"."labs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marker_results" ADD CONSTRAINT "marker_results_marker_id_markers_id_fk" FOREIGN KEY ("marker_id") REFERENCES "public"."markers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marker_results" ADD CONSTRAINT "marker_results_loinc_id_loinc_codes_id_fk" FOREIGN KEY ("loinc_id") REFERENCES "public"."loinc_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "markers" ADD CONSTRAINT "markers_lab_id_labs_id_fk" FOREIGN KEY ("lab_id") REFERENCES "public"."labs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_results" ADD CONSTRAINT "order_results_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_lab_test_id_lab_tests_id_fk" FOREIGN KEY ("lab_test_id") REFERENCES "public"."lab_tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_events" ADD CONSTRAINT "outbox_events_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lab_tests_team_idx" ON "lab_tests" USING btree ("team_id","created_at","id");--> statement-breakpoint
CREATE INDEX "marker_results_marker_idx" ON "marker_results" USING btree ("marker_id");--> statement-breakpoint
CREATE UNIQUE INDEX "markers_lab_provider_uq" ON "markers" USING btree ("lab_id","provider_id");--> statement-breakpoint
CREATE INDEX "markers_name_idx" ON "markers" USING btree ("name");--> statement-breakpoint
CREATE INDEX "orders_team_created_idx" ON "orders" USING btree ("team_id","created_at","id");--> statement-breakpoint
CREATE INDEX "orders_team_user_idx" ON "orders" USING btree ("team_id","user_id");--> statement-breakpoint
CREATE INDEX "orders_team_status_idx" ON "orders" USING btree ("team_id","low_level_status");--> statement-breakpoint
CREATE INDEX "outbox_team_created_idx" ON "outbox_events" USING btree ("team_id","created_at");--> statement-breakpoint
CREATE INDEX "outbox_subject_idx" ON "outbox_events" USING btree ("subject_id","created_at");