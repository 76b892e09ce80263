/**
 * Which Evolution instance a channel is, and whether a webhook is that instance's (issue 22: a gateway instance is
 * a credential). An Evolution server names its instances; whoever holds the server's key can reach every instance on
 * it by name. So:
 *
 * - On the installation's shared gateway (the key is a company default, `evoToken`, or another company holds it;
 *   `StartOptions.sharedGateway`) the instance is one this product created, under a name it made up (the channel's
 *   name and 80 random bits), never an existing one: the create must succeed, and a name that exists is refused.
 * - On a company's own gateway (a key only it holds) an existing instance is connected by its exact name (`wabaId`,
 *   letters, digits, `-` and `_` as Evolution allows), or created when missing.
 * - What a start used is recorded in `providerState` (`instanceName`, `instanceToken`, `instanceCreated`,
 *   `instanceGateway`) and is the channel's instance from then on (API calls, webhooks), on that gateway only.
 * - A webhook must name that instance (`instance`) and, when Evolution exposes instance tokens in webhooks
 *   (`apikey`, AUTHENTICATION_EXPOSE_IN_FETCH_INSTANCES), carry its token: another instance's events posted to this
 *   channel's URL are refused, nothing stored.
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import { ProviderError, type ChannelCredentials } from '../../channels.adapter.js';

/** An instance name this product uses: Evolution takes any string; we keep to what is safe in a URL path. */
export const EVOLUTION_INSTANCE_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

/** A channel's name as the channel form keeps it (client-contract: stripped to [A-Za-z0-9]). */
export const evolutionInstanceName = (name: string): string => name.replace(/[^A-Za-z0-9]/g, '');

/**
 * The instance a new channel names (`wabaId`): its name as typed, keeping the hyphens and underscores Evolution
 * allows, so an existing instance on a company's own gateway is connected by its exact name ("loja-centro_2").
 */
export const evolutionInstanceOf = (name: string): string => name.replace(/[^A-Za-z0-9_-]/g, '');

/** What a start recorded of the instance it connected. */
export interface RecordedInstance {
  instanceName: string;
  /** The instance's own token (Evolution's `hash`): ours when we created it, else what fetchInstances exposed. */
  instanceToken: string | null;
  /** True when this product created the instance (the only kind a shared gateway connects). */
  instanceCreated: boolean;
  /** The gateway it lives on (the channel's API URL, normalised). */
  instanceGateway: string;
}

/** A gateway URL compared as one string: trimmed, lower-case scheme and host, no trailing slash. */
export function gatewayOf(remotePath: string | null): string | null {
  if (!remotePath) return null;
  try {
    const url = new URL(remotePath.trim());
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}

const recordedSchema = z.object({
  instanceName: z.string().regex(EVOLUTION_INSTANCE_PATTERN),
  instanceToken: z.string().min(1).max(200).nullish(),
  instanceCreated: z.boolean().optional(),
  instanceGateway: z.string().min(1),
});

/** The instance the channel's last start recorded on its current gateway; null when none (or another gateway's). */
export function recordedInstance(channel: Pick<ChannelCredentials, 'providerState' | 'remotePath'>) {
  const parsed = recordedSchema.safeParse(channel.providerState);
  if (!parsed.success || parsed.data.instanceGateway !== gatewayOf(channel.remotePath)) return null;
  return {
    instanceName: parsed.data.instanceName,
    instanceToken: parsed.data.instanceToken ?? null,
    instanceCreated: parsed.data.instanceCreated ?? false,
    instanceGateway: parsed.data.instanceGateway,
  } satisfies RecordedInstance;
}

/**
 * The instance a channel's calls and webhooks name: the one its last start recorded, else its stored name
 * (`wabaId`, before any start and for channels started before the record existed).
 */
export function instanceOf(channel: Pick<ChannelCredentials, 'providerState' | 'remotePath' | 'wabaId'>): string {
  const name = recordedInstance(channel)?.instanceName ?? channel.wabaId ?? '';
  if (!EVOLUTION_INSTANCE_PATTERN.test(name)) throw new ProviderError('evolution: invalid instance name', true);
  return name;
}

/** A name nobody can guess or choose: the channel's instance name, `_`, 80 random bits. */
export function newInstanceName(base: string | null): string {
  const stem = evolutionInstanceName(base ?? '').slice(0, 60) || 'conversa';
  return `${stem}_${crypto.randomBytes(10).toString('hex')}`;
}

/** The token given to an instance we create (Evolution's `token`, answered as `hash`). */
export const newInstanceToken = (): string => crypto.randomBytes(24).toString('hex').toUpperCase();

function same(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

const envelopeIdentity = z.object({ instance: z.string().max(255).nullish(), apikey: z.string().nullish() }).loose();

/**
 * Whether a webhook body is the channel's instance speaking: it names the instance, and its `apikey`, when
 * Evolution sends one (null unless the server exposes instance tokens), is the instance's token. A channel started
 * before tokens were recorded has none to compare: the instance name decides.
 */
export function isInstanceWebhook(
  channel: Pick<ChannelCredentials, 'providerState' | 'remotePath' | 'wabaId'>,
  body: unknown,
): boolean {
  const envelope = envelopeIdentity.safeParse(body);
  if (!envelope.success || !envelope.data.instance) return false;
  let instance: string;
  try {
    instance = instanceOf(channel);
  } catch {
    return false;
  }
  if (!same(envelope.data.instance, instance)) return false;
  const token = recordedInstance(channel)?.instanceToken;
  const apikey = envelope.data.apikey;
  return !(typeof apikey === 'string' && token) || same(apikey, token);
}
