DROP INDEX "contact_tags_tenant_tag_idx";--> statement-breakpoint
CREATE INDEX "contacts_tenant_kanban_name_idx" ON "contacts" USING btree ("tenant_id","kanban","name","id");--> statement-breakpoint
CREATE INDEX "contact_tags_tenant_tag_idx" ON "contact_tags" USING btree ("tenant_id","tag_id","contact_id");