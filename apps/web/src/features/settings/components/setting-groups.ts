import type { SettingKey } from '@conversa/shared';

/** How the general settings screen groups the keys; numeric text keys get a numeric keyboard. */
export const SETTING_GROUPS: { id: string; keys: SettingKey[] }[] = [
  {
    id: 'visibility',
    keys: ['NotViewAssignedTickets', 'NotViewTicketsChatBot', 'DirectTicketsToWallets', 'spyticket'],
  },
  { id: 'users', keys: ['userCreation', 'agentSignature', 'signed', 'userReopenTicket'] },
  {
    id: 'service',
    keys: [
      'universalCounter',
      'notificationSilenced',
      'ignoreGroupMsg',
      'rejectCalls',
      'callRejectMessage',
      'forbiddenNumbers',
      'botTicketActive',
      'ticketLimit',
      'ticketLimitDaysAgo',
    ],
  },
  { id: 'autoClose', keys: ['autoClose', 'autoCloseTime', 'autoCloseMessage'] },
  {
    id: 'integrations',
    keys: [
      'chatgpt',
      'chatgptAllTickets',
      'typebot',
      'typebotAllTickets',
      'dialogflow',
      'dialogflowAllTickets',
      'lm',
      'lmAllTickets',
      'n8n',
      'n8nAllTickets',
      'dify',
      'difyAllTickets',
    ],
  },
  {
    id: 'webhook',
    keys: [
      'webhook',
      'webhookUrl',
      'webhookMessage',
      'webhookCreateApi',
      'webhookUpdateApi',
      'webhookRenewApi',
      'webhookCreateChannel',
      'webhookUpdateChannel',
      'webhookCreateUser',
      'webhookUpdateUser',
    ],
  },
];

export const NUMERIC_SETTING_KEYS: ReadonlySet<SettingKey> = new Set([
  'autoCloseTime',
  'ticketLimit',
  'ticketLimitDaysAgo',
]);

export const MULTILINE_SETTING_KEYS: ReadonlySet<SettingKey> = new Set(['callRejectMessage', 'autoCloseMessage']);
