ALTER TABLE "campaign_contacts" ADD COLUMN "answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "campaign_opt_out_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "campaign_id" bigint;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "campaign_name" text;