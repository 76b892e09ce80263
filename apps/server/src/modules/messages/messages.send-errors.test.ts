/**
 * A send given up stores a reason the web can translate (issue 23): our known reasons as SEND_ERROR_CODES, catalogue
 * codes as they are, a provider's own text as its detail.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEND_ERROR_CODES, type MessageDto } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { ProviderError, type ChannelCredentials } from '../channels/index.js';
import { contacts } from '../contacts/contacts.tables.js';
import type { Ingestion } from '../inbox/index.js';
import { tickets } from '../tickets/tickets.tables.js';
import { messages } from './messages.tables.js';
import { sendErrorReason } from './messages.send-errors.js';
import {
  createTelegramChannel,
  ingestionFor,
  lookupOf,
  sendJob,
  TestAdapter,
  textEvent,
} from '../../test/messages-kit.js';

describe('sendErrorReason', () => {
  it('maps the reasons this product knows to codes', () => {
    const cases: [string, string][] = [
      ['the contact has no id on this channel', 'SEND_NO_CONTACT_ID'],
      ['waba: the contact has no valid number', 'SEND_NO_CONTACT_ID'],
      ['the message has no channel', 'SEND_NO_CHANNEL'],
      ['the message has no group to go to', 'SEND_NO_GROUP'],
      ['stored media is missing', 'SEND_MEDIA_MISSING'],
      ['media larger than MEDIA_MAX_BYTES', 'SEND_MEDIA_TOO_LARGE'],
      ['telegram download: file too large', 'SEND_MEDIA_TOO_LARGE'],
      ['telegram: empty message', 'SEND_EMPTY_MESSAGE'],
      ['baileys send: empty message', 'SEND_EMPTY_MESSAGE'],
      ['whatsapp-web.js: the number is not on WhatsApp', 'SEND_NOT_ON_WHATSAPP'],
      ['telegram: the channel has no bot token', 'SEND_CHANNEL_NOT_CONFIGURED'],
      ['waba: the channel has no access token', 'SEND_CHANNEL_NOT_CONFIGURED'],
      ['hub: no API token (tenant hubToken)', 'SEND_CHANNEL_NOT_CONFIGURED'],
      ['evolution: invalid API URL', 'SEND_CHANNEL_NOT_CONFIGURED'],
    ];
    for (const [text, code] of cases) expect(sendErrorReason(new ProviderError(text, true)), text).toBe(code);
    expect(new Set(cases.map(([, code]) => code))).toEqual(new Set(SEND_ERROR_CODES));
  });

  it('keeps a catalogue code, and a provider text (cut to 500 characters) as its detail', () => {
    expect(sendErrorReason(new ProviderError('ERR_WAPP_NOT_INITIALIZED', false))).toBe('ERR_WAPP_NOT_INITIALIZED');
    expect(sendErrorReason(new ProviderError('131047: Re-engagement message', true))).toBe(
      '131047: Re-engagement message',
    );
    expect(sendErrorReason(new Error('x'.repeat(900)))).toHaveLength(500);
    // Only our own ProviderErrors are mapped: a provider text that happens to read like ours stays text.
    expect(sendErrorReason(new Error('telegram: empty message'))).toBe('telegram: empty message');
  });
});

describe('the send job stores the code', () => {
  let t: TestApp;
  let tenant: number;
  let agent: TestUser;
  let channel: ChannelCredentials;
  let ingestion: Ingestion;
  const adapter = new TestAdapter();
  const db = <T>(fn: Parameters<typeof withTenant<T>>[2]) => withTenant(t.platform.db, systemContext(tenant), fn);

  beforeAll(async () => {
    t = await createTestApp({}, { adapters: lookupOf(adapter) });
    tenant = await t.createTenant();
    ({ agent } = await t.createStaff(tenant));
    channel = await createTelegramChannel(t, tenant);
    ingestion = ingestionFor(t);
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    await t.jobs.runPending(sendJob(t));
    adapter.sent.length = 0;
  });

  it('a contact without an id on the channel: SEND_NO_CONTACT_ID, nothing sent', async () => {
    const event = textEvent('7301', 'olá');
    await ingestion.ingest(channel, [event]);
    const [inbound] = await db((tx) =>
      tx.select().from(messages).where(eq(messages.messageId, event.providerMessageId)),
    );
    const [ticket] = await db((tx) => tx.select().from(tickets).where(eq(tickets.id, inbound!.ticketId)));
    // The contact lost its Telegram chat id (an edit, a merge) after the ticket was opened.
    await db((tx) => tx.update(contacts).set({ telegramId: null }).where(eq(contacts.id, ticket!.contactId)));
    const res = await t.call(agent, 'POST', `/messages/${ticket!.id}`, { body: 'tentando' });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const id = res.json<MessageDto>().id;
    await sendJob(t).handler({ tenantId: tenant, messageId: id });
    const [row] = await db((tx) => tx.select().from(messages).where(eq(messages.id, id)));
    expect(row).toMatchObject({ isDelayed: true, sendError: 'SEND_NO_CONTACT_ID' });
    expect(adapter.sent).toHaveLength(0);
  });
});
