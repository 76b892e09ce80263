/** Channels for tests, in the shape of the API (packages/shared channelDtoSchema). */
import { CHANNEL_FLAG_KEYS, channelDtoSchema, type ChannelDto } from '@conversa/shared';

export function channelFixture(id: number, overrides: Partial<ChannelDto> = {}): ChannelDto {
  const flags = Object.fromEntries(CHANNEL_FLAG_KEYS.map((key) => [key, 'disabled']));
  // Parsed, so a fixture that drifts from the contract fails here rather than passing silently.
  return channelDtoSchema.parse({
    id,
    tenantId: 1,
    name: `Channel ${id}`,
    type: 'telegram',
    number: `bot${id}`,
    status: 'DISCONNECTED',
    qrcode: null,
    pairingCode: null,
    retries: 0,
    profilePic: null,
    isDefault: false,
    isActive: true,
    queueId: null,
    userId: null,
    chatFlowId: null,
    wabaId: null,
    wabaVersion: '20.0',
    wabaBSP: null,
    instagramUser: null,
    wppUser: null,
    proxyUrl: null,
    proxyUser: null,
    webversion: null,
    remotePath: null,
    farewellMessage: null,
    closeKeyWord: null,
    webhook: null,
    birthdayDateMessage: null,
    birthdayDateHour: null,
    bDateFileName: null,
    importOldMessages: null,
    importRecentMessages: null,
    queueIdImportMessages: null,
    ...flags,
    distribution: 'N',
    integrations: {},
    configuredSecrets: [],
    createdAt: '2025-01-02T10:00:00.000Z',
    updatedAt: '2025-03-04T15:06:07.000Z',
    ...overrides,
  });
}
