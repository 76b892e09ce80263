CREATE TABLE "contact_search_keys" (
	"tenant_id" bigint NOT NULL,
	"contact_id" bigint NOT NULL,
	"field" smallint NOT NULL,
	"key" text collate "C" NOT NULL,
	CONSTRAINT "contact_search_keys_tenant_id_field_key_contact_id_pk" PRIMARY KEY("tenant_id","field","key","contact_id")
);
--> statement-breakpoint
CREATE INDEX "contact_search_keys_contact_idx" ON "contact_search_keys" USING btree ("contact_id");--> statement-breakpoint
CREATE FUNCTION contact_search_keys_of(name_folded text, email text, number text)
RETURNS TABLE (field smallint, key text) LANGUAGE sql IMMUTABLE AS $$
  SELECT DISTINCT f.field, left(substr(f.value, i), 24)
    FROM (VALUES (1::smallint, name_folded), (3::smallint, lower(email)),
                 (2::smallint, regexp_replace(number, '\D', '', 'g'))) AS f(field, value)
    CROSS JOIN LATERAL generate_series(1, length(f.value)) AS i
   WHERE f.value IS NOT NULL AND substr(f.value, i, 1) <> ' '
$$;--> statement-breakpoint
CREATE FUNCTION contact_search_keys_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contact_search_keys (tenant_id, contact_id, field, key)
  SELECT c.tenant_id, c.id, k.field, k.key
    FROM added c CROSS JOIN LATERAL contact_search_keys_of(c.name_folded, c.email, c.number) k
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION contact_search_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM contact_search_keys k USING new_rows n JOIN old_rows o ON o.id = n.id
   WHERE k.contact_id = n.id AND (n.name_folded IS DISTINCT FROM o.name_folded
      OR n.email IS DISTINCT FROM o.email OR n.number IS DISTINCT FROM o.number);
  INSERT INTO contact_search_keys (tenant_id, contact_id, field, key)
  SELECT c.tenant_id, c.id, k.field, k.key
    FROM new_rows c JOIN old_rows o ON o.id = c.id
    CROSS JOIN LATERAL contact_search_keys_of(c.name_folded, c.email, c.number) k
   WHERE c.name_folded IS DISTINCT FROM o.name_folded OR c.email IS DISTINCT FROM o.email
      OR c.number IS DISTINCT FROM o.number
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION contact_search_keys_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM contact_search_keys k USING removed r WHERE k.contact_id = r.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER contacts_search_keys_added AFTER INSERT ON contacts
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION contact_search_keys_added();--> statement-breakpoint
CREATE TRIGGER contacts_search_keys_changed AFTER UPDATE ON contacts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contact_search_keys_changed();--> statement-breakpoint
CREATE TRIGGER contacts_search_keys_removed AFTER DELETE ON contacts
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION contact_search_keys_removed();--> statement-breakpoint
SELECT set_config('app.system', 'migrations.contact-search-keys', true);--> statement-breakpoint
INSERT INTO contact_search_keys (tenant_id, contact_id, field, key)
SELECT c.tenant_id, c.id, k.field, k.key
  FROM contacts c CROSS JOIN LATERAL contact_search_keys_of(c.name_folded, c.email, c.number) k;
