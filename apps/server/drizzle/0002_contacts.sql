CREATE TABLE "contact_tags" (
	"tenant_id" bigint NOT NULL,
	"contact_id" bigint NOT NULL,
	"tag_id" bigint NOT NULL,
	CONSTRAINT "contact_tags_contact_id_tag_id_pk" PRIMARY KEY("contact_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "contact_wallets" (
	"tenant_id" bigint NOT NULL,
	"contact_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	CONSTRAINT "contact_wallets_contact_id_user_id_pk" PRIMARY KEY("contact_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contacts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"name" text NOT NULL,
	"number" text,
	"email" text DEFAULT '' NOT NULL,
	"profile_pic_url" text,
	"pushname" text,
	"is_group" boolean DEFAULT false NOT NULL,
	"cpf" text,
	"birthday_date" date,
	"first_name" text,
	"last_name" text,
	"business_name" text,
	"telegram_id" text,
	"messenger_id" text,
	"instagram_pk" text,
	"hub_whatsapp" text,
	"kanban" bigint,
	"blocked" boolean DEFAULT false NOT NULL,
	"chatbot_blocked" boolean DEFAULT false NOT NULL,
	"extra_info" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tags_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"tag" text NOT NULL,
	"color" text DEFAULT '#1976d2' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_tags" ADD CONSTRAINT "contact_tags_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_tags" ADD CONSTRAINT "contact_tags_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_tags" ADD CONSTRAINT "contact_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_wallets" ADD CONSTRAINT "contact_wallets_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_wallets" ADD CONSTRAINT "contact_wallets_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_wallets" ADD CONSTRAINT "contact_wallets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_tags_tenant_tag_idx" ON "contact_tags" USING btree ("tenant_id","tag_id");--> statement-breakpoint
CREATE INDEX "contact_wallets_tenant_user_idx" ON "contact_wallets" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_tenant_number_unique" ON "contacts" USING btree ("tenant_id","number") WHERE "contacts"."number" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_tenant_telegram_unique" ON "contacts" USING btree ("tenant_id","telegram_id") WHERE "contacts"."telegram_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_tenant_messenger_unique" ON "contacts" USING btree ("tenant_id","messenger_id") WHERE "contacts"."messenger_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_tenant_instagram_unique" ON "contacts" USING btree ("tenant_id","instagram_pk") WHERE "contacts"."instagram_pk" is not null;--> statement-breakpoint
CREATE INDEX "contacts_tenant_name_idx" ON "contacts" USING btree ("tenant_id","name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_tenant_tag_unique" ON "tags" USING btree ("tenant_id",lower("tag"));