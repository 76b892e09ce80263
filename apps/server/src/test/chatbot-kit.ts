/**
 * Test support for the chatbot engine: a Telegram channel driven through the simulator (the customer's updates
 * posted to our webhook, our sends read back from the simulator), flows made through the HTTP API, and the jobs run
 * by hand (timers made due first).
 */
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  validateChatFlow,
  type ChannelDto,
  type ChatFlowConfigurations,
  type ChatFlowDto,
  type ChatFlowGraph,
  type TicketDto,
} from '@conversa/shared';
import { queryRows } from '../platform/db/client.js';
import { systemContext, withTenant } from '../platform/db/tenancy.js';
import type { JobDefinition } from '../platform/jobs/queue.js';
import { createTestApp, type TestApp, type TestUser } from './harness.js';
import {
  startTelegramSimulator,
  type TelegramSimulator,
} from '../modules/channels/providers/telegram/telegram.simulator.js';
import { contacts } from '../modules/contacts/contacts.tables.js';

const TOKEN = '7000000456:AAH-chatbot_engine_token_for_tests_1';

export interface StepSpec {
  id: string;
  say?: string[];
  interactions?: Record<string, unknown>[];
  conditions?: Record<string, unknown>[];
  actions?: Record<string, unknown>[];
}

/** A flow graph: start -> the first step, the configurations, the steps; condition lines drawn from nextStepId. */
export function graph(config: ChatFlowConfigurations, steps: StepSpec[]): ChatFlowGraph {
  const nodes = steps.map((s) => ({
    id: s.id,
    type: 'node' as const,
    name: s.id,
    interactions:
      s.interactions ??
      (s.say ?? []).map((message, i) => ({ id: `${s.id}-m${i}`, type: 'MessageField', data: { message } })),
    conditions: (s.conditions ?? []).map((c, i): Record<string, unknown> & { id: string } => ({
      id: `${s.id}-c${i}`,
      condition: [],
      ...c,
    })),
    actions: (s.actions ?? []).map((a, i) => ({ id: `${s.id}-a${i}`, ...a })),
  }));
  const lines = [
    { from: 'start', to: steps[0]!.id },
    ...nodes.flatMap((n) =>
      n.conditions
        .filter((c) => c.action === 0 && c.nextStepId)
        .map((c) => ({ from: n.id, to: String(c.nextStepId), fromCondition: c.id })),
    ),
  ];
  const flow = {
    name: 'test',
    nodeList: [
      { id: 'start', type: 'start', name: 'Início' },
      { id: 'configurations', type: 'configurations', name: 'Configurações', configurations: config },
      ...nodes,
    ],
    lineList: lines,
  } as unknown as ChatFlowGraph;
  expect(validateChatFlow(flow)).toEqual([]);
  return flow;
}

export interface BotKit {
  t: TestApp;
  sim: TelegramSimulator;
  admin: TestUser;
  agent: TestUser;
  supervisor: TestUser;
  channel: ChannelDto;
  secret: string;
  /** The bot token: the simulator serves its files under `${sim.url}/file/bot<token>/<path>`. */
  token: string;
  close(): Promise<void>;
}

export async function startBotKit(env: Record<string, string> = {}): Promise<BotKit> {
  const sim = await startTelegramSimulator();
  sim.bots.set(TOKEN, { id: 7000000456, username: 'engine_bot' });
  const t = await createTestApp({ TELEGRAM_API_ROOT: sim.url, PUBLIC_URL: 'https://conversa.example', ...env });
  const { admin, agent, supervisor } = await t.createStaff();
  const created = await t.call(admin, 'POST', '/whatsapp', { name: 'Loja', type: 'telegram', tokenTelegram: TOKEN });
  expect(created.statusCode, created.body).toBe(201);
  const channel = created.json<ChannelDto>();
  expect((await t.call(admin, 'POST', `/whatsappsession/${channel.id}`)).statusCode).toBe(200);
  const secret = String(sim.callsOf('setWebhook')[0]!.params.secret_token);
  return {
    t,
    sim,
    admin,
    agent,
    supervisor,
    channel,
    secret,
    token: TOKEN,
    async close() {
      await t.close();
      await sim.close();
    },
  };
}

let updateId = 930000000;

