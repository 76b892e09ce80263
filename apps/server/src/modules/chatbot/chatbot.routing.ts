/**
 * Which flow a new customer conversation gets (decisions §C): a test number's inactive flow, the channel's flow, the
 * tenant's default flow, then a legacy auto-reply; and the rules before it starts (keywords, first interaction, open
 * hours). Without one the humans get the ticket (distribution and the absence rule, chatbot.steps.ts).
 */
import { and, asc, eq, or } from 'drizzle-orm';
import { normalizeAnswer } from '@conversa/shared';
import { channels } from '../channels/channels.tables.js';
import { contactHadEarlierTicket } from '../tickets/index.js';
import { botHandles } from './chatbot.absence.js';
import { isOpen } from './chatbot.config.js';
import { loadRunnableAutoReply, loadRunnableFlow, type Runnable } from './chatbot.runnable.js';
import { answerText, destinationOf, digitsOf, keywordsOf, type InboundMessage, type Run } from './chatbot.run.js';
import { afterHandover, handover, start } from './chatbot.steps.js';
import { autoReplies, chatFlows } from './chatbot.tables.js';

async function flowFor(run: Run, digits: string | null): Promise<Runnable | null> {
  const { tx } = run;
  if (digits) {
    const [test] = await tx
      .select({ id: chatFlows.id })
      .from(chatFlows)
      .where(and(eq(chatFlows.celularTeste, digits), eq(chatFlows.isActive, false), eq(chatFlows.isDeleted, false)))
      .orderBy(asc(chatFlows.id))
      .limit(1);
    if (test) return loadRunnableFlow(tx, test.id);
  }
  const runnableFlow = async (id: number | null | undefined) => {
    const flow = id ? await loadRunnableFlow(tx, id) : null;
    return flow?.isActive && !flow.isDeleted ? flow : null;
  };
  if (run.ticket.channelId !== null) {
    const [channel] = await tx
      .select({ chatFlowId: channels.chatFlowId })
      .from(channels)
      .where(eq(channels.id, run.ticket.channelId));
    const flow = await runnableFlow(channel?.chatFlowId);
    if (flow) return flow;
  }
  const byDefault = await runnableFlow(run.config.defaultFlowId);
  if (byDefault) return byDefault;
  const legacy = await tx
    .select({ id: autoReplies.id, isActive: autoReplies.isActive, celularTeste: autoReplies.celularTeste })
    .from(autoReplies)
    .where(
      and(
        eq(autoReplies.action, 0),
        digits
          ? or(eq(autoReplies.isActive, true), eq(autoReplies.celularTeste, digits))
          : eq(autoReplies.isActive, true),
      ),
    )
    .orderBy(asc(autoReplies.id));
  // A test number's inactive auto-reply first, then the active one.
  const chosen =
    legacy.find((r) => !r.isActive && digits && r.celularTeste === digits) ?? legacy.find((r) => r.isActive);
  return chosen ? loadRunnableAutoReply(tx, chosen.id) : null;
}

/** A new customer conversation: a flow, or the humans (distribution and the absence rule). */
export async function route(run: Run, message: InboundMessage): Promise<void> {
  await run.patchState({ ...run.state, routed: true });
  run.notify = true;
  const t = run.ticket;
  // An answer to a campaign that names a queue goes to that queue's humans (campaigns.ingestion.ts), not to a flow.
  const campaignQueue = t.campaignId !== null && t.queueId !== null;
  const eligible = !t.isGroup && t.status === 'pending' && t.userId === null && !message.fromMe && !campaignQueue;
  const contact = eligible ? await run.contactOf() : null;
  const runnable = contact && !contact.chatbotBlocked ? await flowFor(run, digitsOf(contact.number)) : null;
  if (!runnable) return afterHandover(run, undefined);
  const config = runnable.config;
  const keywords = keywordsOf(config);
  if (keywords.length > 0) {
    const text = normalizeAnswer(answerText(message));
    if (!keywords.some((word) => text.includes(word))) return afterHandover(run, undefined);
  }
  if (config.firstInteraction && (await contactHadEarlierTicket(run.tx, t.contactId, t.id))) {
    return handover(run, runnable, destinationOf(config.firstInteraction), 'chatBot', {
      reason: 'firstInteraction',
    });
  }
  if (config.outOpenHours && !isOpen(run.config, run.now)) {
    return handover(run, runnable, destinationOf(config.outOpenHours), 'chatBot', { reason: 'outOpenHours' });
  }
  await start(run, runnable);
  run.notify = !botHandles(run.ticket);
}
