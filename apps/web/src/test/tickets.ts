/** Ticket rows and messages for tests, in the shapes of packages/shared (ticketListItemSchema, TicketDto, MessageDto). */
import {
  type ChannelDto,
  type MessageDto,
  type TicketDto,
  type TicketListItem,
  type TicketListResponse,
} from '@conversa/shared';
import { channelFixture as baseChannelFixture } from './channels';
import { contactFixture } from './contacts';

export function ticketFixture(id: number, overrides: Partial<TicketListItem> = {}): TicketListItem {
  const name = overrides.name ?? `Cliente ${id}`;
  return {
    id,
    status: 'open',
    contactId: 100 + id,
    name,
    profilePicUrl: null,
    userId: 5,
    username: 'Ana Atendente',
    queueId: 1,
    queue: 'Suporte',
    whatsappId: 7,
    whatsapp: { id: 7, name: 'Telegram Bot' },
    channel: 'telegram',
    isGroup: false,
    unreadMessages: 0,
    answered: true,
    lastMessage: `Mensagem ${id}`,
    lastMessageAt: Date.parse('2025-01-02T10:00:00.000Z'),
    updatedAt: '2025-01-02T10:00:00.000Z',
    createdAt: '2025-01-02T09:00:00.000Z',
    protocol: `20250102000${id}`,
    kanban: null,
    tags: [],
    contact: {
      id: 100 + id,
      name,
      number: `55119000000${id}`,
      email: '',
      profilePicUrl: null,
      pushname: null,
      isGroup: overrides.isGroup ?? false,
      telegramId: null,
      messengerId: null,
      instagramPK: null,
      hubWhatsapp: null,
      blocked: false,
      chatbotBlocked: false,
      wallets: [],
    },
    chatFlowId: null,
    stepChatFlow: null,
    autoReplyId: null,
    stepAutoReplyId: null,
    isTransference: false,
    difyStatus: 'disabled',
    lmStatus: 'disabled',
    n8nStatus: 'disabled',
    typebotStatus: 'disabled',
    dialogflowStatus: 'disabled',
    chatgptStatus: 'disabled',
    ...overrides,
  };
}

export function ticketDtoFixture(id: number, overrides: Partial<TicketListItem> = {}): TicketDto {
  const row = ticketFixture(id, overrides);
  return {
    ...row,
    tenantId: 1,
    user: row.userId === null ? null : { id: row.userId, name: row.username ?? '' },
    contact: contactFixture(row.contactId, { name: row.name, number: row.contact.number }),
    whatsapp: row.whatsapp
      ? { ...row.whatsapp, type: row.channel, status: 'CONNECTED', sendEvaluation: 'disabled' }
      : null,
    scheduledMessages: [],
    reasons: null,
    value: null,
    lastMessageReceived: null,
    isFarewellMessage: false,
    closingAt: null,
    closedAt: null,
    campaign: null,
  };
}

export const ticketPage = (tickets: TicketListItem[], hasMore = false, count = tickets.length): TicketListResponse => ({
  tickets,
  count,
  countCapped: false,
  hasMore,
});

export function messageFixture(
  id: number,
  ticket: Pick<TicketListItem, 'id' | 'unreadMessages'>,
  overrides: Partial<MessageDto> = {},
): MessageDto {
  return {
    id,
    messageId: `m${id}`,
    ticketId: ticket.id,
    contactId: 100 + ticket.id,
    body: `Olá ${id}`,
    mediaType: 'chat',
    mediaUrl: null,
    mediaName: null,
    mediaMime: null,
    mediaSize: null,
    mediaStatus: 'none',
    fromMe: false,
    read: false,
    ack: 0,
    status: 'received',
    sendType: null,
    isDelayed: false,
    sendError: null,
    isDeleted: false,
    deletedAt: null,
    edition: null,
    editedAt: null,
    reaction: null,
    reactionFromMe: null,
    isSticker: false,
    idFront: null,
    meta: null,
    quotedMsg: null,
    contact: null,
    user: null,
    ticket: {
      id: ticket.id,
      status: 'open',
      userId: 5,
      unreadMessages: ticket.unreadMessages,
      answered: false,
      createdAt: '2025-01-02T09:00:00.000Z',
    },
    scheduleDate: null,
    timestamp: Date.parse('2025-01-03T12:00:00.000Z'),
    createdAt: '2025-01-03T12:00:00.000Z',
    updatedAt: '2025-01-03T12:00:00.000Z',
    ...overrides,
  };
}

/** A connected channel as the service screen's pickers see it (the channels screen's fixture, other defaults). */
export const channelFixture = (id: number, overrides: Partial<ChannelDto> = {}): ChannelDto =>
  baseChannelFixture(id, {
    name: `Canal ${id}`,
    number: null,
    status: 'CONNECTED',
    wabaVersion: '',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  });
