ALTER TABLE "channels" ADD COLUMN "provider_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "channels_provider_key_unique" ON "channels" USING btree ("provider_key") WHERE "channels"."provider_key" is not null;--> statement-breakpoint
SELECT set_config('app.system', 'migrations.channel-provider-keys', true);--> statement-breakpoint
-- Existing connected channels (issue 22, ARCHITECTURE §6j): a provider id that exactly one connected channel has is
-- claimed by it (its traffic keeps flowing); an id that several connected channels have is claimed by none and all of
-- them are disconnected, so only a start that proves the credentials own the id takes it again. The keys are those of
-- channels.identity.ts; gateway channels (evo, meow) are claimed at their next start.
WITH keyed AS (
  SELECT id, CASE
      WHEN type IN ('waba', 'instagram') THEN type || ':' || nullif(waba_id, '')
      WHEN type = 'messenger' THEN 'messenger:' || coalesce(nullif(waba_id, ''), nullif(provider_state->>'pageId', ''))
      WHEN type = 'telegram' THEN 'telegram:' || coalesce(nullif(provider_state->>'botId', ''), nullif(split_part(token_telegram, ':', 1), ''))
      WHEN type = 'hub' OR type LIKE 'hub\_%' THEN 'hub:' || nullif(waba_id, '')
    END AS key
    FROM channels
   WHERE status = 'CONNECTED'
), counted AS (
  SELECT id, key, count(*) OVER (PARTITION BY key) AS holders FROM keyed WHERE key IS NOT NULL
)
UPDATE channels c
   SET provider_key = CASE WHEN counted.holders = 1 THEN counted.key END,
       status = CASE WHEN counted.holders = 1 THEN c.status ELSE 'DISCONNECTED' END
  FROM counted
 WHERE c.id = counted.id;
