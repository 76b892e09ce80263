/**
 * The rating conversation through real HTTP on both sides: the Telegram simulator posts the customer's updates to our
 * webhook, the agent resolves with a rating, the send job delivers the menu, and the customer's answers (read by the
 * answer job that ingestion enqueues) rate, retry or fail the rating and close the ticket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATING_MESSAGES, type ChannelDto, type EvaluationDto, type TicketDto } from '@conversa/shared';
import type { JobDefinition } from '../platform/jobs/queue.js';
import { createTestApp, type TestApp, type TestUser } from './harness.js';
import {
  startTelegramSimulator,
  type TelegramSimulator,
} from '../modules/channels/providers/telegram/telegram.simulator.js';

const TOKEN = '7000000123:AAH-rating_bot_token_for_tests_00001';
const MENU =
  'Como você avalia nosso atendimento?\n0 - Ruim\n1 - Regular\n2 - Bom\n3 - Muito bom\n4 - Excelente\n5 - Incrível';

let t: TestApp;
let sim: TelegramSimulator;
let admin: TestUser;
let agent: TestUser;
let channel: ChannelDto;
let secret: string;
let updateId = 910000000;

const job = (name: string) => t.jobDefinitions.find((d) => d.name === name) as unknown as JobDefinition<unknown>;
const textsTo = (chatId: number) =>
  sim
    .callsOf('sendMessage')
    .filter((call) => String(call.params.chat_id) === String(chatId))
    .map((call) => call.params.text);

/** The customer `chatId` writes `text` (a Telegram update posted to our webhook). */
async function customerSays(chatId: number, text: string) {
  updateId += 1;
  const from = { id: chatId, is_bot: false, first_name: `Cliente ${chatId}` };
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/webhooks/telegram/${channel.id}`,
    headers: { 'x-telegram-bot-api-secret-token': secret },
    payload: {
      update_id: updateId,
      message: { message_id: updateId, from, chat: { ...from, type: 'private' }, date: 1763700000, text },
    },
  });
  expect(res.statusCode).toBe(200);
}

const ticketOf = async (chatId: number) => {
  const list = (await t.call(admin, 'GET', '/tickets?status=pending&status=open&showAll=true')).json<{
    tickets: TicketDto[];
  }>();
  return list.tickets.find((ticket) => ticket.contact?.telegramId === String(chatId))!;
};

/** A customer's ticket accepted by the agent and resolved with a rating; the menu delivered. */
async function resolvedWithRating(chatId: number): Promise<{ ticket: TicketDto; evaluation: EvaluationDto }> {
  await customerSays(chatId, 'Oi, preciso de ajuda');
  const ticket = await ticketOf(chatId);
  await t.call(agent, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: agent.id });
  const sent = await t.call(agent, 'POST', '/ticketEvaluations/send', { ticketId: ticket.id });
  expect(sent.statusCode, sent.body).toBe(201);
  await t.jobs.runPending(job('messages.send'));
  expect(textsTo(chatId)).toEqual([MENU]);
  const still = (await t.call(agent, 'GET', `/tickets/${ticket.id}`)).json<TicketDto>();
  expect(still.status).toBe('open');
  return { ticket, evaluation: sent.json<EvaluationDto>() };
}

/** Runs the answer jobs and the sends they queued. */
async function process() {
  await t.jobs.runPending(job('evaluations.answer'));
  await t.jobs.runPending(job('messages.send'));
}

const evaluationOf = async (id: number) =>
  (await t.call(admin, 'GET', '/ticketEvaluations')).json<EvaluationDto[]>().find((e) => e.id === id)!;
const statusOf = async (ticketId: number) =>
  (await t.call(admin, 'GET', `/tickets/${ticketId}`)).json<TicketDto>().status;

beforeAll(async () => {
  sim = await startTelegramSimulator();
  sim.bots.set(TOKEN, { id: 7000000123, username: 'rating_bot' });
  t = await createTestApp({ TELEGRAM_API_ROOT: sim.url, PUBLIC_URL: 'https://conversa.example' });
  ({ admin, agent } = await t.createStaff());
  const created = await t.call(admin, 'POST', '/whatsapp', {
    name: 'Loja',
    type: 'telegram',
    tokenTelegram: TOKEN,
    sendEvaluation: true,
  });
  channel = created.json<ChannelDto>();
  expect((await t.call(admin, 'POST', `/whatsappsession/${channel.id}`)).statusCode).toBe(200);
  secret = String(sim.callsOf('setWebhook')[0]!.params.secret_token);
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

describe('the rating conversation over Telegram', () => {
  it('a valid answer stores the value, thanks the customer and closes the ticket', async () => {
    const { ticket, evaluation } = await resolvedWithRating(555100001);
    await customerSays(555100001, ' 4 ');
    await process();
    expect(textsTo(555100001)).toEqual([MENU, DEFAULT_RATING_MESSAGES.ratingStore]);
    expect(await statusOf(ticket.id)).toBe('closed');
    expect(await evaluationOf(evaluation.id)).toMatchObject({ status: 'rated', value: 4, attempts: 0 });
    const logs = (await t.call(admin, 'GET', `/tickets/${ticket.id}/logs`)).json<{ type: string }[]>();
    expect(logs.map((log) => log.type)).toContain('closed');
    const ratings = (await t.call(agent, 'GET', `/ticketEvaluations/${ticket.id}/logs`)).json();
    expect(ratings).toEqual([
      { id: evaluation.id, evaluation: 4, createdAt: expect.any(String), user: { name: expect.any(String) } },
    ]);
    // A retried job reads nothing twice.
    expect(await t.jobs.runPending(job('evaluations.answer'))).toBe(0);
  });

  it('an invalid answer asks again; a label then rates (case-insensitive)', async () => {
    const { ticket, evaluation } = await resolvedWithRating(555100002);
    await customerSays(555100002, 'foi ótimo, obrigado');
    await process();
    expect(textsTo(555100002)).toEqual([MENU, DEFAULT_RATING_MESSAGES.ratingStoreAttemp]);
    expect(await statusOf(ticket.id)).toBe('open');
    expect(await evaluationOf(evaluation.id)).toMatchObject({ status: 'waiting', attempts: 1, value: null });
    await customerSays(555100002, 'MUITO BOM');
    await process();
    expect(textsTo(555100002)).toEqual([
      MENU,
      DEFAULT_RATING_MESSAGES.ratingStoreAttemp,
      DEFAULT_RATING_MESSAGES.ratingStore,
    ]);
    expect(await statusOf(ticket.id)).toBe('closed');
    expect(await evaluationOf(evaluation.id)).toMatchObject({ status: 'rated', value: 3, attempts: 1 });
  });

  it('the configured attempts exhausted fail the rating with the error text and close the ticket', async () => {
    const save = await t.call(admin, 'PUT', `/tenantsRatingData/${admin.tenantId}`, {
      ratingAttempts: 2,
      ratingStoreError: 'Tudo bem, encerramos por aqui.',
    });
    expect(save.statusCode, save.body).toBe(200);
    const { ticket, evaluation } = await resolvedWithRating(555100003);
    await customerSays(555100003, '9');
    await process();
    await customerSays(555100003, 'não sei');
    await process();
    expect(textsTo(555100003)).toEqual([
      MENU,
      DEFAULT_RATING_MESSAGES.ratingStoreAttemp,
      'Tudo bem, encerramos por aqui.',
    ]);
    expect(await statusOf(ticket.id)).toBe('closed');
    expect(await evaluationOf(evaluation.id)).toMatchObject({ status: 'failed', attempts: 2, value: null });
    // After the close the customer's next message opens a new ticket and no rating job.
    await customerSays(555100003, '5');
    expect(await t.jobs.runPending(job('evaluations.answer'))).toBe(0);
    expect((await ticketOf(555100003)).id).not.toBe(ticket.id);
  });

  it('two answers in one burst count once each, in order, even when their jobs run together', async () => {
    await t.call(admin, 'PUT', `/tenantsRatingData/${admin.tenantId}`, { ratingAttempts: 3 });
    const { ticket, evaluation } = await resolvedWithRating(555100004);
    await customerSays(555100004, 'hmm');
    await customerSays(555100004, '0');
    await process();
    // Stored in answer order; on PGlite two sends queued within one millisecond may reach Telegram in either order.
    const history = (await t.call(admin, 'GET', `/messages/${ticket.id}`)).json<{
      messages: { body: string; fromMe: boolean }[];
    }>();
    expect(history.messages.map((m) => m.body)).toEqual([
      'Oi, preciso de ajuda',
      MENU,
      'hmm',
      '0',
      DEFAULT_RATING_MESSAGES.ratingStoreAttemp,
      DEFAULT_RATING_MESSAGES.ratingStore,
    ]);
    expect([...textsTo(555100004)].sort()).toEqual(
      [MENU, DEFAULT_RATING_MESSAGES.ratingStoreAttemp, DEFAULT_RATING_MESSAGES.ratingStore].sort(),
    );
    expect(await evaluationOf(evaluation.id)).toMatchObject({ status: 'rated', value: 0, attempts: 1 });
    expect(await statusOf(ticket.id)).toBe('closed');
  });
});
