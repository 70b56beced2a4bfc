ALTER TABLE "markers" ADD COLUMN "aoe" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "aoe_answers" jsonb;