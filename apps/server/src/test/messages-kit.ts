/**
 * Test support for the message pipeline: a recording channel adapter that fails on demand, a Telegram channel row,
 * inbound event builders, and the app's own ingestion and job definitions.
 */
import { MESSAGE_MEDIA_TYPES, type MessageDto } from '@conversa/shared';
import { systemContext, withTenant } from '../platform/db/tenancy.js';
import type { JobDefinition } from '../platform/jobs/queue.js';
import type { TestApp } from './harness.js';
import {
  loadChannelCredentials,
  ProviderError,
  type ChannelAdapter,
  type ChannelCredentials,
  type InboundEvent,
  type InboundParty,
  type OutboundMessage,
} from '../modules/channels/index.js';
import { channels } from '../modules/channels/channels.tables.js';
import { createIngestion, type Ingestion } from '../modules/inbox/index.js';
import {
  createMediaLinks,
  messagesMediaStore,
  type AdapterLookup,
  type MediaPayload,
  type SendPayload,
} from '../modules/messages/index.js';

type MessageEvent = Extract<InboundEvent, { kind: 'message' }>;

/** Records every provider call; `fail(...)` queues errors thrown by the next calls, one per call. */
export class TestAdapter implements ChannelAdapter {
  readonly type = 'telegram' as const;
  readonly capabilities = { edit: true, delete: true, react: true, qrcode: false, media: MESSAGE_MEDIA_TYPES };
  readonly sent: OutboundMessage[] = [];
  readonly edits: { to: string; id: string; body: string }[] = [];
  readonly deletes: { to: string; id: string }[] = [];
  readonly reactions: { to: string; id: string; emoji: string }[] = [];
  readonly files = new Map<string, { data: Buffer; mime: string | null; name: string | null }>();
  private readonly failures: Error[] = [];
  private nextId = 5000;

  fail(...errors: Error[]): void {
    this.failures.push(...errors);
  }
  private maybeFail(): void {
    const error = this.failures.shift();
    if (error) throw error;
  }
  verifyInbound(): boolean {
    return true;
  }
  parseInbound(): InboundEvent[] {
    return [];
  }
  async send(_channel: ChannelCredentials, message: OutboundMessage) {
    this.maybeFail();
    this.sent.push(message);
    return { providerMessageId: String(this.nextId++), ack: 1 as const, timestamp: Date.now() };
  }
  async edit(_channel: ChannelCredentials, to: string, id: string, body: string) {
    this.maybeFail();
    this.edits.push({ to, id, body });
  }
  async delete(_channel: ChannelCredentials, to: string, id: string) {
    this.maybeFail();
    this.deletes.push({ to, id });
  }
  async react(_channel: ChannelCredentials, to: string, id: string, emoji: string) {
    this.maybeFail();
    this.reactions.push({ to, id, emoji });
  }
  async downloadMedia(_channel: ChannelCredentials, ref: string, maxBytes: number) {
    this.maybeFail();
    const file = this.files.get(ref);
    if (!file) throw new ProviderError('file is gone', true);
    if (file.data.length > maxBytes) throw new ProviderError('file too big', true);
    return file;
  }
  async start() {
    return { number: null, providerState: {} };
  }
  async stop() {}
}

export const lookupOf = (adapter: ChannelAdapter): AdapterLookup => ({ get: () => adapter });

export async function createTelegramChannel(
  t: TestApp,
  tenantId: number,
  values: Partial<typeof channels.$inferInsert> = {},
): Promise<ChannelCredentials> {
  return withTenant(t.platform.db, systemContext(tenantId), async (tx) => {
    const [row] = await tx
      .insert(channels)
      .values({ tenantId, name: 'Bot', type: 'telegram', webhookSecret: 'secret', tokenTelegram: '1:abc', ...values })
      .returning();
    return (await loadChannelCredentials(tx, row!.id))!;
  });
}

export function ingestionFor(
  t: TestApp,
  options: { lanesPerChannel?: number; importQuietMs?: number } = {},
): Ingestion {
  const { db, events } = t.platform;
  const links = createMediaLinks(t.platform.secrets.jwtSecret, t.platform.config.publicUrl);
  return createIngestion({ db, jobs: t.jobs, events, links, store: messagesMediaStore(t.platform), ...options });
}

export const jobOf = <P>(t: TestApp, name: string): JobDefinition<P> =>
  t.jobDefinitions.find((d) => d.name === name) as unknown as JobDefinition<P>;
export const sendJob = (t: TestApp) => jobOf<SendPayload>(t, 'messages.send');
export const mediaJob = (t: TestApp) => jobOf<MediaPayload>(t, 'messages.download-media');

export const person = (chatId: string, name = 'Cliente'): InboundParty => ({
  chatId,
  isGroup: false,
  name,
  number: null,
  idField: 'telegramId',
});

let sequence = 0;
export function textEvent(chatId: string, body: string, extra: Partial<MessageEvent> = {}): MessageEvent {
  sequence += 1;
  return {
    kind: 'message',
    providerMessageId: `in-${Date.now()}-${sequence}`,
    party: person(chatId),
    fromMe: false,
    timestamp: Date.now(),
    mediaType: 'chat',
    body,
    media: null,
    quotedProviderMessageId: null,
    ...extra,
  };
}

/** Collects the pipeline's domain events (published asynchronously after commit). */
export function recordEvents(t: TestApp) {
  const messages: { type: string; message: MessageDto; tenantId: number }[] = [];
  const tickets: { type: string; ticketId: number; notify?: boolean | undefined }[] = [];
  t.platform.events.subscribe('messages.changed', (e) => {
    messages.push({ type: e.type, message: e.message, tenantId: e.tenantId });
  });
  t.platform.events.subscribe('tickets.changed', (e) => {
    tickets.push({ type: e.type, ticketId: e.ticket.id, notify: e.notify });
  });
  return {
    messages,
    tickets,
    clear() {
      messages.length = 0;
      tickets.length = 0;
    },
  };
}

export const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
