-- Endpoints whose delivery round is under way: a writer that finds its endpoint here after committing skips the
-- wake-up signal (the round looks again before it ends). UNLOGGED: no WAL; emptied after a crash, which only
-- means signals are sent again.
CREATE UNLOGGED TABLE "webhook_endpoint_rounds" (
	"endpoint_id" uuid PRIMARY KEY NOT NULL,
	"active_until" timestamp with time zone NOT NULL
);
