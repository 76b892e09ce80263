/**
 * The Brazilian ninth digit in ingestion: a customer stored in one form who writes from the other (12-digit JID vs
 * 13-digit number) is the same contact and ticket, and the stored number is never rewritten; a number a provider gives
 * is read with its country code. One message at a time, a batch of them, and a group member.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext, withTenant, type TenantId } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { createTelegramChannel, ingestionFor, lookupOf, TestAdapter, textEvent } from '../../test/messages-kit.js';
import type { ChannelCredentials, InboundParty } from '../channels/index.js';
import { upsertInboundContacts } from '../contacts/index.js';
import { contacts } from '../contacts/contacts.tables.js';
import { messages } from '../messages/messages.tables.js';
import type { Ingestion } from './ingestion.service.js';

let t: TestApp;
let tenant: number;
let channel: ChannelCredentials;
let ingestion: Ingestion;

const rows = <T>(fn: Parameters<typeof withTenant<T>>[2]) => withTenant(t.platform.db, systemContext(tenant), fn);
const phone = (number: string, name = 'Cliente'): InboundParty => ({
  chatId: number,
  isGroup: false,
  name,
  number,
  idField: 'number',
});
const contactsNumbered = (...numbers: string[]) =>
  rows(async (tx) => (await tx.select().from(contacts)).filter((c) => numbers.includes(c.number ?? '')));
const stored = (providerId: string) =>
  rows(async (tx) => (await tx.select().from(messages).where(eq(messages.messageId, providerId)))[0]!);

async function createContact(number: string) {
  return rows(
    async (tx) => (await tx.insert(contacts).values({ tenantId: tenant, name: 'Salvo', number }).returning())[0]!,
  );
}

beforeAll(async () => {
  t = await createTestApp({}, { adapters: lookupOf(new TestAdapter()) });
  tenant = await t.createTenant();
  // The channel type does not matter to ingestion: the party says how the contact is keyed.
  channel = await createTelegramChannel(t, tenant);
  ingestion = ingestionFor(t);
});
afterAll(async () => t.close());

describe('one contact for both ninth-digit forms', () => {
  it('a contact stored with 12 digits who writes from the 13-digit form: same contact and ticket, 12 kept', async () => {
    const first = textEvent('x', 'primeira', { party: phone('556199998888') });
    await ingestion.ingest(channel, [first]);
    const second = textEvent('x', 'segunda', { party: phone('5561999998888') });
    await ingestion.ingest(channel, [second]);
    const [a, b] = [await stored(first.providerMessageId), await stored(second.providerMessageId)];
    expect(b.contactId).toBe(a.contactId);
    expect(b.ticketId).toBe(a.ticketId);
    const found = await contactsNumbered('556199998888', '5561999998888');
    expect(found.map((c) => c.number)).toEqual(['556199998888']);
  });

  it('a contact saved with 13 digits who writes from the 12-digit JID: same contact, 13 kept', async () => {
    const saved = await createContact('5511988887777');
    const event = textEvent('x', 'oi', { party: phone('551188887777') });
    await ingestion.ingest(channel, [event]);
    expect((await stored(event.providerMessageId)).contactId).toBe(saved.id);
    expect((await contactsNumbered('551188887777', '5511988887777')).map((c) => c.number)).toEqual(['5511988887777']);
  });

  it('a group member in the other form is the saved contact (the message’s sender)', async () => {
    const saved = await createContact('5521977776666');
    const group: InboundParty = {
      chatId: '120363000000000001@g.us',
      isGroup: true,
      name: 'Grupo',
      number: null,
      idField: 'number',
      participant: { id: '552177776666', name: 'Membro', number: '552177776666', idField: 'number' },
    };
    const event = textEvent('x', 'no grupo', { party: group });
    await ingestion.ingest(channel, [event]);
    expect((await stored(event.providerMessageId)).senderContactId).toBe(saved.id);
    expect(await contactsNumbered('552177776666')).toHaveLength(0);
  });

  it('a batch finds the contacts of both forms too, and makes new ones as given', async () => {
    const saved = await createContact('5531966665555');
    const found = await rows((tx) =>
      upsertInboundContacts(tx, tenant as TenantId, [
        { id: '553166665555', idField: 'number', name: 'A', number: '553166665555', isGroup: false },
        { id: '553155554444', idField: 'number', name: 'B', number: '553155554444', isGroup: false },
        { id: '5531966665555', idField: 'number', name: 'A', number: '5531966665555', isGroup: false },
      ]),
    );
    expect(found[0]!.id).toBe(saved.id);
    expect(found[2]!.id).toBe(saved.id);
    // 553155554444 is a landline (subscriber digit 5): one form only, a new contact as given.
    expect(found[1]).toMatchObject({ number: '553155554444' });
    expect((await contactsNumbered('5531966665555', '553166665555')).map((c) => c.number)).toEqual(['5531966665555']);
  });

  it('a provider’s digits carry the country code: a US number is not read as a Brazilian one', async () => {
    const event = textEvent('x', 'hello', { party: phone('14155550123') });
    await ingestion.ingest(channel, [event]);
    const { contactId } = await stored(event.providerMessageId);
    const [contact] = await rows((tx) => tx.select().from(contacts).where(eq(contacts.id, contactId)));
    expect(contact!.number).toBe('14155550123');
  });
});
