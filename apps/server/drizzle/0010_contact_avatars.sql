ALTER TABLE "contacts" ADD COLUMN "avatar_key" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "avatar_checked_at" timestamp with time zone;