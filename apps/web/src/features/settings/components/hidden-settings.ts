/**
 * Settings and company toggles the screens do not show because nothing reads them yet (issue 23: every setting on
 * the screens acts or is not shown). Settings and toggles are two lists: `ticketLimit` names one of each. The keys stay in the API (GET /settings, GET /tenants/{id}) for the clients of
 * the family; each comes back to the screen with the code that acts on it. One list, each entry naming why.
 */
import type { SettingKey, TenantFlagKey } from '@conversa/shared';

export const NOT_YET_ACTING_SETTINGS: Partial<Record<SettingKey, string>> = {
  // Issue 27 (the AI and bot integrations): nothing switches an integration on or off per company yet.
  chatgpt: 'issue 27',
  chatgptAllTickets: 'issue 27',
  typebot: 'issue 27',
  typebotAllTickets: 'issue 27',
  dialogflow: 'issue 27',
  dialogflowAllTickets: 'issue 27',
  lm: 'issue 27',
  lmAllTickets: 'issue 27',
  n8n: 'issue 27',
  n8nAllTickets: 'issue 27',
  dify: 'issue 27',
  difyAllTickets: 'issue 27',
  // Issue 27 (outgoing webhooks): no company webhook is sent yet.
  webhook: 'issue 27',
  webhookUrl: 'issue 27',
  webhookMessage: 'issue 27',
  webhookCreateApi: 'issue 27',
  webhookUpdateApi: 'issue 27',
  webhookRenewApi: 'issue 27',
  webhookCreateChannel: 'issue 27',
  webhookUpdateChannel: 'issue 27',
  webhookCreateUser: 'issue 27',
  webhookUpdateUser: 'issue 27',
  // Issue 25 (group tools: banned numbers and groups): ingestion reads neither yet.
  forbiddenNumbers: 'issue 25',
  ignoreGroupMsg: 'issue 25',
  // No issue plans these yet: nothing on the server or in the web app reads them.
  universalCounter: 'not planned',
  notificationSilenced: 'not planned',
  // "Tickets por página" is the company toggle `ticketLimit` (the same name, a toggle below, which the ticket list
  // reads); this setting and the days filter are read by nothing.
  ticketLimit: 'not planned',
  ticketLimitDaysAgo: 'not planned',
};

/** The company toggles (client-contract §10) nothing reads yet. */
export const NOT_YET_ACTING_FLAGS: Partial<Record<TenantFlagKey, string>> = {
  // Issue 27 (the AI and bot integrations).
  walletExternalInteraction: 'issue 27',
  waitProcessExternalInteraction: 'issue 27',
  // No issue plans these yet: nothing on the server or in the web app reads them.
  fixConnections: 'not planned',
  updateNames: 'not planned',
  // The conversation already spans the contact's tickets on the channel, whatever this says.
  groupTickets: 'not planned',
  noRedis: 'not planned',
  baileysMediaPersist: 'not planned',
  audioPlugin: 'not planned',
  audioModule: 'not planned',
  // The internal chat does not exist yet.
  privateMessageLimit: 'internal chat',
};

export const isShownSetting = (key: SettingKey): boolean => !Object.hasOwn(NOT_YET_ACTING_SETTINGS, key);
export const isShownFlag = (key: TenantFlagKey): boolean => !Object.hasOwn(NOT_YET_ACTING_FLAGS, key);
