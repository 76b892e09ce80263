/**
 * Whether a Wuzapi webhook is the channel's own Wuzapi user speaking (issue 22). Wuzapi signs with the HMAC key the
 * channel's start gave that user, and the body names the user: `userID` at the top of a JSON body (WEBHOOK_FORMAT
 * json), the user's `token` beside `jsonData` in a form body (the default). A body naming another user, or a user
 * id when the channel's start learnt none to compare with, is refused (401, nothing stored). A body naming no user
 * (releases before those fields) is the signature's alone.
 *
 * The user id is what `GET /session/status` answers as `id` at the channel's start (`providerState.userId`).
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import type { ChannelCredentials } from '../../channels.adapter.js';

const idOf = z.union([z.string().min(1).max(200), z.number().int()]).transform(String);

const bodyIdentity = z.object({ userID: idOf.optional(), token: z.string().max(500).optional() }).loose();

/** The Wuzapi user id a start learnt, when the gateway tells it (`/session/status` `id`). */
export function wuzapiUserIdOf(status: { id?: unknown }): string | null {
  const parsed = idOf.safeParse(status.id);
  return parsed.success ? parsed.data : null;
}

function same(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

export function isOwnUserWebhook(channel: Pick<ChannelCredentials, 'providerState' | 'tokenAPI'>, body: unknown) {
  const parsed = bodyIdentity.safeParse(body);
  if (!parsed.success) return false;
  const { userID, token } = parsed.data;
  if (userID !== undefined) {
    const own = channel.providerState.userId;
    if (typeof own !== 'string' || !same(userID, own)) return false;
  }
  if (token !== undefined && !(channel.tokenAPI && same(token, channel.tokenAPI))) return false;
  return true;
}
