-- Every API process caches verified keys for API_KEY_CACHE_TTL_SECONDS (api/middleware/auth.ts) and LISTENs on
-- this channel: a key revoked, rotated out or deleted (with its team, by cascade) is announced by the hash of the
-- key, on commit, and every process drops it from its cache at once. Whatever path changes the row, SQL included.
CREATE FUNCTION "labflow_api_key_revoked"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR OLD."revoked_at" IS NULL AND NEW."revoked_at" IS NOT NULL OR OLD."key_hash" IS DISTINCT FROM NEW."key_hash" THEN
    PERFORM pg_notify('labflow_api_key_revoked', OLD."key_hash");
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "api_keys_revoked_notify" AFTER UPDATE OR DELETE ON "api_keys"
  FOR EACH ROW EXECUTE FUNCTION "labflow_api_key_revoked"();
