CREATE TABLE "blob_erasures" (
	"user_id" uuid NOT NULL,
	"sha256" text NOT NULL,
	"queued_at" timestamp with time zone NOT NULL,
	CONSTRAINT "blob_erasures_user_id_sha256_pk" PRIMARY KEY("user_id","sha256")
);
--> statement-breakpoint
-- Hand-edited: jobs recorded before this migration know only their first file (file_sha256).
ALTER TABLE "parsing_jobs" ADD COLUMN "file_sha256s" text[];--> statement-breakpoint
UPDATE "parsing_jobs" SET "file_sha256s" = ARRAY["file_sha256"];--> statement-breakpoint
ALTER TABLE "parsing_jobs" ALTER COLUMN "file_sha256s" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "parsing_jobs" ADD COLUMN "pages_sha256" text;--> statement-breakpoint
CREATE INDEX "parsing_jobs_file_sha256s_idx" ON "parsing_jobs" USING gin ("file_sha256s");--> statement-breakpoint
CREATE INDEX "parsing_jobs_pages_sha256_idx" ON "parsing_jobs" USING btree ("pages_sha256");