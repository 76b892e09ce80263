/**
 * Business hours and the absence message over Telegram (decisions §D): once per ticket, never to groups, never while
 * the bot handles the ticket, right after the bot's handover outside hours; a flow's outOpenHours hands a
 * conversation that starts outside hours straight over. "Outside hours" is made by closing every day (C) and
 * "inside" by opening every day (O), so the clock of the run does not matter; the hours at their boundaries are
 * tested in packages/shared/src/business-hours.test.ts.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../platform/db/client.js';
import { makeQueue } from '../../test/ticket-fixtures.js';
import { botHelpers, graph, startBotKit, type BotKit } from '../../test/chatbot-kit.js';

let kit: BotKit;
const h = botHelpers(() => kit);
const { customerSays, settle, textsTo, ticketOf, botState, logsOf, createFlow, setChannelFlow, setHours } = h;

const ABSENCE = 'Estamos fora do horário, {{firstName}}. Voltamos amanhã às 8h.';
const absenceFor = (first: string) => `Estamos fora do horário, ${first}. Voltamos amanhã às 8h.`;

let sales: number;
let chat = 772000000;
const nextChat = () => (chat += 1);

beforeAll(async () => {
  kit = await startBotKit();
  sales = await makeQueue(kit.t, 1, 'Vendas');
});
afterAll(async () => {
  await kit.close();
});
beforeEach(async () => {
  await setChannelFlow(null);
  await setHours('C', ABSENCE);
});

const menu = (config = {}) =>
  graph(config, [
    {
      id: 'menu',
      say: ['1 para Vendas'],
      conditions: [{ type: 'US', condition: ['1'], action: 1, queueId: sales }],
    },
  ]);

describe('the absence message', () => {
  it('goes once per conversation: two messages outside hours get one', async () => {
    const id = nextChat();
    await customerSays(id, 'oi', { name: 'Paulo Lima' });
    await settle();
    await customerSays(id, 'alguém aí?');
    await settle();
    expect(textsTo(id)).toEqual([absenceFor('Paulo')]);
    const ticket = await ticketOf(id);
    expect((await botState(ticket.id)).absenceSentAt).not.toBeNull();
    // The absence message answers no one: both customer messages stay unread, the ticket waits for an answer.
    expect(ticket).toMatchObject({ unreadMessages: 2, answered: false });
    // Each message after the first costs nothing more: no job at all.
    await customerSays(id, 'e agora?');
    expect(await kit.t.jobs.runPending(h.job('chatbot.inbound'))).toBe(0);
    // And a job for it (a node that read an older configuration) sends nothing either.
    const [later] = await h.messagesOf(ticket.id, 'e agora?');
    await kit.t.jobs.enqueue(h.job('chatbot.inbound'), {
      tenantId: 1,
      ticketId: ticket.id,
      messageId: later!,
      created: false,
    });
    await settle();
    expect(textsTo(id)).toEqual([absenceFor('Paulo')]);
  });

  it('a new ticket of the same contact is a new conversation: the message goes again', async () => {
    const id = nextChat();
    await customerSays(id, 'oi');
    await settle();
    const first = await ticketOf(id);
    expect((await kit.t.call(kit.admin, 'PUT', `/ticketsNull/${first.id}`, {})).statusCode).toBe(200);
    await customerSays(id, 'oi de novo');
    await settle();
    expect(textsTo(id)).toEqual([absenceFor('Cliente'), absenceFor('Cliente')]);
  });

  it('never goes to a group', async () => {
    const id = nextChat();
    await customerSays(id, 'oi grupo', { group: true });
    expect(await kit.t.jobs.runPending(h.job('chatbot.inbound'))).toBe(0);
    // Not even from a job that names the group's message.
    const [group] = await queryRows<{ ticketId: number; messageId: number }>(
      kit.t.platform.db,
      sql`select t.id as "ticketId", m.id as "messageId" from tickets t join messages m on m.ticket_id = t.id
          where t.is_group and m.body = 'oi grupo'`,
    );
    await kit.t.jobs.enqueue(h.job('chatbot.inbound'), { tenantId: 1, ...group!, created: true });
    await settle();
    expect(kit.sim.callsOf('sendMessage').filter((c) => String(c.params.chat_id) === String(-id))).toEqual([]);
  });

  it('inside business hours nothing is sent and no job is enqueued', async () => {
    await setHours('O');
    const id = nextChat();
    await customerSays(id, 'oi');
    expect(await kit.t.jobs.runPending(h.job('chatbot.inbound'))).toBe(0);
    expect(textsTo(id)).toEqual([]);
  });

  it('an empty absence message sends nothing', async () => {
    await setHours('C', '  ');
    const id = nextChat();
    await customerSays(id, 'oi');
    await settle();
    expect(textsTo(id)).toEqual([]);
  });
});

describe('the absence message and the bot', () => {
  it('not while the bot handles the ticket; once right after the bot hands it over', async () => {
    await setChannelFlow((await createFlow(menu())).id);
    const id = nextChat();
    await customerSays(id, 'oi');
    await settle();
    await customerSays(id, 'hã?');
    await settle();
    expect(textsTo(id)).toEqual(['1 para Vendas', '1 para Vendas']);
    await customerSays(id, '1');
    await settle();
    expect(textsTo(id)).toEqual(['1 para Vendas', '1 para Vendas', absenceFor('Cliente')]);
    await customerSays(id, 'ok');
    await settle();
    expect(textsTo(id)).toHaveLength(3);
  });

  it('outOpenHours: a conversation that starts outside hours goes to its destination, then the absence message', async () => {
    const flow = await createFlow(menu({ outOpenHours: { type: 1, destiny: sales } }));
    await setChannelFlow(flow.id);
    const id = nextChat();
    await customerSays(id, 'oi');
    await settle();
    const ticket = await ticketOf(id);
    expect(textsTo(id)).toEqual([absenceFor('Cliente')]);
    expect(await botState(ticket.id)).toMatchObject({ queueId: sales, chatFlowId: null, stepChatFlow: null });
    expect((await logsOf(ticket.id)).at(-1)).toMatchObject({
      type: 'chatBot',
      details: { to: 'queue', queueId: sales, flowId: flow.id, reason: 'outOpenHours' },
    });
  });

  it('outOpenHours inside business hours: the flow runs', async () => {
    await setHours('O', ABSENCE);
    const flow = await createFlow(menu({ outOpenHours: { type: 1, destiny: sales } }));
    await setChannelFlow(flow.id);
    const id = nextChat();
    await customerSays(id, 'oi');
    await settle();
    expect(textsTo(id)).toEqual(['1 para Vendas']);
    expect(await botState((await ticketOf(id)).id)).toMatchObject({ chatFlowId: flow.id, stepChatFlow: 'menu' });
  });
});
