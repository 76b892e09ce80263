import type { SettingKey } from '@conversa/shared';
import { isShownSetting } from './hidden-settings';

/** How the general settings screen groups the keys; numeric text keys get a numeric keyboard. */
const ALL_SETTING_GROUPS: { id: string; keys: SettingKey[] }[] = [
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
  { id: 'campaigns', keys: ['campaignStopWords'] },
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

/** The groups as shown: keys nothing reads yet left out (hidden-settings.ts), and groups left empty with them. */
export const SETTING_GROUPS = ALL_SETTING_GROUPS.map((group) => ({
  ...group,
  keys: group.keys.filter(isShownSetting),
})).filter((group) => group.keys.length > 0);

export const NUMERIC_SETTING_KEYS: ReadonlySet<SettingKey> = new Set([
  'autoCloseTime',
  'ticketLimit',
  'ticketLimitDaysAgo',
]);

export const MULTILINE_SETTING_KEYS: ReadonlySet<SettingKey> = new Set(['callRejectMessage', 'autoCloseMessage']);
