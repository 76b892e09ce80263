/** Ticket and message rows for the chat tests, in the shapes of packages/shared (TicketDto, MessageDto). */
import type { MessageDto, TicketDto } from '@conversa/shared';
import { contactFixture } from '../../../../test/contacts';
import { messageFixture as baseMessageFixture } from '../../../../test/tickets';
import type { MessagesData, MessagesPage } from '../../hooks/messages-cache';

export function ticketFixture(id: number, overrides: Partial<TicketDto> = {}): TicketDto {
  const contact = contactFixture(5, { name: 'Maria Souza' });
  return {
    id,
    status: 'open',
    contactId: contact.id,
    name: contact.name,
    profilePicUrl: null,
    userId: 7,
    username: 'Ana',
    queueId: 2,
    queue: 'Vendas',
    whatsappId: 1,
    whatsapp: { id: 1, name: 'WhatsApp Loja', type: 'whatsapp', status: 'CONNECTED', sendEvaluation: 'disabled' },
    channel: 'whatsapp',
    isGroup: false,
    unreadMessages: 0,
    answered: true,
    lastMessage: null,
    lastMessageAt: null,
    updatedAt: '2025-03-01T10:00:00.000Z',
    createdAt: '2025-03-01T09:00:00.000Z',
    protocol: '20250301-0001',
    kanban: null,
    tags: [],
    contact,
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
    tenantId: 1,
    user: { id: 7, name: 'Ana' },
    scheduledMessages: [],
    reasons: null,
    value: null,
    lastMessageReceived: null,
    isFarewellMessage: false,
    closingAt: null,
    closedAt: null,
    campaign: null,
    ...overrides,
  };
}

/** A received message of ticket 10 (the shared fixture with the chat tests' defaults). */
export const messageFixture = (id: number, overrides: Partial<MessageDto> = {}): MessageDto =>
  baseMessageFixture(
    id,
    { id: 10, unreadMessages: 0 },
    {
      messageId: `wamid.${id}`,
      contactId: 5,
      body: `Mensagem ${id}`,
      read: true,
      ticket: {
        id: 10,
        status: 'open',
        userId: 7,
        unreadMessages: 0,
        answered: true,
        createdAt: '2025-03-01T09:00:00.000Z',
      },
      timestamp: null,
      createdAt: new Date(Date.UTC(2025, 2, 1, 10, 0, id)).toISOString(),
      updatedAt: new Date(Date.UTC(2025, 2, 1, 10, 0, id)).toISOString(),
      ...overrides,
    },
  );

export const pageOf = (messages: MessageDto[], hasMore = false, messagesOffLine: MessageDto[] = []): MessagesPage => ({
  messages,
  messagesOffLine,
  hasMore,
});

export const historyOf = (...pages: MessagesPage[]): MessagesData => ({
  pages,
  pageParams: pages.map((_page, index) => index + 1),
});
