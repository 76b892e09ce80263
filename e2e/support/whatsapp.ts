/**
 * The WhatsApp side of the suite: the server's Baileys sockets are the test fake (BAILEYS_SOCKET_MODULE), connected to
 * the Baileys simulator that runs in the global setup. Specs drive it over its HTTP control surface (`/__simulator/`):
 * the phone scanning the QR, a customer's message, and the calls the server made on its socket.
 */
import path from 'node:path';
import { REPO_ROOT } from './paths.js';
import { waitFor } from './wait.js';

export { startBaileysSimulator } from '../../apps/server/src/modules/channels/providers/baileys/baileys.simulator.js';
export type { BaileysSimulator } from '../../apps/server/src/modules/channels/providers/baileys/baileys.simulator.js';

/** The built fake socket module the server loads instead of baileys' makeWASocket. */
export const BAILEYS_FAKE_SOCKET = path.join(
  REPO_ROOT,
  'apps/server/dist/modules/channels/providers/baileys/baileys.fake-socket.js',
);

async function control<T>(root: string, method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${root}/__simulator/${route}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`simulator ${method} ${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Waits until the server opened a socket for the channel (its session started on the lease owner). */
export async function waitForSocket(root: string, channelId: number): Promise<void> {
  await waitFor(`a Baileys socket of channel ${channelId}`, async () => {
    const sockets = await control<{ live: boolean }[]>(root, 'GET', `sockets?channel=${channelId}`);
    return sockets.some((socket) => socket.live);
  });
}

/** The phone scans the QR code: WhatsApp logs the device in. */
export async function scanQr(root: string, channelId: number, number: string): Promise<void> {
  const { ok } = await control<{ ok: boolean }>(root, 'POST', `channels/${channelId}/scan`, { number, name: 'Loja' });
  if (!ok) throw new Error(`channel ${channelId} has no live socket to scan`);
}

/** A customer's text message, as WhatsApp delivers it to the socket (`messages.upsert`, type notify). */
export async function customerWrites(
  root: string,
  channelId: number,
  customer: { number: string; name: string },
  text: string,
): Promise<void> {
  const data = {
    type: 'notify',
    messages: [
      {
        key: { remoteJid: `${customer.number}@s.whatsapp.net`, fromMe: false, id: `E2E${Date.now()}` },
        message: { conversation: text },
        messageTimestamp: Math.floor(Date.now() / 1000),
        pushName: customer.name,
      },
    ],
  };
  const { ok } = await control<{ ok: boolean }>(root, 'POST', `channels/${channelId}/emit`, {
    event: 'messages.upsert',
    data,
  });
  if (!ok) throw new Error(`channel ${channelId} has no live socket`);
}

/** The texts the server sent to a number through its socket (sendMessage calls). */
export async function sentTexts(root: string, channelId: number, number: string): Promise<string[]> {
  const calls = await control<{ args: unknown[] }[]>(root, 'GET', `calls?method=sendMessage&channel=${channelId}`);
  return calls
    .filter((call) => String(call.args[0]).startsWith(number))
    .map((call) => (call.args[1] as { text?: string }).text ?? '');
}
