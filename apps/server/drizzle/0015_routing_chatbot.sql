CREATE TABLE "auto_replies" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "auto_replies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"name" text NOT NULL,
	"action" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"celular_teste" text,
	"user_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auto_reply_actions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "auto_reply_actions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"step_reply_id" bigint NOT NULL,
	"words" text NOT NULL,
	"action" integer NOT NULL,
	"queue_id" bigint,
	"user_id_destination" bigint,
	"next_step_id" bigint,
	"reply_definition" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auto_reply_steps" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "auto_reply_steps_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"auto_reply_id" bigint NOT NULL,
	"reply" text NOT NULL,
	"initial_step" boolean DEFAULT false NOT NULL,
	"user_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_flows" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_flows_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"name" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"celular_teste" text,
	"user_id" bigint,
	"flow" jsonb NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "distribution" text DEFAULT 'N' NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "distribution" text DEFAULT 'N' NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "absence_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_distributed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "auto_replies" ADD CONSTRAINT "auto_replies_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_replies" ADD CONSTRAINT "auto_replies_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_reply_actions" ADD CONSTRAINT "auto_reply_actions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_reply_actions" ADD CONSTRAINT "auto_reply_actions_step_reply_id_auto_reply_steps_id_fk" FOREIGN KEY ("step_reply_id") REFERENCES "public"."auto_reply_steps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_reply_actions" ADD CONSTRAINT "auto_reply_actions_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_reply_actions" ADD CONSTRAINT "auto_reply_actions_user_id_destination_users_id_fk" FOREIGN KEY ("user_id_destination") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_reply_actions" ADD CONSTRAINT "auto_reply_actions_next_step_id_auto_reply_steps_id_fk" FOREIGN KEY ("next_step_id") REFERENCES "public"."auto_reply_steps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_reply_steps" ADD CONSTRAINT "auto_reply_steps_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_reply_steps" ADD CONSTRAINT "auto_reply_steps_auto_reply_id_auto_replies_id_fk" FOREIGN KEY ("auto_reply_id") REFERENCES "public"."auto_replies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_reply_steps" ADD CONSTRAINT "auto_reply_steps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_flows" ADD CONSTRAINT "chat_flows_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_flows" ADD CONSTRAINT "chat_flows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auto_replies_tenant_idx" ON "auto_replies" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "auto_reply_actions_step_idx" ON "auto_reply_actions" USING btree ("tenant_id","step_reply_id","id");--> statement-breakpoint
CREATE INDEX "auto_reply_steps_reply_idx" ON "auto_reply_steps" USING btree ("tenant_id","auto_reply_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "auto_reply_steps_one_initial" ON "auto_reply_steps" USING btree ("auto_reply_id") WHERE "auto_reply_steps"."initial_step";--> statement-breakpoint
CREATE INDEX "chat_flows_tenant_idx" ON "chat_flows" USING btree ("tenant_id","is_deleted","id");--> statement-breakpoint
UPDATE "channels" SET "distribution" = 'B' WHERE "self_distribute" = 'enabled';
