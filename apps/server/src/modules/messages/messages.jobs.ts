/**
 * The pipeline's jobs. `messages.send` delivers an agent's (or the system's) pending message through the channel's
 * adapter; `messages.download-media` fetches an inbound message's media from the provider into the media store.
 * Both count their attempts on the message row, so the last attempt is known without pg-boss metadata: a permanent
 * ProviderError or the last attempt ends the job as done (send: undelivered; media: failed), a transient error throws
 * and pg-boss retries with backoff. Handlers are idempotent: a sent message is never sent again.
 */
import type { JobDefinition, JobSpec } from '../../platform/jobs/queue.js';
import { mediaPayloadSchema, sendPayloadSchema, type MediaPayload, type SendPayload } from './messages.jobs.types.js';
import { DOWNLOAD_MAX_ATTEMPTS, runDownloadMedia } from './messages.media-job.js';
import type { PipelineDeps } from './messages.pipeline.js';
import { runSend, SEND_MAX_ATTEMPTS } from './messages.send-job.js';

export { DOWNLOAD_MAX_ATTEMPTS, SEND_MAX_ATTEMPTS };
export { mediaPayloadSchema, sendPayloadSchema, type MediaPayload, type SendPayload } from './messages.jobs.types.js';

export const SEND_MESSAGE_JOB: JobSpec<SendPayload> = {
  name: 'messages.send',
  schema: sendPayloadSchema,
  retryLimit: SEND_MAX_ATTEMPTS - 1,
  retryDelaySeconds: 5,
  // A batch of 5 sends, each bounded by the adapter's 20 s timeout: after a crash, its sends resume within ~2.5 min.
  expireInSeconds: 120,
};

export const DOWNLOAD_MEDIA_JOB: JobSpec<MediaPayload> = {
  name: 'messages.download-media',
  schema: mediaPayloadSchema,
  retryLimit: DOWNLOAD_MAX_ATTEMPTS - 1,
  retryDelaySeconds: 10,
  // A batch of 2 downloads of up to 64 MiB.
  expireInSeconds: 300,
};

export interface MessagesJobs {
  send: JobDefinition<SendPayload>;
  downloadMedia: JobDefinition<MediaPayload>;
}

export function createMessagesJobs(deps: PipelineDeps): MessagesJobs {
  return {
    send: { ...SEND_MESSAGE_JOB, batchSize: 5, handler: (payload) => runSend(deps, payload, SEND_MESSAGE_JOB) },
    downloadMedia: {
      ...DOWNLOAD_MEDIA_JOB,
      batchSize: 2,
      handler: (payload) => runDownloadMedia(deps, payload, DOWNLOAD_MEDIA_JOB),
    },
  };
}
