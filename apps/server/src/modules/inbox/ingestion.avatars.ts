/**
 * Contacts' pictures on WhatsApp session channels (contacts.avatars.ts) where ingestion meets the sessions: the
 * contacts a message touched whose picture is due are claimed in ingestion's transaction and get a job in the
 * channel's session queue (only the new ones and those last asked a day ago: no statement at all for the others);
 * the job runs on the session's owner and asks its live session.
 */
import type { Tx } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import {
  enqueueSessionJobs,
  ProviderError,
  registerSessionJobHandler,
  sessionHostOf,
  STATEFUL_CHANNEL_TYPES,
  type ChannelCredentials,
} from '../channels/index.js';
import {
  avatarPayloadSchema,
  claimContactAvatars,
  CONTACT_AVATAR_JOB,
  contactAvatarsOf,
  type ContactRow,
  type PictureSource,
} from '../contacts/index.js';

const sessionTypes: ReadonlySet<string> = new Set(STATEFUL_CHANNEL_TYPES);

export async function requestContactAvatars(
  tx: Tx,
  jobs: JobQueue,
  tenantId: TenantId,
  channel: ChannelCredentials,
  rows: readonly (ContactRow | null | undefined)[],
): Promise<void> {
  if (!sessionTypes.has(channel.type)) return;
  const claimed = await claimContactAvatars(tx, rows);
  if (claimed.length === 0) return;
  await enqueueSessionJobs(
    jobs,
    channel.id,
    CONTACT_AVATAR_JOB,
    claimed.map((contactId) => ({ tenantId, contactId, channelId: channel.id })),
    { tx },
  );
}

/** The channel's live session here as a picture source; a provider's permanent refusal counts as no picture. */
function pictureSource(platform: object, channelId: number): PictureSource | null {
  const live = sessionHostOf(platform)?.live(channelId);
  // Not running on this node (yet): the job is tried again later.
  if (!live) throw new ProviderError('contact avatar: the session does not run on this node', false);
  const ask = live.profilePicture?.bind(live);
  if (!ask) return null;
  return async (chatId) => {
    try {
      return await ask(chatId);
    } catch (error) {
      if (error instanceof ProviderError && error.permanent) return null;
      throw error;
    }
  };
}

export function registerContactAvatarJobs(platform: object): void {
  registerSessionJobHandler(platform, CONTACT_AVATAR_JOB.name, (data) => {
    const payload = avatarPayloadSchema.parse(data);
    return contactAvatarsOf(platform).run(payload, pictureSource(platform, payload.channelId));
  });
}
