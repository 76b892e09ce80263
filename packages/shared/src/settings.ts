/** Tenant settings: key/value pairs (product-spec §3 "Settings", client-contract §9) with their defaults. */
export const ENABLED = 'enabled';
export const DISABLED = 'disabled';

export const VISIBILITY_SETTING_KEYS = [
  'NotViewAssignedTickets',
  'NotViewTicketsChatBot',
  'DirectTicketsToWallets',
] as const;

export const SETTING_DEFAULTS = {
  NotViewAssignedTickets: DISABLED,
  NotViewTicketsChatBot: DISABLED,
  DirectTicketsToWallets: DISABLED,
  userCreation: ENABLED,
  signed: DISABLED,
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
  chatgpt: DISABLED,
  typebot: DISABLED,
  dialogflow: DISABLED,
  lm: DISABLED,
  n8n: DISABLED,
  dify: DISABLED,
  webhook: DISABLED,
  webhookUrl: '',
} as const satisfies Record<string, string>;

export type SettingKey = keyof typeof SETTING_DEFAULTS;
export const SETTING_KEYS = Object.keys(SETTING_DEFAULTS) as SettingKey[];

/** Keys whose value is an on/off switch, shown as switches on the general settings screen. */
export const TOGGLE_SETTING_KEYS = SETTING_KEYS.filter(
  (key) => SETTING_DEFAULTS[key] === ENABLED || SETTING_DEFAULTS[key] === DISABLED,
);

export function isSettingKey(value: string): value is SettingKey {
  return Object.hasOwn(SETTING_DEFAULTS, value);
}

/**
 * product-spec §5: tickets assigned to others, tickets in chatbot and tickets directed to wallets cannot all be
 * combined. Returns true when the given settings would switch all three on.
 */
export function violatesVisibilityCombination(values: Partial<Record<SettingKey, string>>): boolean {
  return VISIBILITY_SETTING_KEYS.every((key) => values[key] === ENABLED);
}
