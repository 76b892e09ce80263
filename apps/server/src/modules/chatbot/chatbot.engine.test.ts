/**
 * The chatbot engine driven end to end over Telegram: the simulator posts the customer's updates to our webhook,
 * ingestion enqueues `chatbot.inbound`, the jobs run the flow, and the bot's texts and files reach the simulator
 * through the send jobs.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TicketDto } from '@conversa/shared';
import { makeQueue, setVisibility } from '../../test/ticket-fixtures.js';
import { botHelpers, graph, startBotKit, type BotKit } from '../../test/chatbot-kit.js';
import { chatbotRuntime } from './index.js';

let kit: BotKit;
const h = botHelpers(() => kit);
const { customerSays, settle, textsTo, ticketOf, botState, logsOf, createFlow, setChannelFlow, makeDue } = h;

let sales: number;
let chat = 771000000;
const nextChat = () => (chat += 1);

beforeAll(async () => {
  kit = await startBotKit();
  sales = await makeQueue(kit.t, 1, 'Vendas', [kit.agent.id]);
});
afterAll(async () => {
  await kit.close();
});
beforeEach(async () => {
  await setChannelFlow(null);
  await h.setSetting('botTicketActive', '');
});

const MENU = ['Olá {{firstName}}! Protocolo {{protocol}}.', 'Digite 1 para Vendas ou 2 para Suporte.'];

/** A menu: 1/vendas -> the sales queue, 2 -> a step that ends the flow. */
const menuFlow = (config = {}) =>
  graph(config, [
    {
      id: 'menu',
      say: MENU,
      conditions: [
        { type: 'US', condition: ['1', 'Vendas'], action: 1, queueId: sales },
        { type: 'US', condition: ['2'], action: 0, nextStepId: 'support' },
      ],
    },
    { id: 'support', say: ['Um atendente do suporte já vai falar com você.'] },
  ]);

/** The menu texts as the customer `name` gets them on ticket `protocol`. */
const menuTexts = (first: string, protocol: string) => [
  `Olá ${first}! Protocolo ${protocol}.`,
  'Digite 1 para Vendas ou 2 para Suporte.',
];

/** A new conversation on the channel's flow `flowId`, the bot's first texts delivered; answers the chat and ticket. */
async function conversation(flowId: number, name = 'Maria Silva'): Promise<{ id: number; ticket: TicketDto }> {
  await setChannelFlow(flowId);
  const id = nextChat();
  await customerSays(id, 'oi', { name });
  await settle();
  return { id, ticket: await ticketOf(id) };
}

