/**
 * /api/ticketNotes and the mention notifications: visibility through the tickets policy (an agent outside a ticket's
 * queue neither lists nor writes its notes), author-or-admin edits, `@name` mentions -> one notification per newly
 * mentioned user, pushed live to that user only, and `{T}:ticketNote` to the ticket's viewers only.
 */
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationList, TicketNoteDto, TicketNotePage } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeChannel, makeContact, makeQueue, makeTicket, recordingPort } from '../../test/ticket-fixtures.js';

let t: TestApp;
let url: string;
let admin: TestUser;
let ana: TestUser;
let anaPaula: TestUser;
let outsider: TestUser;
let stranger: TestUser;
let ticketQ1: number;
let ticketQ2: number;
let strangerTicket: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp({}, { ticketMessaging: recordingPort().port });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  admin = await t.createUser({ tenantId: 1, profile: 'admin', name: 'Chefe' });
  ana = await t.createUser({ tenantId: 1, profile: 'user', name: 'Ana' });
  anaPaula = await t.createUser({ tenantId: 1, profile: 'user', name: 'Ana Paula' });
  outsider = await t.createUser({ tenantId: 1, profile: 'user', name: 'Otto' });
  const tenant2 = await t.createTenant();
  stranger = await t.createUser({ tenantId: tenant2, profile: 'admin', name: 'Ana' });
  const channel = await makeChannel(t, 1);
  const q1 = await makeQueue(t, 1, 'Q1', [ana.id, anaPaula.id]);
  const q2 = await makeQueue(t, 1, 'Q2', [outsider.id]);
  const contact = await makeContact(t, 1, { name: 'Maria Cliente', number: '5511999990000' });
  ticketQ1 = await makeTicket(t, 1, { contactId: contact, channelId: channel, queueId: q1, status: 'open' });
  const contactQ2 = await makeContact(t, 1, { name: 'João Cliente' });
  ticketQ2 = await makeTicket(t, 1, { contactId: contactQ2, channelId: channel, queueId: q2, status: 'open' });
  const contact2 = await makeContact(t, tenant2, { name: 'Outro' });
  strangerTicket = await makeTicket(t, tenant2, { contactId: contact2, channelId: await makeChannel(t, tenant2) });
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});
afterAll(() => t.close());

