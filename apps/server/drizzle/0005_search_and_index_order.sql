DROP INDEX "messages_ticket_idx";--> statement-breakpoint
DROP INDEX "messages_contact_channel_idx";--> statement-breakpoint
DROP INDEX "tickets_tenant_status_updated_idx";--> statement-breakpoint
DROP INDEX "tickets_tenant_active_updated_idx";--> statement-breakpoint
DROP INDEX "tickets_tenant_user_status_idx";--> statement-breakpoint
DROP INDEX "tickets_tenant_queue_status_idx";--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "name_folded" text GENERATED ALWAYS AS (translate(lower(name), 'áàâãäåéèêëíìîïóòôõöúùûüçñýÿÁÀÂÃÄÅÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑÝ', 'aaaaaaeeeeiiiiooooouuuucnyyaaaaaaeeeeiiiiooooouuuucny')) STORED;--> statement-breakpoint
CREATE INDEX "messages_ticket_idx" ON "messages" USING btree ("tenant_id","ticket_id","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "messages_contact_channel_idx" ON "messages" USING btree ("tenant_id","contact_id","channel_id","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tickets_tenant_status_updated_idx" ON "tickets" USING btree ("tenant_id","status","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tickets_tenant_active_updated_idx" ON "tickets" USING btree ("tenant_id","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"queue_id","user_id") WHERE "tickets"."status" in ('open', 'pending');--> statement-breakpoint
CREATE INDEX "tickets_tenant_user_status_idx" ON "tickets" USING btree ("tenant_id","user_id","status","updated_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tickets_tenant_queue_status_idx" ON "tickets" USING btree ("tenant_id","queue_id","status","updated_at" DESC NULLS FIRST);