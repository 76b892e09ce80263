/**
 * Telegram's side of the reliability tests: updates with distinct ids, and a sender that behaves like Telegram's
 * webhook delivery (every non-2xx answer and every connection error is retried until a 2xx arrives).
 */
import { sleep } from './ports.js';

export interface TelegramUpdate {
  update_id: number;
  message: {
    message_id: number;
    from: { id: number; is_bot: false; first_name: string };
    chat: { id: number; type: 'private'; first_name: string };
    date: number;
    text: string;
  };
}

/** A private-chat text update; `n` makes the update and message ids distinct. */
export function textUpdate(n: number, chatId: number, text = `mensagem ${n}`): TelegramUpdate {
  const name = `Cliente ${chatId}`;
  return {
    update_id: 700_000_000 + n,
    message: {
      message_id: n,
      from: { id: chatId, is_bot: false, first_name: name },
      chat: { id: chatId, type: 'private', first_name: name },
      date: 1_763_700_000 + n,
      text,
    },
  };
}

export const providerId = (update: TelegramUpdate) => `${update.message.chat.id}:${update.message.message_id}`;

export interface Webhook {
  url: string;
  secret: string;
}

export interface Delivery {
  /** HTTP statuses answered before the final 2xx (a connection error counts as 0). */
  attempts: number[];
}

/** Posts until a 2xx, as Telegram does; `stopAt` bounds the test. */
export async function deliverUntilAcknowledged(
  webhook: Webhook,
  update: object,
  stopAt = Date.now() + 120_000,
): Promise<Delivery> {
  const attempts: number[] = [];
  for (;;) {
    const status = await post(webhook, update);
    if (status >= 200 && status < 300) return { attempts };
    attempts.push(status);
    if (Date.now() > stopAt) throw new Error(`update never acknowledged: ${attempts.slice(-5).join(',')}`);
    await sleep(100 + Math.random() * 150);
  }
}

/** One webhook call; 0 when the connection failed (refused, reset, timed out). */
export async function post(webhook: Webhook, update: object): Promise<number> {
  try {
    const res = await fetch(webhook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': webhook.secret },
      body: JSON.stringify(update),
      signal: AbortSignal.timeout(15_000),
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

/** Runs `work` over `items` with at most `limit` in flight. */
export async function pool<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  });
  await Promise.all(runners);
  return results;
}
