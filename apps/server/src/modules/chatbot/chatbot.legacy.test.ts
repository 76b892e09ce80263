/**
 * The legacy auto-reply run by the same engine (decisions §C): compiled into a graph (each step a node with its reply,
 * each action a US condition of its comma-separated words); the ticket keeps auto_reply_id and step_auto_reply_id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeQueue } from '../../test/ticket-fixtures.js';
import { botHelpers, startBotKit, type BotKit } from '../../test/chatbot-kit.js';
import { compileAutoReply } from './chatbot.legacy.js';

let kit: BotKit;
const h = botHelpers(() => kit);
const { customerSays, settle, textsTo, ticketOf, botState, logsOf } = h;

let sales: number;
let chat = 774000000;
const nextChat = () => (chat += 1);

beforeAll(async () => {
  kit = await startBotKit();
  sales = await makeQueue(kit.t, 1, 'Vendas');
});
afterAll(async () => {
  await kit.close();
});

describe('compileAutoReply', () => {
  it('makes each step a node with its reply and each action a US condition of its words', () => {
    const runnable = compileAutoReply({
      id: 7,
      name: 'Antigo',
      action: 0,
      isActive: true,
      celularTeste: null,
      steps: [
        {
          id: 11,
          reply: 'Menu',
          initialStep: false,
          actions: [
            {
              id: 1,
              stepReplyId: 11,
              words: ' 1, vendas ,,',
              action: 1,
              queueId: 3,
              userIdDestination: null,
              nextStepId: null,
              replyDefinition: 'Já te passo',
            },
          ],
        },
        { id: 12, reply: 'Início', initialStep: true, actions: [] },
      ],
    });
    expect(runnable).toMatchObject({ kind: 'legacy', id: 7, first: '12', config: {} });
    expect(runnable.nodes.get('11')).toEqual({
      id: '11',
      interactions: [{ id: 'reply-11', type: 'MessageField', data: { message: 'Menu' } }],
      conditions: [
        {
          id: 'action-1',
          type: 'US',
          condition: ['1', 'vendas'],
          action: 1,
          nextStepId: null,
          queueId: 3,
          userIdDestination: null,
          reply: 'Já te passo',
        },
      ],
      actions: [],
    });
  });
});

describe('an active auto-reply (action 0) greets new conversations', () => {
  it('runs its steps: words lead to the next step, a queue (with the reply definition) or a user', async () => {
    const call = async (method: 'POST' | 'PUT', path: string, body: object) => {
      const res = await kit.t.call(kit.admin, method, path, body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ id: number }>().id;
    };
    const reply = await call('POST', '/auto-reply', { name: 'Atendimento', action: 0, isActive: true });
    const first = await call('POST', `/auto-reply/${reply}/steps`, {
      reply: 'Olá! 1 Vendas, 2 mais opções',
      initialStep: true,
    });
    const second = await call('POST', `/auto-reply/${reply}/steps`, { reply: 'Mais: 3 falar com o Zé' });
    await call('POST', '/auto-reply-action', {
      stepReplyId: first,
      words: '1,vendas',
      action: 1,
      queueId: sales,
      replyDefinition: 'Transferindo para Vendas.',
    });
    await call('POST', '/auto-reply-action', { stepReplyId: first, words: '2', action: 0, nextStepId: second });
    await call('POST', '/auto-reply-action', {
      stepReplyId: second,
      words: '3',
      action: 2,
      userIdDestination: kit.agent.id,
    });

    const id = nextChat();
    await customerSays(id, 'oi');
    await settle();
    const ticket = await ticketOf(id);
    expect(textsTo(id)).toEqual(['Olá! 1 Vendas, 2 mais opções']);
    expect(await botState(ticket.id)).toMatchObject({
      autoReplyId: reply,
      stepAutoReplyId: first,
      chatFlowId: null,
      stepChatFlow: null,
    });
    await customerSays(id, '2');
    await settle();
    expect(await botState(ticket.id)).toMatchObject({ stepAutoReplyId: second });
    // An invalid answer: no message configured, the step's reply again.
    await customerSays(id, 'talvez');
    await settle();
    expect(textsTo(id)).toEqual(['Olá! 1 Vendas, 2 mais opções', 'Mais: 3 falar com o Zé', 'Mais: 3 falar com o Zé']);
    expect(await botState(ticket.id)).toMatchObject({ botRetries: 1 });
    await customerSays(id, '3');
    await settle();
    expect(await botState(ticket.id)).toMatchObject({
      status: 'pending',
      userId: kit.agent.id,
      autoReplyId: null,
      stepAutoReplyId: null,
    });
    expect((await logsOf(ticket.id)).at(-1)).toMatchObject({
      type: 'chatBot',
      details: { to: 'user', userId: kit.agent.id, autoReplyId: reply },
    });

    const other = nextChat();
    await customerSays(other, 'oi');
    await settle();
    await customerSays(other, 'Vendas');
    await settle();
    expect(textsTo(other)).toEqual(['Olá! 1 Vendas, 2 mais opções', 'Transferindo para Vendas.']);
    expect(await botState((await ticketOf(other)).id)).toMatchObject({ queueId: sales, autoReplyId: null });
  });
});
