/** The `messages.download-media` handler: provider file -> media store -> message ready (or failed for good). */
import { MEDIA_MAX_BYTES } from '@conversa/shared';
import type { Tx } from '../../platform/db/client.js';
import { asTenantId, systemContext, withTenant } from '../../platform/db/tenancy.js';
import type { JobSpec } from '../../platform/jobs/queue.js';
import { newMediaKey } from '../../platform/storage/media-store.js';
import { MediaQuotaExceededError } from '../../platform/storage/media-quota.js';
import {
  enqueueSessionJob,
  findSession,
  loadChannelCredentials,
  ProviderError,
  type ChannelCredentials,
} from '../channels/index.js';
import { loadMessageDto } from './messages.dto.js';
import type { MediaPayload } from './messages.jobs.types.js';
import { publishMessage, type PipelineDeps } from './messages.pipeline.js';
import { findMessage, updateMessage, type MessagePatch, type MessageRow } from './messages.repository.js';

export const DOWNLOAD_MAX_ATTEMPTS = 5;

interface PreparedDownload {
  message: MessageRow;
  ref: string;
  attempt: number;
  channel: ChannelCredentials | null;
}

/**
 * Inbound messages are never sent, so their `sendAttempts` counts download attempts; committed before the provider
 * call, so a crash mid-download still counts.
 */
async function prepareDownload(
  tx: Tx,
  deps: PipelineDeps,
  payload: MediaPayload,
  forwardWith: JobSpec<MediaPayload> | undefined,
): Promise<PreparedDownload | null> {
  const found = await findMessage(tx, payload.messageId);
  if (!found || found.mediaStatus !== 'pending' || !found.mediaRef) return null;
  const channel = found.channelId ? await loadChannelCredentials(tx, found.channelId) : null;
  // A provider that downloads only through its live session: the job moves to the session's queue, uncounted.
  if (forwardWith && channel && deps.adapters.get(channel.type).capabilities.mediaOnOwner) {
    if (await findSession(tx, asTenantId(payload.tenantId), channel.id)) {
      await enqueueSessionJob(deps.jobs, channel.id, forwardWith, payload, { tx });
      return null;
    }
  }
  const message = (await updateMessage(tx, payload.messageId, { sendAttempts: found.sendAttempts + 1 }))!;
  return { message, ref: found.mediaRef, attempt: message.sendAttempts, channel };
}

async function download(deps: PipelineDeps, prepared: PreparedDownload) {
  if (!prepared.channel) throw new ProviderError('the message has no channel', true);
  const adapter = deps.adapters.get(prepared.channel.type);
  const file = await adapter.downloadMedia(prepared.channel, prepared.ref, MEDIA_MAX_BYTES);
  if (file.data.length > MEDIA_MAX_BYTES) throw new ProviderError('media larger than MEDIA_MAX_BYTES', true);
  return file;
}

/** Only a message still waiting for its media is changed (a concurrent run may have finished first). */
async function finish(deps: PipelineDeps, payload: MediaPayload, patch: MessagePatch): Promise<boolean> {
  const dto = await withTenant(deps.db, systemContext(payload.tenantId), async (tx) => {
    const current = await findMessage(tx, payload.messageId);
    if (!current || current.mediaStatus !== 'pending') return null;
    const row = await updateMessage(tx, payload.messageId, patch);
    return row && loadMessageDto(tx, row, deps.links);
  });
  if (dto) publishMessage(deps.events, payload.tenantId, 'chat:update', dto);
  return dto !== null;
}

/**
 * The download job, from the shared `messages.download-media` queue (`forwardWith` is its spec: the media of a
 * channel whose provider downloads only through its live session moves to the session's queue) or from a session's
 * queue (run by the session's owner).
 */
export async function runDownloadMedia(
  deps: PipelineDeps,
  payload: MediaPayload,
  forwardWith?: JobSpec<MediaPayload>,
): Promise<void> {
  const prepared = await withTenant(deps.db, systemContext(payload.tenantId), (tx) =>
    prepareDownload(tx, deps, payload, forwardWith),
  );
  if (!prepared) return;
  let file: Awaited<ReturnType<typeof download>>;
  try {
    file = await download(deps, prepared);
  } catch (error) {
    const permanent = error instanceof ProviderError && error.permanent;
    if (!permanent && prepared.attempt < DOWNLOAD_MAX_ATTEMPTS) throw error;
    await finish(deps, payload, { mediaStatus: 'failed' });
    return;
  }
  const name = prepared.message.mediaName ?? file.name;
  const mime = file.mime ?? prepared.message.mediaMime ?? 'application/octet-stream';
  const key = newMediaKey(payload.tenantId, name);
  let size: number;
  try {
    ({ size } = await deps.store.put(key, file.data, mime));
  } catch (error) {
    // A full quota will not free itself by retrying: the media fails for good, the message stays.
    if (!(error instanceof MediaQuotaExceededError)) throw error;
    await finish(deps, payload, { mediaStatus: 'failed', sendError: error.code });
    return;
  }
  const done = await finish(deps, payload, {
    mediaKey: key,
    mediaMime: mime,
    mediaSize: size,
    mediaName: name,
    mediaStatus: 'ready',
  });
  if (!done) await deps.store.delete(key);
}
