/**
 * Messages: the pipeline's outbound half (agent sends, the send and media jobs), the messages API and signed media
 * links. Ingestion (modules/inbox) and the tickets module use what is exported here.
 */
import type { AdapterLookup } from './messages.adapters.js';
import path from 'node:path';
import type { AppModule, ModuleRegistration } from '../../kernel/module.js';
import { outboundFetchOf } from '../../platform/net/outbound.js';
import type { Platform } from '../../platform/platform.js';
import { createMediaStore, type MediaStore } from '../../platform/storage/media-store.js';
import { withMediaQuota } from '../../platform/storage/media-quota.js';
import { createMediaQuota } from '../tenants/index.js';
import { createMessageActions } from './messages.actions.js';
import { channelAdapters, liveOpsOf, registerSessionJobHandler } from '../channels/index.js';
import { createLiveRoutes } from './messages.live.routes.js';
import { adapterLookup } from './messages.adapters.js';
import { createForwardService } from './messages.forward.js';
import {
  createMessagesJobs,
  DOWNLOAD_MEDIA_JOB,
  mediaPayloadSchema,
  SEND_MESSAGE_JOB,
  sendPayloadSchema,
} from './messages.jobs.js';
import { runDownloadMedia } from './messages.media-job.js';
import { runSend } from './messages.send-job.js';
import { createMediaLinks } from './messages.media-links.js';
import type { PipelineDeps } from './messages.pipeline.js';
import { messagesRoutes } from './messages.routes.js';
import type { MessageSchedulingPort } from './messages.schedule-port.js';
import { createSendService, type SendService } from './messages.send.js';
import { createMessagesService } from './messages.service.js';

export type { AdapterLookup } from './messages.adapters.js';
export { createMediaLinks } from './messages.media-links.js';
export type { MediaLinks } from './messages.media-links.js';
export { loadMessageDto, loadMessageDtos, loadMessageEventDtos } from './messages.dto.js';
export { publishMessage, publishSent } from './messages.pipeline.js';
export { mediaTypeFor } from './messages.upload.js';
export type { MessageChange, PipelineDeps } from './messages.pipeline.js';
export type { MessageRow } from './messages.repository.js';
export {
  applyInboundAck,
  applyInboundDelete,
  applyInboundEdit,
  applyInboundReaction,
  applyInboundReadUpTo,
  applyInboundSendFailure,
  storeInboundMessage,
  storeInboundMessages,
} from './messages.inbound.js';
export type { BatchedInboundMessage } from './messages.inbound.js';
export { createMessagesJobs, DOWNLOAD_MEDIA_JOB, SEND_MESSAGE_JOB } from './messages.jobs.js';
export type { MediaPayload, MessagesJobs, SendPayload } from './messages.jobs.js';
export { createTicketMessaging } from './messages.ticket-port.js';
export type { MessageSchedulingPort, ScheduledFile, TicketScheduleInput } from './messages.schedule-port.js';
export { liveMessagingOf } from './messages.live.routes.js';
export { queueOutboundMessage } from './messages.send.js';
export { renderForTicket, renderPlaceholders } from './messages.placeholders.js';
export {
  attachFullText,
  bodyOverflows,
  capBody,
  discardFullText,
  storeFullText,
  type FullTextFile,
} from './messages.body-cap.js';

/** The media store of messages (chat media, the whole text of capped bodies): the tenant's quota around the store. */
export const messagesMediaStore = (platform: Platform): MediaStore =>
  withMediaQuota(
    createMediaStore({ root: path.join(platform.config.dataDir, 'media'), s3: platform.config.mediaS3 }),
    createMediaQuota(platform.db, platform.config.mediaTenantQuotaBytes),
  );

export interface MessagesModuleOptions {
  /** Lets a send with a `scheduleDate` become a scheduled message (the schedules module implements the port). */
  schedulingFor?: (platform: Platform) => MessageSchedulingPort;
  /** The channel adapters sends go through instead of the channels module's (tests pass a recording one). */
  adapters?: AdapterLookup;
}

/** The messages module: the send pipeline, the message routes and the live sessions' message operations. */
export const createMessagesModule =
  (options: MessagesModuleOptions = {}): AppModule =>
  (platform) =>
    buildMessagesModule(platform, options.adapters, options.schedulingFor?.(platform));

const pipelineOf = (platform: Platform, adapters?: AdapterLookup): PipelineDeps => ({
  db: platform.db,
  jobs: platform.jobs,
  events: platform.events,
  adapters: adapters ?? adapterLookup(channelAdapters(platform)),
  store: messagesMediaStore(platform),
  links: createMediaLinks(platform.secrets.jwtSecret, platform.config.publicUrl),
  outbound: outboundFetchOf(platform.config),
});

/**
 * An agent's send into a ticket for modules above (mass sending's quick-message path): the same checks, storing and
 * events as POST /messages; the send job itself runs where the messages module registered it.
 */
export const ticketSenderOf = (platform: Platform): Pick<SendService, 'sendMessage'> =>
  createSendService(pipelineOf(platform));
export type { OutboundValues } from './messages.send.types.js';

function buildMessagesModule(
  platform: Platform,
  adapters?: AdapterLookup,
  scheduling?: MessageSchedulingPort,
): ModuleRegistration {
  const pipeline = pipelineOf(platform, adapters);
  const jobs = createMessagesJobs(pipeline);
  // A stateful channel's sends run from its session's queue, on the node that runs the session.
  registerSessionJobHandler(platform, SEND_MESSAGE_JOB.name, (data) =>
    runSend(pipeline, sendPayloadSchema.parse(data)),
  );
  // So do the media downloads of a provider that downloads only through its live session (whatsapp-web.js).
  registerSessionJobHandler(platform, DOWNLOAD_MEDIA_JOB.name, (data) =>
    runDownloadMedia(pipeline, mediaPayloadSchema.parse(data)),
  );
  const routes = messagesRoutes({
    service: createMessagesService(pipeline),
    send: createSendService(pipeline),
    actions: createMessageActions(pipeline),
    forward: createForwardService(pipeline),
    store: pipeline.store,
    maxUploadBytes: platform.config.mediaMaxUploadBytes,
    ...(scheduling ? { scheduling } : {}),
  });
  // Groups, mentions, history, phone book, number checks and the fast send of live WhatsApp sessions (H7).
  const live = createLiveRoutes({
    platform,
    pipeline,
    send: createSendService(pipeline),
    store: pipeline.store,
    maxUploadBytes: platform.config.mediaMaxUploadBytes,
    ops: () => liveOpsOf(platform),
  });
  return {
    plugin: async (app) => {
      await app.register(routes);
      await app.register(live.plugin);
    },
    jobs: [jobs.send, jobs.downloadMedia, ...live.jobs] as never[],
  };
}
