CREATE TABLE "channels" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "channels_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"number" text,
	"status" text DEFAULT 'DISCONNECTED' NOT NULL,
	"qrcode" text,
	"retries" integer DEFAULT 0 NOT NULL,
	"profile_pic" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"queue_id" bigint,
	"user_id" bigint,
	"chat_flow_id" bigint,
	"token_telegram" text,
	"token_api" text,
	"waba_id" text,
	"bm_token" text,
	"waba_version" text DEFAULT '20.0' NOT NULL,
	"waba_bsp" text,
	"instagram_user" text,
	"instagram_key" text,
	"wpp_user" text,
	"wpp_pass" text,
	"proxy_url" text,
	"proxy_user" text,
	"proxy_pass" text,
	"webversion" text,
	"remote_path" text,
	"fb_object" jsonb,
	"webhook_secret" text NOT NULL,
	"farewell_message" text,
	"close_key_word" text,
	"webhook" text,
	"birthday_date" text DEFAULT 'disabled' NOT NULL,
	"birthday_date_message" text,
	"birthday_date_hour" integer,
	"b_date_file_name" text,
	"import_messages" text DEFAULT 'disabled' NOT NULL,
	"import_old_messages" timestamp with time zone,
	"import_recent_messages" timestamp with time zone,
	"import_old_messages_groups" text DEFAULT 'disabled' NOT NULL,
	"import_group_messages" text DEFAULT 'disabled' NOT NULL,
	"closed_tickets_post_imported" text DEFAULT 'disabled' NOT NULL,
	"queue_id_import_messages" bigint,
	"web_push" text DEFAULT 'disabled' NOT NULL,
	"send_evaluation" text DEFAULT 'disabled' NOT NULL,
	"transcribe_audio" text DEFAULT 'disabled' NOT NULL,
	"self_distribute" text DEFAULT 'disabled' NOT NULL,
	"destroy_message" text DEFAULT 'disabled' NOT NULL,
	"is_button" text DEFAULT 'disabled' NOT NULL,
	"wordlist" text DEFAULT 'disabled' NOT NULL,
	"disable_external_integration" text DEFAULT 'disabled' NOT NULL,
	"wait_process_external_interaction" text DEFAULT 'disabled' NOT NULL,
	"wavoip_token" text,
	"integrations" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"provider_state" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_channels" (
	"tenant_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"channel_id" bigint NOT NULL,
	CONSTRAINT "user_channels_user_id_channel_id_pk" PRIMARY KEY("user_id","channel_id")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"ticket_id" bigint NOT NULL,
	"contact_id" bigint NOT NULL,
	"channel_id" bigint,
	"sender_contact_id" bigint,
	"user_id" bigint,
	"message_id" text,
	"id_front" text,
	"from_me" boolean NOT NULL,
	"read" boolean DEFAULT false NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"media_type" text DEFAULT 'chat' NOT NULL,
	"media_key" text,
	"media_name" text,
	"media_mime" text,
	"media_size" integer,
	"media_status" text DEFAULT 'none' NOT NULL,
	"media_ref" text,
	"is_sticker" boolean DEFAULT false NOT NULL,
	"ack" smallint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'received' NOT NULL,
	"send_type" text,
	"is_delayed" boolean DEFAULT false NOT NULL,
	"send_error" text,
	"send_attempts" integer DEFAULT 0 NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"edition" text,
	"edited_at" timestamp with time zone,
	"reaction" text,
	"reaction_from_me" text,
	"quoted_msg_id" bigint,
	"meta" text,
	"schedule_date" timestamp with time zone,
	"timestamp" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, translate(lower(coalesce(edition, body, '')), 'áàâãäåéèêëíìîïóòôõöúùûüçñýÿÁÀÂÃÄÅÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑÝ', 'aaaaaaeeeeiiiiooooouuuucnyyaaaaaaeeeeiiiiooooouuuucny'))) STORED
);
--> statement-breakpoint
CREATE TABLE "queues" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "queues_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"queue" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_queues" (
	"tenant_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"queue_id" bigint NOT NULL,
	CONSTRAINT "user_queues_user_id_queue_id_pk" PRIMARY KEY("user_id","queue_id")
);
--> statement-breakpoint
CREATE TABLE "tenant_counters" (
	"tenant_id" bigint NOT NULL,
	"name" text NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "tenant_counters_tenant_id_name_pk" PRIMARY KEY("tenant_id","name")
);
--> statement-breakpoint
CREATE TABLE "ticket_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ticket_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"ticket_id" bigint NOT NULL,
	"user_id" bigint,
	"type" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tickets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"contact_id" bigint NOT NULL,
	"channel_id" bigint,
	"channel" text NOT NULL,
	"user_id" bigint,
	"queue_id" bigint,
	"is_group" boolean DEFAULT false NOT NULL,
	"protocol" text NOT NULL,
	"unread_messages" integer DEFAULT 0 NOT NULL,
	"answered" boolean DEFAULT false NOT NULL,
	"last_message" text,
	"last_message_at" timestamp with time zone,
	"last_message_received_at" timestamp with time zone,
	"is_transference" boolean DEFAULT false NOT NULL,
	"is_farewell_message" boolean DEFAULT false NOT NULL,
	"is_active_demand" boolean DEFAULT false NOT NULL,
	"reason_id" bigint,
	"value" numeric(14, 2),
	"chat_flow_id" bigint,
	"step_chat_flow" text,
	"auto_reply_id" bigint,
	"step_auto_reply_id" bigint,
	"bot_retries" integer DEFAULT 0 NOT NULL,
	"chatbot_state" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"dify_status" text DEFAULT 'disabled' NOT NULL,
	"lm_status" text DEFAULT 'disabled' NOT NULL,
	"n8n_status" text DEFAULT 'disabled' NOT NULL,
	"typebot_status" text DEFAULT 'disabled' NOT NULL,
	"dialogflow_status" text DEFAULT 'disabled' NOT NULL,
	"chatgpt_status" text DEFAULT 'disabled' NOT NULL,
	"closing_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_queue_id_import_messages_queues_id_fk" FOREIGN KEY ("queue_id_import_messages") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_channels" ADD CONSTRAINT "user_channels_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_channels" ADD CONSTRAINT "user_channels_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_channels" ADD CONSTRAINT "user_channels_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_sender_contact_id_contacts_id_fk" FOREIGN KEY ("sender_contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_queues" ADD CONSTRAINT "user_queues_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_queues" ADD CONSTRAINT "user_queues_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_queues" ADD CONSTRAINT "user_queues_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_counters" ADD CONSTRAINT "tenant_counters_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_logs" ADD CONSTRAINT "ticket_logs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_logs" ADD CONSTRAINT "ticket_logs_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_logs" ADD CONSTRAINT "ticket_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "channels_tenant_idx" ON "channels" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "channels_tenant_default_unique" ON "channels" USING btree ("tenant_id") WHERE "channels"."is_default";--> statement-breakpoint