export function botHelpers(kit: () => BotKit) {
  const job = (name: string) =>
    kit().t.jobDefinitions.find((d) => d.name === name) as unknown as JobDefinition<unknown>;

  /** The customer `chatId` writes `text` (or sends a photo); answers the update id (replays reuse it). */
  async function customerSays(
    chatId: number,
    text: string,
    options: { updateId?: number; photo?: boolean; group?: boolean; name?: string } = {},
  ): Promise<number> {
    const k = kit();
    const id = options.updateId ?? (updateId += 1);
    const from = { id: chatId, is_bot: false, first_name: options.name ?? `Cliente ${chatId}` };
    const chat = options.group ? { id: -chatId, type: 'group', title: 'Grupo' } : { ...from, type: 'private' };
    const content = options.photo
      ? { photo: [{ file_id: `photo-${id}`, file_unique_id: `u${id}`, width: 10, height: 10 }] }
      : { text };
    const res = await k.t.app.inject({
      method: 'POST',
      url: `/api/webhooks/telegram/${k.channel.id}`,
      headers: { 'x-telegram-bot-api-secret-token': k.secret },
      payload: { update_id: id, message: { message_id: id, from, chat, date: 1763700000, ...content } },
    });
    expect(res.statusCode).toBe(200);
    return id;
  }

  /** Runs the chatbot's jobs and the sends they queue until nothing is left that is due. */
  async function settle(): Promise<void> {
    for (let round = 0; round < 20; round += 1) {
      let ran = 0;
      for (const name of ['chatbot.inbound', 'chatbot.resume', 'chatbot.timeout', 'messages.send']) {
        ran += await kit().t.jobs.runPending(job(name));
      }
      if (ran === 0) return;
    }
    throw new Error('jobs kept coming');
  }

  /** Makes the pending jobs of `name` due now (timers, delays). */
  async function makeDue(name: string): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      kit().t.platform.db,
      sql`with due as (update pgboss.job set start_after = now() where name = ${name} and state in ('created', 'retry')
          returning 1) select count(*)::int as n from due`,
    );
    return rows[0]!.n;
  }

  const textsTo = (chatId: number): string[] =>
    kit()
      .sim.callsOf('sendMessage')
      .filter((call) => String(call.params.chat_id) === String(chatId))
      .map((call) => String(call.params.text));

  const ticketOf = async (chatId: number): Promise<TicketDto> => {
    const list = (
      await kit().t.call(kit().admin, 'GET', '/tickets?status=pending&status=open&status=closed&showAll=true')
    ).json<{ tickets: TicketDto[] }>();
    const found = list.tickets
      .filter((ticket) => ticket.contact?.telegramId === String(chatId))
      .sort((a, b) => b.id - a.id)[0];
    if (!found) throw new Error(`no ticket of ${chatId}`);
    return found;
  };

  /** The ticket row's bot columns (read as the system). */
  async function botState(ticketId: number) {
    const rows = await queryRows<{
      status: string;
      userId: number | null;
      queueId: number | null;
      chatFlowId: number | null;
      stepChatFlow: string | null;
      autoReplyId: number | null;
      stepAutoReplyId: number | null;
      botRetries: number;
      chatbotState: Record<string, unknown>;
      absenceSentAt: string | null;
    }>(
      kit().t.platform.db,
      sql`select status, user_id as "userId", queue_id as "queueId", chat_flow_id as "chatFlowId",
            step_chat_flow as "stepChatFlow", auto_reply_id as "autoReplyId", step_auto_reply_id as "stepAutoReplyId",
            bot_retries as "botRetries", chatbot_state as "chatbotState", absence_sent_at as "absenceSentAt"
          from tickets where id = ${ticketId}`,
    );
    return rows[0]!;
  }

  async function logsOf(ticketId: number) {
    return (await kit().t.call(kit().admin, 'GET', `/tickets/${ticketId}/logs`)).json<
      { type: string; details: Record<string, unknown>; user: unknown }[]
    >();
  }

  async function createFlow(
    flow: ChatFlowGraph,
    options: { isActive?: boolean; celularTeste?: string | null; name?: string } = {},
  ): Promise<ChatFlowDto> {
    const res = await kit().t.call(kit().admin, 'POST', '/chat-flow', {
      name: options.name ?? `Fluxo ${updateId}`,
      isActive: options.isActive ?? true,
      celularTeste: options.celularTeste ?? null,
      flow,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ChatFlowDto>();
  }

  /** Makes `flow` the channel's flow (PUT /whatsapp/{id} chatFlowId); null clears it. */
  async function setChannelFlow(flowId: number | null): Promise<void> {
    const k = kit();
    const res = await k.t.call(k.admin, 'PUT', `/whatsapp/${k.channel.id}`, {
      name: k.channel.name,
      type: 'telegram',
      chatFlowId: flowId,
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  /** A contact of this Telegram chat made before its first message, with a phone number (test numbers). */
  async function contactWithNumber(chatId: number, number: string): Promise<void> {
    await withTenant(kit().t.platform.db, systemContext(1), (tx) =>
      tx.insert(contacts).values({ tenantId: 1, name: `Cliente ${chatId}`, telegramId: String(chatId), number }),
    );
  }

  async function setSetting(key: string, value: string): Promise<void> {
    const res = await kit().t.call(kit().admin, 'PUT', `/settings/${key}`, { key, value });
    expect(res.statusCode, res.body).toBe(200);
  }

  /** Every day open ('O') or closed ('C'): the company attends always or never, whatever the clock says. */
  async function setHours(type: 'O' | 'C', absence?: string): Promise<void> {
    const k = kit();
    const days = [0, 1, 2, 3, 4, 5, 6].map((day) => ({
      day,
      label: String(day),
      type,
      hr1: '08:00',
      hr2: '12:00',
      hr3: '14:00',
      hr4: '18:00',
    }));
    const res = await k.t.call(k.admin, 'PUT', '/tenants/business-hours/', days);
    expect(res.statusCode, res.body).toBe(200);
    if (absence !== undefined) {
      const msg = await k.t.call(k.admin, 'PUT', '/tenants/message-business-hours/', { messageBusinessHours: absence });
      expect(msg.statusCode, msg.body).toBe(200);
    }
  }

  /** Ids of the ticket's messages with that body, oldest first. */
  async function messagesOf(ticketId: number, body: string): Promise<number[]> {
    const rows = await queryRows<{ id: number }>(
      kit().t.platform.db,
      sql`select id from messages where ticket_id = ${ticketId} and body = ${body} order by id`,
    );
    return rows.map((row) => row.id);
  }

  return {
    messagesOf,
    setSetting,
    setHours,
    job,
    customerSays,
    settle,
    makeDue,
    textsTo,
    ticketOf,
    botState,
    logsOf,
    createFlow,
    setChannelFlow,
    contactWithNumber,
  };
}
