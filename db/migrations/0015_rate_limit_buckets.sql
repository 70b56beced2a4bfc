CREATE UNLOGGED TABLE "rate_limit_buckets" (
	"key" text PRIMARY KEY NOT NULL,
	"tat" double precision NOT NULL
);
