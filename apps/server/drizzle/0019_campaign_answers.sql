ALTER TABLE "campaign_contacts" ADD COLUMN "vars" jsonb;--> statement-breakpoint
ALTER TABLE "campaign_contacts" ADD COLUMN "answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "kind" text DEFAULT 'campaign' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "min_delay_seconds" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "max_delay_seconds" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "media_ptt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "campaign_opt_out_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "campaign_id" bigint;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "campaign_name" text;