CREATE TABLE "channel_auth_keys" (
	"channel_id" bigint NOT NULL,
	"tenant_id" bigint NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channel_auth_keys_channel_id_key_pk" PRIMARY KEY("channel_id","key")
);
--> statement-breakpoint
CREATE TABLE "channel_sessions" (
	"channel_id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" bigint NOT NULL,
	"wanted" boolean DEFAULT false NOT NULL,
	"pairing_number" text,
	"owner" text,
	"lease_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "pairing_code" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "wuzapi_host" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "evo_host" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "evo_token" text;--> statement-breakpoint
ALTER TABLE "channel_auth_keys" ADD CONSTRAINT "channel_auth_keys_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_auth_keys" ADD CONSTRAINT "channel_auth_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_sessions" ADD CONSTRAINT "channel_sessions_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_sessions" ADD CONSTRAINT "channel_sessions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "channel_sessions_wanted_idx" ON "channel_sessions" USING btree ("wanted","lease_until");