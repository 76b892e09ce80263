/**
 * Names and pictures of Messenger / Instagram users from the User Profile API (`GET /{PSID}?fields=first_name,
 * last_name,profile_pic`, `GET /{IGSID}?fields=name,username,profile_pic`), cached in memory per channel and user:
 * a busy chat sends many webhooks and the profile rarely changes. A failed lookup is remembered briefly (the user may
 * have blocked profile access; retrying on every message would double each webhook's time) and never fails the
 * webhook: the contact keeps its id as name.
 */
import type { ChannelCredentials, InboundEvent, InboundParty } from '../../channels.adapter.js';
import { graphId, type GraphClient } from './meta-messaging.client.js';
import type { MetaMessagingType } from './meta-messaging.parse.js';
import { userProfileSchema } from './meta-messaging.schemas.js';

export interface Profile {
  name: string;
  username: string | null;
  profilePicUrl: string | null;
}

export interface ProfileCacheOptions {
  /** How long a found profile is reused. */
  ttlMs?: number;
  /** How long a failed lookup is not repeated. */
  failureTtlMs?: number;
  /** Entries kept; the oldest go first. */
  max?: number;
  /** The longest a webhook waits for one lookup. */
  timeoutMs?: number;
}

const FIELDS: Record<MetaMessagingType, string> = {
  messenger: 'first_name,last_name,profile_pic',
  instagram: 'name,username,profile_pic',
};

export function createProfileLookup(
  type: MetaMessagingType,
  graph: (channel: ChannelCredentials) => GraphClient,
  options: ProfileCacheOptions = {},
) {
  const ttlMs = options.ttlMs ?? 6 * 60 * 60_000;
  const failureTtlMs = options.failureTtlMs ?? 5 * 60_000;
  const max = options.max ?? 10_000;
  const cache = new Map<string, { profile: Profile | null; until: number }>();

  function remember(key: string, profile: Profile | null) {
    cache.delete(key);
    cache.set(key, { profile, until: Date.now() + (profile ? ttlMs : failureTtlMs) });
    // A Map keeps insertion order: the first key is the oldest.
    while (cache.size > max) cache.delete(cache.keys().next().value!);
  }

  async function fetchProfile(channel: ChannelCredentials, userId: string): Promise<Profile | null> {
    if (!channel.tokenAPI) return null;
    try {
      const answer = await graph(channel).call(
        'GET',
        graphId(userId, 'user id'),
        { token: channel.tokenAPI, query: { fields: FIELDS[type] }, timeoutMs: options.timeoutMs ?? 5_000 },
        userProfileSchema,
      );
      const name = (answer.name ?? [answer.first_name, answer.last_name].filter(Boolean).join(' ')).trim();
      if (!name && !answer.username) return null;
      return {
        name: name || answer.username!,
        username: answer.username ?? null,
        profilePicUrl: answer.profile_pic ?? null,
      };
    } catch {
      return null;
    }
  }

  async function lookup(channel: ChannelCredentials, userId: string): Promise<Profile | null> {
    const key = `${channel.id}:${userId}`;
    const kept = cache.get(key);
    if (kept && kept.until > Date.now()) return kept.profile;
    const profile = await fetchProfile(channel, userId);
    remember(key, profile);
    return profile;
  }

  const named = (party: InboundParty, profile: Profile | null): InboundParty =>
    profile
      ? { ...party, name: profile.name, username: profile.username, profilePicUrl: profile.profilePicUrl }
      : party;

  return {
    lookup,
    /** The events with each party's name and picture filled in (one lookup per user of the call). */
    async enrich(channel: ChannelCredentials, events: InboundEvent[]): Promise<InboundEvent[]> {
      const users = new Set<string>();
      for (const event of events) if ('party' in event) users.add(event.party.chatId);
      const profiles = new Map<string, Profile | null>();
      await Promise.all([...users].map(async (user) => profiles.set(user, await lookup(channel, user))));
      return events.map((event) =>
        'party' in event ? { ...event, party: named(event.party, profiles.get(event.party.chatId) ?? null) } : event,
      );
    },
  };
}
