/**
 * The WhatsApp Cloud API side of the suite: the server's own Graph API simulator runs in the global setup (the
 * server's META_GRAPH_URL points at it); specs drive it over its control surface (`/__simulator/*`: phone numbers and
 * their tokens, templates, a failure for the next send, the sends received) and post webhooks to the server signed
 * with the app secret as Meta does (the simulator's `deliver` signs them).
 */
import crypto from 'node:crypto';
import type {
  SimulatedGraphError,
  SimulatedSend,
  WabaWebhookValue,
} from '../../apps/server/src/modules/channels/providers/waba/waba.simulator.js';
import { wabaWebhook } from '../../apps/server/src/modules/channels/providers/waba/waba.simulator.js';

export { startWabaSimulator } from '../../apps/server/src/modules/channels/providers/waba/waba.simulator.js';
export type {
  SimulatedSend,
  WabaSimulator,
} from '../../apps/server/src/modules/channels/providers/waba/waba.simulator.js';

export interface SimulatedPhoneInput {
  /** The phone number id (the channel's `wabaId`). */
  id: string;
  /** The access token that owns it. */
  token: string;
  displayPhoneNumber: string;
  verifiedName: string;
  /** The WhatsApp Business Account id (the channel's `bmToken`): templates are listed under it. */
  businessAccountId: string;
}

export interface SimulatedTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string | null;
  components: unknown[];
}

async function control<T>(root: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${root}/__simulator/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  if (!response.ok) throw new Error(`Graph simulator ${method} ${path} -> ${response.status}`);
  return (await response.json()) as T;
}

/** A phone number Graph knows (owned by `token`, in the business account `businessAccountId`). */
export async function addPhone(root: string, phone: SimulatedPhoneInput): Promise<void> {
  await control(root, 'POST', 'phones', phone);
}

/** Replaces the templates of a business account (Graph's shape: status APPROVED, REJECTED, PENDING ...). */
export async function setTemplates(
  root: string,
  businessAccountId: string,
  templates: SimulatedTemplate[],
): Promise<void> {
  await control(root, 'POST', 'templates', { businessAccountId, templates });
}

/** The next send of the phone number answers this Graph error. */
export async function failNextSend(root: string, error: SimulatedGraphError, phoneNumberId: string): Promise<void> {
  await control(root, 'POST', 'fail', { ...error, phoneNumberId });
}

/** Every `POST /v*\/{phone-id}/messages` the simulator accepted for this recipient, oldest first. */
export function sendsTo(root: string, to: string): Promise<SimulatedSend[]> {
  return control<SimulatedSend[]>(root, 'GET', `sends?to=${encodeURIComponent(to)}`);
}

/** POSTs a webhook body to `url` signed with `appSecret` (`X-Hub-Signature-256`); answers our server's status. */
export async function deliver(
  root: string,
  url: string,
  payload: object,
  appSecret: string,
): Promise<{ status: number; body: string }> {
  return control(root, 'POST', 'deliver', { url, payload, secret: appSecret });
}

export const unixSeconds = (at: Date = new Date()): string => String(Math.floor(at.getTime() / 1000));
export const newWamid = (): string => `wamid.e2e${crypto.randomBytes(18).toString('base64url')}`;

/** A customer's text message as the Cloud API webhook carries it (`at`: the message's own time). */
export function customerText(
  phoneNumberId: string,
  customer: { number: string; name: string },
  text: string,
  at: Date = new Date(),
): { payload: Record<string, unknown>; wamid: string } {
  const wamid = newWamid();
  const value: WabaWebhookValue = {
    contacts: [{ wa_id: customer.number, profile: { name: customer.name } }],
    messages: [{ from: customer.number, id: wamid, timestamp: unixSeconds(at), type: 'text', text: { body: text } }],
  };
  return { payload: wabaWebhook(phoneNumberId, value), wamid };
}

/** A status of one of our sends (sent, delivered, read, or failed with Graph's error). */
export function messageStatus(
  phoneNumberId: string,
  status: {
    wamid: string;
    recipient: string;
    status: 'sent' | 'delivered' | 'read' | 'failed';
    errors?: { code: number; title: string; message?: string; error_data?: { details: string } }[];
  },
): Record<string, unknown> {
  return wabaWebhook(phoneNumberId, {
    statuses: [
      {
        id: status.wamid,
        status: status.status,
        timestamp: unixSeconds(),
        recipient_id: status.recipient,
        ...(status.errors ? { errors: status.errors } : {}),
      },
    ],
  });
}
