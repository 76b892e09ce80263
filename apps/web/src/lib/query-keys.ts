/** Query keys shared by the features and by realtime-sync.ts, so socket events can update the right cache entries. */
export const queryKeys = {
  currentTenant: ['tenants', 'current'] as const,
  tenants: ['tenants', 'list'] as const,
  usersAll: ['users'] as const,
  usersLists: ['users', 'list'] as const,
  usersList: (searchParam: string, pageNumber: number) => ['users', 'list', { searchParam, pageNumber }] as const,
  usersCount: ['users', 'count'] as const,
  onlineTeam: ['users', 'online-team'] as const,
  user: (id: number) => ['users', 'detail', id] as const,
  /** Every user, for pickers (contact wallets); under usersLists so user events refresh it. */
  usersOptions: ['users', 'list', { rowsPerPage: 200 }] as const,
  contactsAll: ['contacts'] as const,
  contactsLists: ['contacts', 'list'] as const,
  contactsList: (searchParam: string, pageNumber: number, rowsPerPage: number) =>
    ['contacts', 'list', { searchParam, pageNumber, rowsPerPage }] as const,
  contact: (id: number) => ['contacts', 'detail', id] as const,
  contactDuplicates: ['contacts', 'duplicates'] as const,
  /** Progress of one import, written only by realtime-sync from `{T}:contactImport`. */
  contactImport: (importId: string) => ['contacts', 'import', importId] as const,
  settings: ['settings'] as const,
  channels: ['channels'] as const,
  queues: ['queues'] as const,
  tags: ['tags'] as const,
  kanbans: ['kanbans'] as const,
  ticketsAll: ['tickets'] as const,
  /** Every loaded ticket list (infinite queries keyed by the attendance filter). */
  ticketsLists: ['tickets', 'list'] as const,
  ticketsList: (filter: object) => ['tickets', 'list', filter] as const,
  /** The true totals of the tab badges: one bounded count per (filter, top tab, status). */
  ticketsCounts: ['tickets', 'counts'] as const,
  ticketsCount: (filter: object, isGroup: boolean, status: string) =>
    ['tickets', 'counts', filter, isGroup, status] as const,
  ticket: (id: number) => ['tickets', 'detail', id] as const,
  ticketLogs: (id: number) => ['tickets', 'logs', id] as const,
  /** The chat history of a ticket (infinite query of MessageListResponse pages, newest page first). */
  messages: (ticketId: number) => ['messages', ticketId] as const,
  messagesAll: ['messages'] as const,
  /** The participants of a group ticket, read from the live WhatsApp session (outside 'tickets': no event refetches it). */
  groupParticipants: (ticketId: number) => ['group-participants', ticketId] as const,
  plans: ['plans'] as const,
  captcha: ['auth', 'captcha'] as const,
  /** GET /chat-flow (lib/chat-flows.ts): the flows screen, the channel form, botTicketActive and the transfer. */
  chatFlows: ['chat-flows'] as const,
};
