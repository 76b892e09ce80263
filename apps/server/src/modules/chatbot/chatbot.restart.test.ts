/**
 * The no-response timeout (decisions §C): a step that waits starts `chatbot.timeout` after notResponseMessage.time
 * minutes with a fresh token; the job lives in PostgreSQL (pg-boss), so a server that stops while the bot waits and
 * a new server on the same database hand the ticket over. A timer whose token an answer replaced does nothing.
 */
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../../app.js';
import { queryRows } from '../../platform/db/client.js';
import { createJobQueue, type JobDefinition, type JobQueue } from '../../platform/jobs/queue.js';
import { makeQueue } from '../../test/ticket-fixtures.js';
import { botHelpers, graph, startBotKit, type BotKit } from '../../test/chatbot-kit.js';

let kit: BotKit;
const h = botHelpers(() => kit);
const { customerSays, settle, textsTo, ticketOf, botState, logsOf, createFlow, setChannelFlow, makeDue } = h;

let sales: number;
let chat = 773000000;
const nextChat = () => (chat += 1);

beforeAll(async () => {
  kit = await startBotKit();
  sales = await makeQueue(kit.t, 1, 'Vendas');
});
afterAll(async () => {
  await kit.close();
});

const waiting = () =>
  graph(
    {
      notResponseMessage: { time: 5, type: 1, destiny: sales, message: 'Sem resposta: vou te passar para Vendas.' },
    },
    [
      {
        id: 'menu',
        say: ['Digite 1 para continuar.'],
        conditions: [{ type: 'US', condition: ['1'], action: 0, nextStepId: 'second' }],
      },
      {
        id: 'second',
        say: ['Digite 2 para Vendas.'],
        conditions: [{ type: 'US', condition: ['2'], action: 1, queueId: sales }],
      },
    ],
  );

const timeoutJobs = (ticketId: number) =>
  queryRows<{ token: string; seconds: number }>(
    kit.t.platform.db,
    sql`select data->>'token' as token, extract(epoch from start_after - created_on)::int as seconds
        from pgboss.job where name = 'chatbot.timeout' and (data->>'ticketId')::int = ${ticketId}
        order by created_on`,
  );

/** A new app on the same database (the first one stopped): only what PostgreSQL holds survives. */
async function restart(): Promise<{ app: BuiltApp; jobs: JobQueue; stop(): Promise<void> }> {
  await kit.t.app.close();
  await kit.t.jobs.stop();
  const logger = pino({ level: 'silent' });
  const jobs = createJobQueue(kit.t.database, logger);
  const app = await buildApp({
    config: kit.t.platform.config,
    database: kit.t.database,
    jobs,
    secrets: kit.t.platform.secrets,
    mailer: { send: async () => undefined },
    logger,
  });
  await jobs.start(app.jobDefinitions, false);
  await app.app.ready();
  return {
    app,
    jobs,
    async stop() {
      await app.app.close();
      await jobs.stop();
    },
  };
}

describe('no answer', () => {
  it('a stale timer does nothing (an answer replaced its token); the current one hands over', async () => {
    await setChannelFlow((await createFlow(waiting())).id);
    const id = nextChat();
    await customerSays(id, 'oi');
    await settle();
    const ticket = await ticketOf(id);
    await customerSays(id, '1');
    await settle();
    const timers = await timeoutJobs(ticket.id);
    expect(timers).toHaveLength(2);
    expect(timers.every((timer) => Math.abs(timer.seconds - 300) <= 2)).toBe(true);
    expect((await botState(ticket.id)).chatbotState.timer).toBe(timers[1]!.token);
    // The first step's timer fires while the bot waits at the second step: nothing happens.
    await kit.t.database.executeSql(
      `update pgboss.job set start_after = now() where name = 'chatbot.timeout' and data->>'token' = $1`,
      [timers[0]!.token],
    );
    await settle();
    expect(await botState(ticket.id)).toMatchObject({ stepChatFlow: 'second', chatFlowId: expect.any(Number) });
    expect(textsTo(id)).toHaveLength(2);
    expect(await makeDue('chatbot.timeout')).toBe(1);
    await settle();
    expect(textsTo(id)).toEqual([
      'Digite 1 para continuar.',
      'Digite 2 para Vendas.',
      'Sem resposta: vou te passar para Vendas.',
    ]);
    expect(await botState(ticket.id)).toMatchObject({ queueId: sales, chatFlowId: null, stepChatFlow: null });
    const handovers = (await logsOf(ticket.id)).filter((log) => log.type === 'chatBot');
    expect(handovers).toEqual([
      expect.objectContaining({
        details: expect.objectContaining({ to: 'queue', queueId: sales, reason: 'noResponse' }),
      }),
    ]);
  });

  it('hands the ticket over on a new server after the first one stopped while the bot waited', async () => {
    await setChannelFlow((await createFlow(waiting())).id);
    const id = nextChat();
    await customerSays(id, 'oi');
    await settle();
    const ticket = await ticketOf(id);
    expect(await botState(ticket.id)).toMatchObject({ stepChatFlow: 'menu' });

    const node = await restart();
    try {
      await makeDue('chatbot.timeout');
      const job = (name: string) =>
        node.app.jobDefinitions.find((d) => d.name === name) as unknown as JobDefinition<unknown>;
      expect(await node.jobs.runPending(job('chatbot.timeout'))).toBe(1);
      await node.jobs.runPending(job('messages.send'));
      expect(textsTo(id)).toEqual(['Digite 1 para continuar.', 'Sem resposta: vou te passar para Vendas.']);
      expect(await botState(ticket.id)).toMatchObject({
        status: 'pending',
        queueId: sales,
        chatFlowId: null,
        stepChatFlow: null,
      });
      expect((await botState(ticket.id)).chatbotState.timer).toBeUndefined();
      // Run again (a retried job): the token is gone, nothing changes.
      await node.jobs.enqueue(job('chatbot.timeout'), {
        tenantId: 1,
        ticketId: ticket.id,
        token: (await timeoutJobs(ticket.id))[0]!.token,
      });
      await node.jobs.runPending(job('chatbot.timeout'));
      await node.jobs.runPending(job('messages.send'));
      expect(textsTo(id)).toHaveLength(2);
    } finally {
      await node.stop();
    }
  });
});
