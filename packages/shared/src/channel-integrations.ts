/**
 * A channel's AI and automation keys (client-contract §20.5 "Integrations") and who may read each channel field:
 * the access tables the secret lists derive from. Re-exported by channels.ts, the package's entry for channels.
 */

/** AI and automation settings of a channel (client-contract §20.5 "Integrations"); strings as the clients send them. */
export const CHANNEL_INTEGRATION_KEYS = [
  'chatgptPrompt',
  'chatgptModel',
  'chatgptVoiceModel',
  'chatgptApiKey',
  'chatgptOrganizationId',
  'chatgptOff',
  'chatgptVoice',
  'assistantId',
  'typebotName',
  'typebotUrl',
  'typebotOff',
  'typebotRestart',
  'typebotUnknowMessage',
  'typebotButtonChoiceMessage',
  'n8nUrl',
  'difyKey',
  'difyUrl',
  'difyType',
  'difyOff',
  'difyRestart',
  'dialogflowJsonFilename',
  'dialogflowProjectId',
  'dialogflowLanguage',
  'dialogflowOff',
  'dialogflowJson',
  'lmModel',
  'lmPrompt',
  'lmUrl',
  'lmOff',
  'transcribeAudioJson',
] as const;
export type ChannelIntegrationKey = (typeof CHANNEL_INTEGRATION_KEYS)[number];
export type ChannelIntegrations = Partial<Record<ChannelIntegrationKey, string>>;

/**
 * Who may read a field a client writes: `readable` fields come back in the DTO and the `{T}:whatsapp` event (to
 * every profile of the tenant); `secret` fields are write-only, and the DTO only names the set ones in
 * `configuredSecrets`. Every input field and integration key must be classified here (the `satisfies` below
 * refuses a new one without an entry), and the secret lists, the DTO's integration keys and the server's DTO
 * all derive from these two tables, so a new secret cannot leak by being left off a list.
 */
export type ChannelFieldAccess = 'readable' | 'secret';

export const CHANNEL_INTEGRATION_ACCESS = {
  chatgptPrompt: 'readable',
  chatgptModel: 'readable',
  chatgptVoiceModel: 'readable',
  chatgptApiKey: 'secret',
  chatgptOrganizationId: 'readable',
  chatgptOff: 'readable',
  chatgptVoice: 'readable',
  assistantId: 'readable',
  typebotName: 'readable',
  typebotUrl: 'readable',
  typebotOff: 'readable',
  typebotRestart: 'readable',
  typebotUnknowMessage: 'readable',
  typebotButtonChoiceMessage: 'readable',
  n8nUrl: 'readable',
  difyKey: 'secret',
  difyUrl: 'readable',
  difyType: 'readable',
  difyOff: 'readable',
  difyRestart: 'readable',
  dialogflowJsonFilename: 'readable',
  dialogflowProjectId: 'readable',
  dialogflowLanguage: 'readable',
  dialogflowOff: 'readable',
  dialogflowJson: 'secret',
  lmModel: 'readable',
  lmPrompt: 'readable',
  lmUrl: 'readable',
  lmOff: 'readable',
  /** A Google service-account key. */
  transcribeAudioJson: 'secret',
} as const satisfies Record<ChannelIntegrationKey, ChannelFieldAccess>;

type KeysWith<T extends Record<string, ChannelFieldAccess>, A extends ChannelFieldAccess> = {
  [K in keyof T]: T[K] extends A ? K : never;
}[keyof T] &
  string;

export function keysWith<T extends Record<string, ChannelFieldAccess>, A extends ChannelFieldAccess>(
  table: T,
  access: A,
): readonly KeysWith<T, A>[] {
  return Object.keys(table).filter((key) => table[key] === access) as KeysWith<T, A>[];
}

/** Integration keys holding secrets: never sent back to clients. */
export const SECRET_INTEGRATION_KEYS: readonly ChannelIntegrationKey[] = keysWith(CHANNEL_INTEGRATION_ACCESS, 'secret');
/** The integration keys a DTO may carry (an allow-list: a stored key not listed here is left out). */
export const READABLE_INTEGRATION_KEYS = keysWith(CHANNEL_INTEGRATION_ACCESS, 'readable');