describe('a channel flow', () => {
  it('greets a new conversation and hands it to the queue the answer names (US, any case and accents)', async () => {
    const flow = await createFlow(menuFlow({ welcomeMessage: { message: 'Bem-vindo!' } }));
    const { id, ticket } = await conversation(flow.id);
    expect(textsTo(id)).toEqual(['Bem-vindo!', ...menuTexts('Maria', ticket.protocol)]);
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
    const { id, ticket } = await conversation((await createFlow(menuFlow())).id);
    await customerSays(id, '2');
    await settle();
    expect(textsTo(id).at(-1)).toBe('Um atendente do suporte já vai falar com você.');
    expect(await botState(ticket.id)).toMatchObject({ status: 'pending', chatFlowId: null, stepChatFlow: null });
    expect((await logsOf(ticket.id)).at(-1)).toMatchObject({ type: 'chatBot', details: { reason: 'ended' } });
    // The bot's texts show as the newest, but they answer no one: the agent after the bot sees both customer
    // messages unread and the ticket waiting for an answer.
    expect(await ticketOf(id)).toMatchObject({
      lastMessage: 'Um atendente do suporte já vai falar com você.',
      unreadMessages: 2,
      answered: false,
    });
  });

  it("the flow's keyword: only a first message containing one of its words starts it", async () => {
    const flow = await createFlow(menuFlow({ keyword: { message: 'orçamento, preço' } }));
    await setChannelFlow(flow.id);
    const plain = nextChat();
    await customerSays(plain, 'oi, tudo bem?');
    await settle();
    expect(textsTo(plain)).toEqual([]);
    expect(await botState((await ticketOf(plain)).id)).toMatchObject({ chatFlowId: null, stepChatFlow: null });
    const asking = nextChat();
    await customerSays(asking, 'Quero um ORCAMENTO por favor');
    await settle();
    expect(textsTo(asking)).toHaveLength(2);
    expect(await botState((await ticketOf(asking)).id)).toMatchObject({ chatFlowId: flow.id, stepChatFlow: 'menu' });
  });

  it('firstInteraction: a contact who had a conversation before goes straight to the destination', async () => {
    const flow = await createFlow(menuFlow({ firstInteraction: { type: 1, destiny: sales } }));
    const { id, ticket } = await conversation(flow.id);
    expect(textsTo(id)).toHaveLength(2);
    expect((await kit.t.call(kit.admin, 'PUT', `/ticketsNull/${ticket.id}`, {})).statusCode).toBe(200);
    await customerSays(id, 'voltei');
    await settle();
    const second = await ticketOf(id);
    expect(second.id).not.toBe(ticket.id);
    expect(textsTo(id)).toHaveLength(2);
    expect(await botState(second.id)).toMatchObject({ queueId: sales, chatFlowId: null, stepChatFlow: null });
    expect((await logsOf(second.id)).at(-1)).toMatchObject({
      type: 'chatBot',
      details: { to: 'queue', queueId: sales, flowId: flow.id, reason: 'firstInteraction' },
    });
  });
});

