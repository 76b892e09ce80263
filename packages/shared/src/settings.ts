/**
 * Tenant settings: key/value pairs (product-spec §3 "Settings", client-contract §9) with their defaults. Every key a
 * client of the family reads is here, because those clients read the cached list without a guard: a missing key is
 * `undefined` on their screens, not a default.
 */
export const ENABLED = 'enabled';
export const DISABLED = 'disabled';

export const VISIBILITY_SETTING_KEYS = [
  'NotViewAssignedTickets',
  'NotViewTicketsChatBot',
  'DirectTicketsToWallets',
] as const;

export const SETTING_DEFAULTS = {
  // Visibility (client-contract §9)
  NotViewAssignedTickets: DISABLED,
  NotViewTicketsChatBot: DISABLED,
  DirectTicketsToWallets: DISABLED,
  userCreation: ENABLED,
  // Service screen
  signed: DISABLED,
  /** ours: the tenant's switch for agents' signatures (off = no agent signs, whatever `signed` says). */
  agentSignature: ENABLED,
  universalCounter: DISABLED,
  notificationSilenced: DISABLED,
  ignoreGroupMsg: DISABLED,
  rejectCalls: DISABLED,
  callRejectMessage: '',
  forbiddenNumbers: DISABLED,
  botTicketActive: '',
  autoClose: DISABLED,
  autoCloseTime: '60',
  autoCloseMessage: '',
  ticketLimit: '',
  ticketLimitDaysAgo: '',
  // Integrations on/off, and each one's "apply to all open tickets"
  chatgpt: DISABLED,
  typebot: DISABLED,
  dialogflow: DISABLED,
  lm: DISABLED,
  n8n: DISABLED,
  dify: DISABLED,
  chatgptAllTickets: DISABLED,
  typebotAllTickets: DISABLED,
  dialogflowAllTickets: DISABLED,
  lmAllTickets: DISABLED,
  n8nAllTickets: DISABLED,
  difyAllTickets: DISABLED,
  // Webhooks
  webhook: DISABLED,
  webhookUrl: '',
  webhookMessage: DISABLED,
  webhookCreateApi: DISABLED,
  webhookUpdateApi: DISABLED,
  webhookRenewApi: DISABLED,
  webhookCreateChannel: DISABLED,
  webhookUpdateChannel: DISABLED,
  webhookCreateUser: DISABLED,
  webhookUpdateUser: DISABLED,
  // The tenant's own SMTP account
  smtp: DISABLED,
  emailHost: '',
  emailPort: '587',
  emailSecure: DISABLED,
  emailUser: '',
  emailPass: '',
  // WABA template headers: their meaning is uncertain in the contract, so they take free text
  header_text: '',
  header_image: '',
  header_video: '',
  header_document: '',
  // Read by the reference client at start although §9 does not list them
  userReopenTicket: DISABLED,
  spyticket: DISABLED,
  userDisableSignature: DISABLED,
  ContactAdmin: DISABLED,
  chatbotLane: DISABLED,
  hidetab: DISABLED,
  groupnotification: DISABLED,
  // Resolving a ticket needs a reason (issue 14)
  reasonRequired: DISABLED,
  /**
   * ours: the words that opt a contact out of campaigns when they are the whole message (comma list, compared without
   * case or accents); empty turns the opt-out off (issue 25).
   */
  campaignStopWords: 'SAIR,STOP',
} as const satisfies Record<string, string>;

export type SettingKey = keyof typeof SETTING_DEFAULTS;
export const SETTING_KEYS = Object.keys(SETTING_DEFAULTS) as SettingKey[];

/** Keys whose value is an on/off switch: only `enabled`/`disabled` are stored. */
export const TOGGLE_SETTING_KEYS = SETTING_KEYS.filter(
  (key) => SETTING_DEFAULTS[key] === ENABLED || SETTING_DEFAULTS[key] === DISABLED,
);

/**
 * Credentials are write-only: reads answer an empty value and `configured` (whether one is stored), and an empty
 * value on write keeps the stored one, because clients save a form with the empty field they were shown.
 */
export const SECRET_SETTING_KEYS: readonly SettingKey[] = ['emailPass'];

export function isSettingKey(value: string): value is SettingKey {
  return Object.hasOwn(SETTING_DEFAULTS, value);
}

export function isSecretSettingKey(key: string): boolean {
  return SECRET_SETTING_KEYS.includes(key as SettingKey);
}

/**
 * product-spec §5: tickets assigned to others, tickets in chatbot and tickets directed to wallets cannot all be
 * combined. Returns true when the given settings would switch all three on.
 */
export function violatesVisibilityCombination(values: Partial<Record<SettingKey, string>>): boolean {
  return VISIBILITY_SETTING_KEYS.every((key) => values[key] === ENABLED);
}
