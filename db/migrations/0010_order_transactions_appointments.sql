CREATE TABLE "order_transactions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"team_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "transaction_id" uuid;--> statement-breakpoint
-- hand-written backfill: every existing order is an initial order with a transaction of its own
INSERT INTO "order_transactions" ("id", "team_id", "created_at") SELECT md5('order-transaction:' || "id"::text)::uuid, "team_id", "created_at" FROM "orders";--> statement-breakpoint
UPDATE "orders" SET "transaction_id" = md5('order-transaction:' || "id"::text)::uuid;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "transaction_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "parent_id" uuid;--> statement-breakpoint
ALTER TABLE "order_transactions" ADD CONSTRAINT "order_transactions_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_transactions_team_idx" ON "order_transactions" USING btree ("team_id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_transaction_id_order_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."order_transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_transaction_idx" ON "orders" USING btree ("transaction_id","created_at");--> statement-breakpoint
CREATE TABLE "appointment_changes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"appointment_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "appointment_slots" (
	"provider" text NOT NULL,
	"place" text NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"booked" integer NOT NULL,
	CONSTRAINT "appointment_slots_provider_place_start_at_pk" PRIMARY KEY("provider","place","start_at")
);
--> statement-breakpoint
CREATE TABLE "appointments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"team_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"provider" text NOT NULL,
	"status" text NOT NULL,
	"place" text NOT NULL,
	"address" jsonb NOT NULL,
	"location" jsonb NOT NULL,
	"start_at" timestamp with time zone,
	"end_at" timestamp with time zone,
	"timezone" text,
	"notes" text,
	"access_notes" text,
	"cancellation_reason_id" text,
	"events" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointments_order_idx" ON "appointments" USING btree ("order_id","created_at");