describe('answers the flow does not expect', () => {
  const invalid = (stepReturn: 'A' | 'S', extra = {}) =>
    graph({ notOptionsSelectMessage: { message: 'Opção inválida.', stepReturn }, ...extra }, [
      {
        id: 'menu',
        say: ['Menu: 1 submenu'],
        conditions: [{ type: 'US', condition: ['1'], action: 0, nextStepId: 'sub' }],
      },
      {
        id: 'sub',
        say: ['Submenu: a ou b'],
        conditions: [{ type: 'US', condition: ['a', 'b'], action: 1, queueId: sales }],
      },
    ]);

  it('stepReturn A: the invalid-option message, then the same step again; a match resets the count', async () => {
    const { id, ticket } = await conversation((await createFlow(invalid('A'))).id);
    await customerSays(id, '1');
    await settle();
    await customerSays(id, 'talvez');
    await settle();
    expect(textsTo(id)).toEqual(['Menu: 1 submenu', 'Submenu: a ou b', 'Opção inválida.', 'Submenu: a ou b']);
    expect(await botState(ticket.id)).toMatchObject({ stepChatFlow: 'sub', botRetries: 1 });
    await customerSays(id, 'B');
    await settle();
    expect(await botState(ticket.id)).toMatchObject({ queueId: sales, chatFlowId: null, botRetries: 0 });
  });

  it("stepReturn S: the invalid-option message, then the start's first step", async () => {
    const { id, ticket } = await conversation((await createFlow(invalid('S'))).id);
    await customerSays(id, '1');
    await settle();
    await customerSays(id, 'zzz');
    await settle();
    expect(textsTo(id)).toEqual(['Menu: 1 submenu', 'Submenu: a ou b', 'Opção inválida.', 'Menu: 1 submenu']);
    expect(await botState(ticket.id)).toMatchObject({ stepChatFlow: 'menu', botRetries: 1 });
  });

  it('a photo or an empty text counts as an empty answer: only R/O can take it', async () => {
    const { id, ticket } = await conversation((await createFlow(invalid('A'))).id);
    await customerSays(id, '', { photo: true });
    await settle();
    expect(textsTo(id)).toEqual(['Menu: 1 submenu', 'Opção inválida.', 'Menu: 1 submenu']);
    expect(await botState(ticket.id)).toMatchObject({ stepChatFlow: 'menu', botRetries: 1 });
  });

  it('the retries limit hands over to its queue (log retriesLimitQueue)', async () => {
    const flow = await createFlow(invalid('A', { maxRetryBotMessage: { number: 2, type: 1, destiny: sales } }));
    const { id, ticket } = await conversation(flow.id);
    await customerSays(id, 'x');
    await settle();
    expect(await botState(ticket.id)).toMatchObject({ stepChatFlow: 'menu', botRetries: 1 });
    await customerSays(id, 'y');
    await settle();
    expect(await botState(ticket.id)).toMatchObject({
      status: 'pending',
      queueId: sales,
      chatFlowId: null,
      stepChatFlow: null,
      botRetries: 0,
    });
    expect((await logsOf(ticket.id)).at(-1)).toMatchObject({
      type: 'retriesLimitQueue',
      details: { to: 'queue', queueId: sales, flowId: flow.id, retries: 2 },
    });
    // The second invalid answer got no invalid-option message: the humans took over.
    expect(textsTo(id)).toEqual(['Menu: 1 submenu', 'Opção inválida.', 'Menu: 1 submenu']);
  });

  it('the retries limit to a user: pending for that user (log retriesLimitUserDefine)', async () => {
    const flow = await createFlow(invalid('A', { maxRetryBotMessage: { number: 1, type: 2, destiny: kit.agent.id } }));
    const { id, ticket } = await conversation(flow.id);
    await customerSays(id, 'x');
    await settle();
    expect(await botState(ticket.id)).toMatchObject({ status: 'pending', userId: kit.agent.id, chatFlowId: null });
    expect((await logsOf(ticket.id)).at(-1)).toMatchObject({
      type: 'retriesLimitUserDefine',
      details: { to: 'user', userId: kit.agent.id, flowId: flow.id },
    });
  });

  it('R takes any answer; O takes what no other condition took', async () => {
    const flow = await createFlow(
      graph({}, [
        {
          id: 'ask',
          say: ['Seu nome?'],
          conditions: [{ type: 'R', action: 0, nextStepId: 'menu' }],
        },
        {
          id: 'menu',
          say: ['1 vendas'],
          conditions: [
            { type: 'O', action: 2, userIdDestination: kit.agent.id },
            { type: 'US', condition: ['1'], action: 1, queueId: sales },
          ],
        },
      ]),
    );
    const { id, ticket } = await conversation(flow.id);
    await customerSays(id, 'João');
    await settle();
    expect(await botState(ticket.id)).toMatchObject({ stepChatFlow: 'menu' });
    await customerSays(id, 'não sei');
    await settle();
    expect(await botState(ticket.id)).toMatchObject({ userId: kit.agent.id, chatFlowId: null });
    expect(textsTo(id)).toEqual(['Seu nome?', '1 vendas']);
  });
});

