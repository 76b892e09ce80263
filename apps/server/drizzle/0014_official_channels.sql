CREATE TABLE "waba_templates" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "waba_templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"channel_id" bigint NOT NULL,
	"provider_id" text,
	"name" text NOT NULL,
	"language" text NOT NULL,
	"status" text NOT NULL,
	"category" text,
	"components" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "meta_app_secret" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "outbound_payload" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "pricing_category" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "conversation_id" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "meta_token" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "waba_token" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "hub_token" text;--> statement-breakpoint
ALTER TABLE "waba_templates" ADD CONSTRAINT "waba_templates_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waba_templates" ADD CONSTRAINT "waba_templates_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "waba_templates_channel_name_lang_unique" ON "waba_templates" USING btree ("channel_id","name","language");--> statement-breakpoint
CREATE INDEX "waba_templates_tenant_idx" ON "waba_templates" USING btree ("tenant_id","channel_id");--> statement-breakpoint
CREATE INDEX "channels_provider_id_idx" ON "channels" USING btree ("type","waba_id");