async function connect(user: TestUser): Promise<{ event: string; args: unknown[] }[]> {
  const socket = io(url, {
    auth: { token: user.token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  const seen: { event: string; args: unknown[] }[] = [];
  socket.onAny((event: string, ...args: unknown[]) => seen.push({ event, args }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return seen;
}

const note = async (user: TestUser, ticketId: number, notes: string) => {
  const res = await t.call(user, 'POST', '/ticketNotes/', { notes, ticketId });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<TicketNoteDto>();
};

const notificationsOf = async (user: TestUser) =>
  (await t.call(user, 'GET', '/notifications')).json<NotificationList>();

describe('ticket notes', () => {
  it('writes a note on a visible ticket; the contract list is a bare array, newest first', async () => {
    const first = await note(ana, ticketQ1, 'Cliente pediu retorno amanhã');
    expect(first).toMatchObject({
      notes: 'Cliente pediu retorno amanhã',
      ticketId: ticketQ1,
      userId: ana.id,
      mentionedUserIds: [],
      user: { name: 'Ana' },
      ticket: { id: ticketQ1, contact: { name: 'Maria Cliente' } },
    });
    const second = await note(admin, ticketQ1, 'Segunda nota');
    const list = (await t.call(admin, 'GET', '/ticketNotes/')).json<TicketNoteDto[]>();
    expect(Array.isArray(list)).toBe(true);
    expect(list.map((n) => n.id).slice(0, 2)).toEqual([second.id, first.id]);
    const logs = (await t.call(ana, 'GET', `/ticketNotes/${ticketQ1}/logs`)).json<TicketNoteDto[]>();
    expect(logs.map((n) => n.id)).toEqual([first.id, second.id]);
    expect(logs[0]).toMatchObject({
      id: first.id,
      notes: first.notes,
      createdAt: first.createdAt,
      user: { name: 'Ana' },
    });
  });

  it('an agent outside the queue neither lists, reads logs, writes, edits nor deletes the notes of that ticket', async () => {
    const hidden = await note(admin, ticketQ2, 'Nota da fila 2');
    const seenByAna = (await t.call(ana, 'GET', '/ticketNotes/')).json<TicketNoteDto[]>();
    expect(seenByAna.map((n) => n.id)).not.toContain(hidden.id);
    expect((await t.call(outsider, 'GET', '/ticketNotes/')).json<TicketNoteDto[]>().map((n) => n.id)).toContain(
      hidden.id,
    );
    expect((await t.call(ana, 'GET', `/ticketNotes/${ticketQ2}/logs`)).json()).toEqual({
      error: 'ERR_NO_TICKET_FOUND',
    });
    const write = await t.call(ana, 'POST', '/ticketNotes/', { notes: 'x', ticketId: ticketQ2 });
    expect(write.statusCode).toBe(404);
    expect(write.json()).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    expect((await t.call(ana, 'PUT', `/ticketNotes/${hidden.id}`, { notes: 'y' })).json()).toEqual({
      error: 'ERR_NO_NOTE_FOUND',
    });
    expect((await t.call(ana, 'DELETE', `/ticketNotes/${hidden.id}`)).json()).toEqual({ error: 'ERR_NO_NOTE_FOUND' });
  });

  it('pages and searches for the /notas screen (text, contact name, ticket number)', async () => {
    await note(admin, ticketQ1, 'Procurar palavra-chave zebra');
    const page = (
      await t.call(admin, 'GET', '/ticketNotes/list?searchParam=ZEBRA&pageNumber=1')
    ).json<TicketNotePage>();
    expect(page.ticketNotes.map((n) => n.notes)).toEqual(['Procurar palavra-chave zebra']);
    expect(page).toMatchObject({ count: 1, hasMore: false });
    const byContact = (await t.call(admin, 'GET', '/ticketNotes/list?searchParam=maria')).json<TicketNotePage>();
    expect(byContact.count).toBe(3);
    expect(new Set(byContact.ticketNotes.map((n) => n.ticketId))).toEqual(new Set([ticketQ1]));
    const byTicket = (await t.call(admin, 'GET', `/ticketNotes/list?searchParam=${ticketQ2}`)).json<TicketNotePage>();
    expect(new Set(byTicket.ticketNotes.map((n) => n.ticketId))).toEqual(new Set([ticketQ2]));
    const small = (await t.call(admin, 'GET', '/ticketNotes/list?rowsPerPage=1&pageNumber=2')).json<TicketNotePage>();
    expect(small.ticketNotes).toHaveLength(1);
    expect(small.hasMore).toBe(true);
    const wildcard = (await t.call(admin, 'GET', '/ticketNotes/list?searchParam=%25')).json<TicketNotePage>();
    expect(wildcard.count).toBe(0);
  });

  it('only the author or an admin edits or deletes a note (ERR_NO_PERMISSION)', async () => {
    const own = await note(ana, ticketQ1, 'Minha nota');
    const res = await t.call(anaPaula, 'PUT', `/ticketNotes/${own.id}`, { notes: 'Intrusa' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await t.call(anaPaula, 'DELETE', `/ticketNotes/${own.id}`)).json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    const edited = await t.call(ana, 'PUT', `/ticketNotes/${own.id}`, { notes: ' Editada ', ticketId: ticketQ2 });
    expect(edited.json()).toMatchObject({ id: own.id, notes: 'Editada', ticketId: ticketQ1 });
    expect((await t.call(admin, 'PUT', `/ticketNotes/${own.id}`, { notes: 'Pelo admin' })).statusCode).toBe(200);
    expect((await t.call(admin, 'DELETE', `/ticketNotes/${own.id}`)).statusCode).toBe(204);
    expect((await t.call(ana, 'DELETE', `/ticketNotes/${own.id}`)).json()).toEqual({ error: 'ERR_NO_NOTE_FOUND' });
  });

  it('validates the body and the ids without writing anything', async () => {
    const before = (await t.call(admin, 'GET', '/ticketNotes/')).json<TicketNoteDto[]>().length;
    for (const body of [
      { notes: '', ticketId: ticketQ1 },
      { notes: '   ', ticketId: ticketQ1 },
      { ticketId: ticketQ1 },
    ]) {
      const res = await t.call(admin, 'POST', '/ticketNotes/', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'notes' });
    }
    expect((await t.call(admin, 'POST', '/ticketNotes/', { notes: 'x', ticketId: 'abc' })).json()).toMatchObject({
      error: 'ERR_VALIDATION',
      field: 'ticketId',
    });
    expect(
      (await t.call(admin, 'POST', '/ticketNotes/', { notes: 'x'.repeat(5001), ticketId: ticketQ1 })).statusCode,
    ).toBe(400);
    expect((await t.call(admin, 'POST', '/ticketNotes/', { notes: 'x', ticketId: 999999 })).json()).toEqual({
      error: 'ERR_NO_TICKET_FOUND',
    });
    expect((await t.call(admin, 'PUT', '/ticketNotes/999999', { notes: 'x' })).json()).toEqual({
      error: 'ERR_NO_NOTE_FOUND',
    });
    expect((await t.call(admin, 'GET', '/ticketNotes/')).json<TicketNoteDto[]>().length).toBe(before);
  });

  it('another tenant never reaches a note, nor tenant 1 the other tenant ticket', async () => {
    const mine = await note(admin, ticketQ1, 'Interna');
    expect((await t.call(stranger, 'GET', '/ticketNotes/')).json()).toEqual([]);
    expect((await t.call(stranger, 'PUT', `/ticketNotes/${mine.id}`, { notes: 'x' })).json()).toEqual({
      error: 'ERR_NO_NOTE_FOUND',
    });
    expect((await t.call(stranger, 'GET', `/ticketNotes/${ticketQ1}/logs`)).json()).toEqual({
      error: 'ERR_NO_TICKET_FOUND',
    });
    expect((await t.call(admin, 'POST', '/ticketNotes/', { notes: 'x', ticketId: strangerTicket })).json()).toEqual({
      error: 'ERR_NO_TICKET_FOUND',
    });
  });
});

describe('mentions', () => {
  it('a mention stores the user, notifies only them (row + socket event), never the author or another tenant', async () => {
    const anaSeen = await connect(ana);
    const paulaSeen = await connect(anaPaula);
    const ottoSeen = await connect(outsider);
    const strangerSeen = await connect(stranger);
    const adminSeen = await connect(admin);
    const before = await notificationsOf(ana);
    const written = await note(admin, ticketQ1, 'Olá @Ana Paula e @chefe, veja isto');
    expect(written.mentionedUserIds).toEqual([admin.id, anaPaula.id].sort((a, b) => a - b));

    const paula = await notificationsOf(anaPaula);
    expect(paula.unread).toBe(1);
    expect(paula.notifications[0]).toMatchObject({
      userId: anaPaula.id,
      isRead: false,
      senderId: admin.id,
      message: `Chefe mencionou você no ticket #${ticketQ1}: Olá @Ana Paula e @chefe, veja isto`,
      data: { kind: 'mention', ticketId: ticketQ1, noteId: written.id, authorName: 'Chefe' },
    });
    // "@Ana Paula" is Ana Paula, not also Ana; the author is not notified of their own mention.
    expect((await notificationsOf(ana)).count).toBe(before.count);
    expect((await notificationsOf(admin)).notifications.some((n) => n.data.noteId === written.id)).toBe(false);

    const isCreate = (e: { event: string; args: unknown[] }) =>
      e.event === '1:notification' && (e.args[0] as { action: string }).action === 'create';
    await expect.poll(() => paulaSeen.some(isCreate), { timeout: 5_000 }).toBe(true);
    // The note event reaches the ticket's viewers (Q1 members, the admin), not the agent of Q2 nor the other tenant.
    const noteEvent = (seen: typeof anaSeen) => seen.some((e) => e.event === '1:ticketNote');
    await expect.poll(() => noteEvent(anaSeen), { timeout: 5_000 }).toBe(true);
    await expect.poll(() => noteEvent(adminSeen), { timeout: 5_000 }).toBe(true);
    // Positive control for the silent sockets: a notification for Otto arrives after the events above.
    await t.call(admin, 'POST', '/notifications', { message: 'controle', userId: outsider.id });
    await expect.poll(() => ottoSeen.some(isCreate), { timeout: 5_000 }).toBe(true);
    expect(noteEvent(ottoSeen)).toBe(false);
    expect(anaSeen.some(isCreate)).toBe(false);
    expect(strangerSeen.filter((e) => e.event.startsWith('1:'))).toEqual([]);
  });

  it('an edit notifies only the users it newly mentions', async () => {
    const written = await note(ana, ticketQ1, 'Para @Ana Paula');
    const count = (await notificationsOf(anaPaula)).count;
    await t.call(ana, 'PUT', `/ticketNotes/${written.id}`, { notes: 'Para @Ana Paula (editado)' });
    expect((await notificationsOf(anaPaula)).count).toBe(count);
    const edited = await t.call(ana, 'PUT', `/ticketNotes/${written.id}`, { notes: 'Para @Ana Paula e @Otto' });
    expect(edited.json<TicketNoteDto>().mentionedUserIds).toEqual([anaPaula.id, outsider.id]);
    expect((await notificationsOf(outsider)).notifications[0]).toMatchObject({ data: { noteId: written.id } });
  });
});
