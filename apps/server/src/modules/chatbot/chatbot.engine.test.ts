/**
 * The chatbot engine driven end to end over Telegram: the simulator posts the customer's updates to our webhook,
 * ingestion enqueues `chatbot.inbound`, the jobs run the flow, and the bot's texts reach the simulator through the
 * send jobs.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TicketDto } from '@conversa/shared';
import { makeQueue } from '../../test/ticket-fixtures.js';
import { botHelpers, graph, startBotKit, type BotKit } from '../../test/chatbot-kit.js';

let kit: BotKit;
const h = botHelpers(() => kit);
const { customerSays, settle, textsTo, ticketOf, botState, logsOf, createFlow, setChannelFlow } = h;

let sales: number;
let chat = 771000000;
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
});

/** A menu: 1/vendas -> the sales queue, 2 -> a step that ends the flow. */
const menuFlow = (config = {}) =>
  graph(config, [
    {
      id: 'menu',
      say: ['Olá {{firstName}}! Protocolo {{protocol}}.', 'Digite 1 para Vendas ou 2 para Suporte.'],
      conditions: [
        { type: 'US', condition: ['1', 'Vendas'], action: 1, queueId: sales },
        { type: 'US', condition: ['2'], action: 0, nextStepId: 'support' },
      ],
    },
    { id: 'support', say: ['Um atendente do suporte já vai falar com você.'] },
  ]);

describe('a channel flow', () => {
  it('greets a new conversation and hands it to the queue the answer names (US, any case and accents)', async () => {
    const flow = await createFlow(menuFlow({ welcomeMessage: { message: 'Bem-vindo!' } }));
    await setChannelFlow(flow.id);
    const id = nextChat();
    await customerSays(id, 'oi', { name: 'Maria Silva' });
    await settle();
    const ticket = await ticketOf(id);
    expect(textsTo(id)).toEqual([
      'Bem-vindo!',
      `Olá Maria! Protocolo ${ticket.protocol}.`,
      'Digite 1 para Vendas ou 2 para Suporte.',
    ]);
    expect(await botState(ticket.id)).toMatchObject({
      status: 'pending',
      userId: null,
      chatFlowId: flow.id,
      stepChatFlow: 'menu',
    });

    await customerSays(id, '  VENDÁS ');
    await settle();
    expect(await botState(ticket.id)).toMatchObject({
      status: 'pending',
      queueId: sales,
      chatFlowId: null,
      stepChatFlow: null,
      botRetries: 0,
    });
    const logs = await logsOf(ticket.id);
    expect(logs.at(-1)).toMatchObject({
      type: 'chatBot',
      details: { to: 'queue', queueId: sales, flowId: flow.id },
      user: null,
    });
    expect(textsTo(id)).toHaveLength(3);
  });

  it('a step without conditions ends the flow: the ticket stays pending in its queue', async () => {
    const flow = await createFlow(menuFlow());
    await setChannelFlow(flow.id);
    const id = nextChat();
    await customerSays(id, 'olá');
    await settle();
    await customerSays(id, '2');
    await settle();
    const ticket = await ticketOf(id);
    expect(textsTo(id).at(-1)).toBe('Um atendente do suporte já vai falar com você.');
    expect(await botState(ticket.id)).toMatchObject({ status: 'pending', chatFlowId: null, stepChatFlow: null });
    expect((await logsOf(ticket.id)).at(-1)).toMatchObject({ type: 'chatBot', details: { reason: 'ended' } });
  });
});

describe('tickets without a flow', () => {
  it('a tenant without flows enqueues no chatbot job and announces the new ticket with notify', async () => {
    const id = nextChat();
    const events: { notify?: boolean; type: string }[] = [];
    const off = kit.t.platform.events.subscribe('tickets.changed', (e) => {
      if (e.ticket.contact?.telegramId === String(id)) events.push(e);
    });
    await customerSays(id, 'oi');
    expect(await kit.t.jobs.runPending(h.job('chatbot.inbound'))).toBe(0);
    await new Promise((r) => setTimeout(r, 10));
    off();
    expect(events).toEqual([expect.objectContaining({ type: 'ticket:create', notify: true })]);
    const ticket: TicketDto = await ticketOf(id);
    expect(ticket.status).toBe('pending');
  });
});