describe('actions', () => {
  it('action 4 closes the ticket as the system after the farewell message', async () => {
    const flow = await createFlow(
      graph({ farewellMessage: { message: 'Até logo, {{name}}!' } }, [
        { id: 'menu', say: ['Sair?'], conditions: [{ type: 'US', condition: ['sim'], action: 4 }] },
      ]),
    );
    const { id, ticket } = await conversation(flow.id, 'Ana Souza');
    await customerSays(id, 'Sim');
    await settle();
    expect(textsTo(id)).toEqual(['Sair?', 'Até logo, Ana Souza!']);
    expect(await botState(ticket.id)).toMatchObject({ status: 'closed', chatFlowId: null, stepChatFlow: null });
    expect((await logsOf(ticket.id)).at(-1)).toMatchObject({
      type: 'closed',
      user: null,
      details: { reason: 'chatBot', flowId: flow.id, to: { status: 'closed' } },
    });
  });

  it('action 3 switches to another active flow (its welcome and first step); to an inactive one it ends', async () => {
    const billing = await createFlow(
      graph({ welcomeMessage: { message: 'Financeiro.' } }, [
        { id: 'fin', say: ['Boleto ou Pix?'], conditions: [{ type: 'R', action: 1, queueId: sales }] },
      ]),
    );
    const off = await createFlow(graph({}, [{ id: 'x', say: ['nunca'] }]), { isActive: false });
    const flow = await createFlow(
      graph({}, [
        {
          id: 'menu',
          say: ['1 financeiro, 2 outro'],
          conditions: [
            { type: 'US', condition: ['1'], action: 3, chatFlowId: billing.id },
            { type: 'US', condition: ['2'], action: 3, chatFlowId: off.id },
          ],
        },
      ]),
    );
    const first = await conversation(flow.id);
    await customerSays(first.id, '1');
    await settle();
    expect(textsTo(first.id)).toEqual(['1 financeiro, 2 outro', 'Financeiro.', 'Boleto ou Pix?']);
    expect(await botState(first.ticket.id)).toMatchObject({ chatFlowId: billing.id, stepChatFlow: 'fin' });

    const second = await conversation(flow.id);
    await customerSays(second.id, '2');
    await settle();
    expect(textsTo(second.id)).toEqual(['1 financeiro, 2 outro']);
    expect(await botState(second.ticket.id)).toMatchObject({ chatFlowId: null, stepChatFlow: null });
  });

  it("a step's action runs after its interactions; an automatic (A) condition is followed at once", async () => {
    const flow = await createFlow(
      graph({}, [
        { id: 'hello', say: ['Oi!'], conditions: [{ type: 'A', action: 0, nextStepId: 'bye' }] },
        { id: 'bye', say: ['Vou te passar para Vendas.'], actions: [{ action: 1, queueId: sales }] },
      ]),
    );
    const { id, ticket } = await conversation(flow.id);
    expect(textsTo(id)).toEqual(['Oi!', 'Vou te passar para Vendas.']);
    expect(await botState(ticket.id)).toMatchObject({ queueId: sales, chatFlowId: null });
  });
});

