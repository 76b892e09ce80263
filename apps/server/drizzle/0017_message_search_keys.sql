-- Message text search (tickets/tickets.search.ts): the generated tsvector and its GIN index are dropped, because
-- under row-level security PostgreSQL never uses that index (the @@ operator is not leakproof: every search read every
-- message of every tenant). The keys below are ranges of leakproof btree comparisons instead.
ALTER TABLE "messages" DROP COLUMN "search";--> statement-breakpoint
CREATE TABLE "message_search_keys" (
	"tenant_id" bigint NOT NULL,
	"key" text collate "C" NOT NULL,
	"message_id" bigint NOT NULL,
	"ticket_id" bigint NOT NULL
);
--> statement-breakpoint
-- The words of a message's shown text (simple configuration) and their Portuguese stems, both after the one accent
-- and case fold (platform/db/search.ts); the search checks a candidate message against the same vector.
CREATE FUNCTION text_search_vector(shown text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_tsvector('simple'::regconfig, f.folded) || to_tsvector('portuguese'::regconfig, f.folded)
    FROM (SELECT translate(lower(shown), 'áàâãäåéèêëíìîïóòôõöúùûüçñýÿÁÀÂÃÄÅÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑÝ',
                           'aaaaaaeeeeiiiiooooouuuucnyyaaaaaaeeeeiiiiooooouuuucny') AS folded) f
$$;--> statement-breakpoint
-- Its lexemes cut to 32 characters (MESSAGE_SEARCH_KEY_LENGTH); one-character words are no key.
CREATE FUNCTION text_search_keys_of(shown text) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT left(k, 32) FROM unnest(tsvector_to_array(text_search_vector(shown))) AS k WHERE length(k) > 1
$$;--> statement-breakpoint
CREATE FUNCTION message_search_keys_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO message_search_keys (tenant_id, key, message_id, ticket_id)
  SELECT m.tenant_id, k.key, m.id, m.ticket_id
    FROM added m CROSS JOIN LATERAL text_search_keys_of(coalesce(m.edition, m.body)) AS k(key)
   WHERE NOT m.is_deleted;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Row level: edits, deletions and ticket moves are rare, and a statement trigger with transition tables cannot be
-- limited to these columns (acks and read flags update messages all the time).
CREATE FUNCTION message_search_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM message_search_keys
   WHERE tenant_id = OLD.tenant_id AND ticket_id = OLD.ticket_id AND message_id = OLD.id;
  IF NOT NEW.is_deleted THEN
    INSERT INTO message_search_keys (tenant_id, key, message_id, ticket_id)
    SELECT NEW.tenant_id, k.key, NEW.id, NEW.ticket_id FROM text_search_keys_of(coalesce(NEW.edition, NEW.body)) AS k(key);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION message_search_keys_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM message_search_keys k USING removed r
   WHERE k.tenant_id = r.tenant_id AND k.ticket_id = r.ticket_id AND k.message_id = r.id;
  RETURN NULL;
END $$;--> statement-breakpoint
SELECT set_config('app.system', 'migrations.message-search-keys', true);--> statement-breakpoint
INSERT INTO message_search_keys (tenant_id, key, message_id, ticket_id)
SELECT m.tenant_id, k.key, m.id, m.ticket_id
  FROM messages m CROSS JOIN LATERAL text_search_keys_of(coalesce(m.edition, m.body)) AS k(key)
 WHERE NOT m.is_deleted;--> statement-breakpoint
ALTER TABLE "message_search_keys" ADD CONSTRAINT "message_search_keys_tenant_id_key_message_id_pk" PRIMARY KEY("tenant_id","key","message_id");--> statement-breakpoint
CREATE INDEX "message_search_keys_ticket_idx" ON "message_search_keys" USING btree ("tenant_id","ticket_id","key","message_id");--> statement-breakpoint
CREATE TRIGGER messages_search_keys_added AFTER INSERT ON messages
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION message_search_keys_added();--> statement-breakpoint
CREATE TRIGGER messages_search_keys_changed AFTER UPDATE OF body, edition, is_deleted, ticket_id ON messages
  FOR EACH ROW WHEN (OLD.body IS DISTINCT FROM NEW.body OR OLD.edition IS DISTINCT FROM NEW.edition
    OR OLD.is_deleted IS DISTINCT FROM NEW.is_deleted OR OLD.ticket_id IS DISTINCT FROM NEW.ticket_id)
  EXECUTE FUNCTION message_search_keys_changed();--> statement-breakpoint
CREATE TRIGGER messages_search_keys_removed AFTER DELETE ON messages
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION message_search_keys_removed();
