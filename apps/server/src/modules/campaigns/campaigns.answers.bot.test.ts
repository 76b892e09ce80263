/**
 * An answer to a campaign that names a queue goes to that queue's humans, not to the channel's chat flow
 * (chatbot.routing.ts): through the app's own ingestion, the Telegram simulator on both sides.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TicketDto } from '@conversa/shared';
import { queryRows } from '../../platform/db/client.js';
import { botHelpers, graph, startBotKit, type BotKit } from '../../test/chatbot-kit.js';
import { makeQueue } from '../../test/ticket-fixtures.js';

let kit: BotKit;
const h = botHelpers(() => kit);
let sales: number;

beforeAll(async () => {
  kit = await startBotKit();
  sales = await makeQueue(kit.t, 1, 'Vendas', [kit.agent.id]);
});
afterAll(() => kit.close());

describe('a campaign answer and the chat flow', () => {
  it('the channel’s flow greets other conversations; the campaign’s answer goes to its queue untouched by the bot', async () => {
    const flow = await h.createFlow(graph({}, [{ id: 'menu', say: ['Digite 1 para Vendas'] }]));
    await h.setChannelFlow(flow.id);
    const reached = 772000001;
    await h.customerSays(reached, 'Oi');
    await h.settle();
    expect(h.textsTo(reached)).toEqual(['Digite 1 para Vendas']);
    const first = await h.ticketOf(reached);

    // The campaign's send to that contact (its last message stands for the send), then a new conversation.
    await kit.t.database.executeSql(`update tickets set status = 'closed' where id = $1`, [first.id]);
    const [campaign] = await queryRows<{ id: number }>(
      kit.t.platform.db,
      sql`insert into campaigns (tenant_id, name, status, channel_id, message1, queue_id)
          values (1, 'Retorno', 'finished', ${kit.channel.id}, 'Volte!', ${sales}) returning id`,
    );
    await kit.t.database.executeSql(
      `insert into campaign_contacts (tenant_id, campaign_id, contact_id, message_id, processed, sent_at)
       select 1, $1, contact_id, id, true, now() from messages where ticket_id = $2 order by id desc limit 1`,
      [campaign!.id, first.id],
    );
    await h.customerSays(reached, 'Quero a promoção');
    await h.settle();
    const answer = await h.ticketOf(reached);
    expect(answer.id).not.toBe(first.id);
    expect(answer).toMatchObject({ status: 'pending', queueId: sales });
    const shown = (await kit.t.call(kit.admin, 'GET', `/tickets/${answer.id}`)).json<TicketDto>();
    expect(shown.campaign).toEqual({ id: campaign!.id, name: 'Retorno' });
    expect(await h.botState(answer.id)).toMatchObject({ chatFlowId: null, stepChatFlow: null });
    expect(h.textsTo(reached)).toEqual(['Digite 1 para Vendas']);
  });
});