describe('interactions', () => {
  it('a DelayField continues the rest of the step in a job after its seconds', async () => {
    const flow = await createFlow(
      graph({}, [
        {
          id: 'wait',
          interactions: [
            { id: 'm1', type: 'MessageField', data: { message: 'Um momento...' } },
            { id: 'd1', type: 'DelayField', data: { seconds: 30 } },
            { id: 'm2', type: 'MessageField', data: { message: 'Pronto! Digite 1.' } },
          ],
          conditions: [{ type: 'US', condition: ['1'], action: 1, queueId: sales }],
        },
      ]),
    );
    const { id, ticket } = await conversation(flow.id);
    expect(textsTo(id)).toEqual(['Um momento...']);
    const state = await botState(ticket.id);
    expect(state.chatbotState).toMatchObject({ timerKind: 'delay', resumeIndex: 2 });
    // An answer while the step is still sending is left for the humans (the flow does not move).
    await customerSays(id, '1');
    await settle();
    expect(await botState(ticket.id)).toMatchObject({ stepChatFlow: 'wait', queueId: null });
    expect(await makeDue('chatbot.resume')).toBe(1);
    await settle();
    expect(textsTo(id)).toEqual(['Um momento...', 'Pronto! Digite 1.']);
    expect((await botState(ticket.id)).chatbotState.timer).toBeUndefined();
    await customerSays(id, '1');
    await settle();
    expect(await botState(ticket.id)).toMatchObject({ queueId: sales, chatFlowId: null });
  });

  it('a MediaField sends a file: by URL (fetched by the send) and one the builder uploaded (from the store)', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    kit.sim.files.set('logo', { path: 'media/logo.png', data: png, type: 'image/png' });
    const boundary = 'flowmedia';
    const upload = await kit.t.app.inject({
      method: 'POST',
      url: '/api/chat-flow-media',
      headers: { ...kit.admin.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="tabela.pdf"\r\n` +
            'Content-Type: application/pdf\r\n\r\n',
        ),
        Buffer.from('%PDF-1.4 tabela'),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const uploaded = upload.json<{ mediaUrl: string; name: string; type: 'document' }>();
    const flow = await createFlow(
      graph({}, [
        {
          id: 'files',
          interactions: [
            {
              id: 'img',
              type: 'MediaField',
              data: { mediaUrl: `${kit.sim.url}/file/bot${kit.token}/media/logo.png`, type: 'image', caption: 'Logo' },
            },
            {
              id: 'doc',
              type: 'MediaField',
              data: { mediaUrl: uploaded.mediaUrl, type: 'document', name: 'tabela.pdf' },
            },
          ],
          conditions: [{ type: 'R', action: 1, queueId: sales }],
        },
      ]),
    );
    const { id } = await conversation(flow.id);
    const photos = kit.sim.callsOf('sendPhoto').filter((c) => String(c.params.chat_id) === String(id));
    expect(photos).toHaveLength(1);
    expect(photos[0]!.params).toMatchObject({ caption: 'Logo', photo: { type: 'image/png', size: png.length } });
    const docs = kit.sim.callsOf('sendDocument').filter((c) => String(c.params.chat_id) === String(id));
    expect(docs).toHaveLength(1);
    expect(docs[0]!.params).toMatchObject({ document: { name: 'tabela.pdf', text: '%PDF-1.4 tabela' } });
  });
});

describe('which flow a new conversation gets', () => {
  it('an inactive flow runs only for its test number', async () => {
    const flow = await createFlow(menuFlow({ welcomeMessage: { message: 'Modo teste' } }), {
      isActive: false,
      celularTeste: '+55 11 99999-0001',
    });
    const tester = nextChat();
    await h.contactWithNumber(tester, '5511999990001');
    await customerSays(tester, 'oi');
    const other = nextChat();
    await customerSays(other, 'oi');
    await settle();
    expect(textsTo(tester)[0]).toBe('Modo teste');
    expect(await botState((await ticketOf(tester)).id)).toMatchObject({ chatFlowId: flow.id });
    expect(textsTo(other)).toEqual([]);
    // Without its test number the flow is nobody's (the next tests count on it).
    const cleared = await kit.t.call(kit.admin, 'PUT', `/chat-flow/${flow.id}`, { ...flow, celularTeste: null });
    expect(cleared.statusCode, cleared.body).toBe(200);
  });

  it('the setting botTicketActive gives the default flow; the channel flow comes first', async () => {
    const byDefault = await createFlow(
      graph({}, [{ id: 'd', say: ['Padrão'], conditions: [{ type: 'R', action: 4 }] }]),
    );
    const ofChannel = await createFlow(
      graph({}, [{ id: 'c', say: ['Canal'], conditions: [{ type: 'R', action: 4 }] }]),
    );
    await h.setSetting('botTicketActive', String(byDefault.id));
    const first = nextChat();
    await customerSays(first, 'oi');
    await settle();
    expect(textsTo(first)).toEqual(['Padrão']);
    await setChannelFlow(ofChannel.id);
    const second = nextChat();
    await customerSays(second, 'oi');
    await settle();
    expect(textsTo(second)).toEqual(['Canal']);
  });

  it('never a group, never a contact with chatbotBlocked', async () => {
    const flow = await createFlow(menuFlow());
    await setChannelFlow(flow.id);
    const group = nextChat();
    await customerSays(group, 'oi grupo', { group: true });
    expect(await kit.t.jobs.runPending(h.job('chatbot.inbound'))).toBe(0);
    const blocked = nextChat();
    await customerSays(blocked, 'oi');
    await kit.t.database.executeSql(`update contacts set chatbot_blocked = true where telegram_id = $1`, [
      String(blocked),
    ]);
    await settle();
    expect(textsTo(blocked)).toEqual([]);
    expect(await botState((await ticketOf(blocked)).id)).toMatchObject({ chatFlowId: null, stepChatFlow: null });
  });

  it('PUT /ticketsChatBot starts the flow from its start on a ticket an agent held', async () => {
    const flow = await createFlow(menuFlow({ welcomeMessage: { message: 'Olá de novo!' } }));
    const id = nextChat();
    await customerSays(id, 'preciso de ajuda');
    await settle();
    const ticket = await ticketOf(id);
    await kit.t.call(kit.agent, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: kit.agent.id });
    const res = await kit.t.call(kit.agent, 'PUT', `/ticketsChatBot/${ticket.id}`, { chatFlowId: flow.id });
    expect(res.json<TicketDto>()).toMatchObject({ status: 'pending', userId: null, chatFlowId: flow.id });
    await settle();
    expect(textsTo(id)).toEqual(['Olá de novo!', ...menuTexts('Cliente', ticket.protocol)]);
    expect(await botState(ticket.id)).toMatchObject({ stepChatFlow: 'menu', userId: null });
    await customerSays(id, '1');
    await settle();
    expect(await botState(ticket.id)).toMatchObject({ queueId: sales, chatFlowId: null });
  });
});

describe('humans and the bot', () => {
  it('an agent who accepts a ticket mid-flow takes it from the bot: back in the queue, the bot does not resume', async () => {
    const flow = await createFlow(
      graph({ notOptionsSelectMessage: { message: 'Inválido.', stepReturn: 'A' } }, [
        { id: 'menu', say: ['Menu'], conditions: [{ type: 'US', condition: ['1'], action: 1, queueId: sales }] },
      ]),
    );
    const { id, ticket } = await conversation(flow.id);
    const accepted = await kit.t.call(kit.agent, 'PUT', `/tickets/${ticket.id}`, {
      status: 'open',
      userId: kit.agent.id,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await botState(ticket.id)).toMatchObject({ status: 'open', chatFlowId: null, stepChatFlow: null });
    await customerSays(id, 'xyz');
    await settle();
    expect((await kit.t.call(kit.agent, 'PUT', `/tickets/${ticket.id}`, { status: 'pending' })).statusCode).toBe(200);
    await customerSays(id, 'abc');
    await settle();
    expect(textsTo(id)).toEqual(['Menu']);
    expect(await botState(ticket.id)).toMatchObject({ status: 'pending', userId: null, chatFlowId: null });
  });
});

describe('idempotency, notifications and visibility', () => {
  it('a replayed update advances the flow once; a replayed job changes nothing', async () => {
    const flow = await createFlow(
      graph({ notOptionsSelectMessage: { message: 'Inválido.', stepReturn: 'A' } }, [
        { id: 'menu', say: ['Menu'], conditions: [{ type: 'US', condition: ['1'], action: 1, queueId: sales }] },
      ]),
    );
    const { id, ticket } = await conversation(flow.id);
    const update = await customerSays(id, 'errado');
    await customerSays(id, 'errado', { updateId: update });
    await settle();
    expect(await botState(ticket.id)).toMatchObject({ botRetries: 1 });
    expect(textsTo(id)).toEqual(['Menu', 'Inválido.', 'Menu']);
    // The same job again (a retry after a crash): the message was read already.
    const [message] = await h.messagesOf(ticket.id, 'errado');
    await kit.t.jobs.enqueue(h.job('chatbot.inbound'), {
      tenantId: 1,
      ticketId: ticket.id,
      messageId: message!,
      created: false,
    });
    await settle();
    expect(await botState(ticket.id)).toMatchObject({ botRetries: 1 });
    expect(textsTo(id)).toHaveLength(3);
  });

  it('a ticket the bot takes is announced without notify; the handover with notify', async () => {
    const flow = await createFlow(menuFlow());
    await setChannelFlow(flow.id);
    const id = nextChat();
    const events: { type: string; notify?: boolean; chatFlowId: number | null }[] = [];
    const off = kit.t.platform.events.subscribe('tickets.changed', (e) => {
      if (e.ticket.contact?.telegramId === String(id)) {
        events.push({ type: e.type, notify: e.notify, chatFlowId: e.ticket.chatFlowId ?? null });
      }
    });
    await customerSays(id, 'oi');
    await settle();
    await customerSays(id, '1');
    await settle();
    await new Promise((resolve) => setTimeout(resolve, 20));
    off();
    const alerts = events.filter((e) => e.notify);
    expect(events[0]).toMatchObject({ type: 'ticket:create' });
    expect(events[0]!.notify).toBeUndefined();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ type: 'ticket:update', chatFlowId: null });
  });

  it('NotViewTicketsChatBot hides a ticket the bot handles from agents until the handover', async () => {
    await setVisibility(kit.t, 1, { NotViewTicketsChatBot: 'enabled' });
    try {
      const flow = await createFlow(menuFlow());
      const { id, ticket } = await conversation(flow.id);
      const agentSees = async () =>
        (await kit.t.call(kit.agent, 'GET', '/tickets?status=pending'))
          .json<{ tickets: TicketDto[] }>()
          .tickets.some((t) => t.id === ticket.id);
      expect(await agentSees()).toBe(false);
      expect((await kit.t.call(kit.agent, 'GET', `/tickets/${ticket.id}`)).statusCode).toBe(404);
      await customerSays(id, '1');
      await settle();
      expect(await agentSees()).toBe(true);
    } finally {
      await setVisibility(kit.t, 1, { NotViewTicketsChatBot: 'disabled' });
    }
  });
});

describe('distribution after the bot', () => {
  const online = (userId: number, isOnline: boolean) =>
    kit.t.database.executeSql(`update users set is_online = $2 where id = $1`, [userId, isOnline]);

  it("a handover to a queue runs distribution with the flow's autoDistributeTickets", async () => {
    await online(kit.agent.id, true);
    try {
      const flow = await createFlow(menuFlow({ autoDistributeTickets: 'B' }));
      const { id, ticket } = await conversation(flow.id);
      await customerSays(id, '1');
      await settle();
      expect(await botState(ticket.id)).toMatchObject({
        status: 'pending',
        queueId: sales,
        userId: kit.agent.id,
        chatFlowId: null,
      });
      expect((await logsOf(ticket.id)).map((log) => log.type).slice(-2)).toEqual(['chatBot', 'userDefine']);
      expect((await logsOf(ticket.id)).at(-1)).toMatchObject({ details: { mode: 'B', reason: 'balanced' } });
    } finally {
      await online(kit.agent.id, false);
    }
  });

  it("a new ticket without a flow is distributed by the channel's mode (the job, then notify)", async () => {
    await online(kit.agent.id, true);
    await kit.t.database.executeSql(`update channels set distribution = 'R', queue_id = $2 where id = $1`, [
      kit.channel.id,
      sales,
    ]);
    chatbotRuntime(kit.t.platform).config.invalidate(1);
    try {
      const id = nextChat();
      const notified: boolean[] = [];
      const off = kit.t.platform.events.subscribe('tickets.changed', (e) => {
        if (e.ticket.contact?.telegramId === String(id)) notified.push(e.notify ?? false);
      });
      await customerSays(id, 'oi');
      await settle();
      await new Promise((resolve) => setTimeout(resolve, 20));
      off();
      const ticket = await ticketOf(id);
      expect(await botState(ticket.id)).toMatchObject({ status: 'pending', userId: kit.agent.id, queueId: sales });
      expect((await logsOf(ticket.id)).at(-1)).toMatchObject({
        type: 'userDefine',
        details: { mode: 'R', reason: 'random' },
      });
      expect(notified).toEqual([false, true]);
      expect(textsTo(id)).toEqual([]);
    } finally {
      await online(kit.agent.id, false);
      await kit.t.database.executeSql(`update channels set distribution = 'N', queue_id = null where id = $1`, [
        kit.channel.id,
      ]);
      chatbotRuntime(kit.t.platform).config.invalidate(1);
    }
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
    expect((await ticketOf(id)).status).toBe('pending');
  });
});
