/**
 * The Telegram side of the suite: the server's own Bot API simulator runs in the global setup (the server's
 * TELEGRAM_API_ROOT points at it); specs drive it over its control surface and post updates to the server's webhook
 * the way Telegram does (with the channel's secret header).
 */
import crypto from 'node:crypto';
import type { ChannelDto } from '@conversa/shared';
import { apiRequest } from './api.js';
import type { E2eContext } from './context.js';
import { uniqueName } from './data.js';

export { startTelegramSimulator } from '../../apps/server/src/modules/channels/providers/telegram/telegram.simulator.js';
export type { TelegramSimulator } from '../../apps/server/src/modules/channels/providers/telegram/telegram.simulator.js';

export interface SimulatorCall {
  token: string;
  method: string;
  params: Record<string, unknown>;
}

export async function addBot(root: string, bot: { token: string; id: number; username: string }): Promise<void> {
  const response = await fetch(`${root}/__simulator/bots`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(bot),
  });
  if (!response.ok) throw new Error(`simulator refused the bot: ${response.status}`);
}

export async function callsOf(root: string, method: string, token?: string): Promise<SimulatorCall[]> {
  const response = await fetch(`${root}/__simulator/calls?method=${encodeURIComponent(method)}`);
  const calls = (await response.json()) as SimulatorCall[];
  return token ? calls.filter((call) => call.token === token) : calls;
}

/** Posts an update to the webhook the bot registered, as Telegram does; answers the HTTP status. */
export async function postUpdate(root: string, token: string, update: object): Promise<number> {
  const [registration] = (await callsOf(root, 'setWebhook', token)).slice(-1);
  if (!registration) throw new Error(`bot ${token} registered no webhook`);
  const response = await fetch(String(registration.params.url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-telegram-bot-api-secret-token': String(registration.params.secret_token),
    },
    body: JSON.stringify(update),
  });
  return response.status;
}

/**
 * A Telegram update carrying a private text message from the customer `firstName` (with `lastName` when given) in
 * chat `chatId`; its message id is random unless told.
 */
export function textUpdate(
  chatId: number,
  firstName: string,
  text: string,
  options: { lastName?: string; messageId?: number } = {},
) {
  const name =
    options.lastName === undefined ? { first_name: firstName } : { first_name: firstName, last_name: options.lastName };
  return {
    update_id: crypto.randomInt(1, 2 ** 31),
    message: {
      message_id: options.messageId ?? crypto.randomInt(1, 2 ** 31),
      date: Math.floor(Date.now() / 1000),
      chat: { id: chatId, type: 'private', ...name },
      from: { id: chatId, is_bot: false, ...name },
      text,
    },
  };
}

/** A Telegram channel of tenant 1 whose bot exists at the simulator, with its session started (connected). */
export async function connectedTelegramChannel(
  e2e: E2eContext,
  options: { farewellMessage?: string; sendEvaluation?: boolean; chatFlowId?: number } = {},
): Promise<{ token: string; channel: ChannelDto }> {
  const token = `${crypto.randomInt(1_000_000, 9_999_999)}:AAE2e_${crypto.randomBytes(16).toString('hex')}`;
  await addBot(e2e.telegramApiRoot, {
    token,
    id: crypto.randomInt(100_000_000, 2_000_000_000),
    username: 'loja_e2e_bot',
  });
  const channel = await apiRequest<ChannelDto>(e2e.baseUrl, 'POST', '/whatsapp', {
    token: e2e.superadminToken,
    body: { name: uniqueName('Telegram Loja'), type: 'telegram', tokenTelegram: token, ...options },
  });
  await apiRequest(e2e.baseUrl, 'POST', `/whatsappsession/${channel.id}`, { token: e2e.superadminToken });
  return { token, channel };
}