CREATE INDEX "user_channels_tenant_channel_idx" ON "user_channels" USING btree ("tenant_id","channel_id");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_provider_id_unique" ON "messages" USING btree ("tenant_id","channel_id","message_id") WHERE "messages"."message_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "messages_id_front_unique" ON "messages" USING btree ("tenant_id","ticket_id","id_front") WHERE "messages"."id_front" is not null;--> statement-breakpoint
CREATE INDEX "messages_ticket_idx" ON "messages" USING btree ("tenant_id","ticket_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messages_contact_channel_idx" ON "messages" USING btree ("tenant_id","contact_id","channel_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin ("search");--> statement-breakpoint
CREATE UNIQUE INDEX "queues_tenant_name_unique" ON "queues" USING btree ("tenant_id",lower("queue"));--> statement-breakpoint
CREATE INDEX "user_queues_tenant_queue_idx" ON "user_queues" USING btree ("tenant_id","queue_id");--> statement-breakpoint
CREATE INDEX "ticket_logs_ticket_idx" ON "ticket_logs" USING btree ("tenant_id","ticket_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_one_active_per_contact_channel" ON "tickets" USING btree ("tenant_id","contact_id",coalesce("channel_id", 0)) WHERE "tickets"."status" in ('open', 'pending');--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_tenant_protocol_unique" ON "tickets" USING btree ("tenant_id","protocol");--> statement-breakpoint
CREATE INDEX "tickets_tenant_status_updated_idx" ON "tickets" USING btree ("tenant_id","status","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "tickets_tenant_user_status_idx" ON "tickets" USING btree ("tenant_id","user_id","status","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "tickets_tenant_queue_status_idx" ON "tickets" USING btree ("tenant_id","queue_id","status","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "tickets_tenant_contact_idx" ON "tickets" USING btree ("tenant_id","contact_id","channel_id","id");