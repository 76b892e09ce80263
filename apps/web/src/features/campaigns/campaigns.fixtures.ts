/** Campaigns and recipients for the feature's tests, parsed so a fixture that drifts from the contract fails. */
import {
  campaignDtoSchema,
  campaignRecipientDtoSchema,
  type CampaignDeliveryState,
  type CampaignDto,
  type CampaignRecipientDto,
} from '@conversa/shared';

export function campaignFixture(id: number, overrides: Partial<CampaignDto> = {}): CampaignDto {
  return campaignDtoSchema.parse({
    id,
    tenantId: 1,
    name: `Campanha ${id}`,
    start: '2099-12-31T13:00:00.000Z',
    status: 'pending',
    sessionId: 3,
    delay: 20,
    message1: 'Olá {{firstName}}',
    message2: null,
    message3: null,
    mediaUrl: null,
    mediaName: null,
    mediaType: null,
    queueId: null,
    messageOrder: 'rotate',
    userId: 1,
    contactsCount: 0,
    pendentesEnvio: 0,
    pendentesEntrega: 0,
    recebidas: 0,
    lidas: 0,
    failed: 0,
    skipped: 0,
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    ...overrides,
  });
}

export function recipientFixture(
  id: number,
  state: CampaignDeliveryState,
  overrides: Partial<CampaignRecipientDto> & { reason?: string | null } = {},
): CampaignRecipientDto {
  const { reason = null, ...rest } = overrides;
  return campaignRecipientDtoSchema.parse({
    id,
    name: `Contato ${id}`,
    number: `55119999900${id}`,
    tags: [],
    campaignContacts: [
      {
        id: 100 + id,
        campaignId: 5,
        contactId: id,
        state,
        ack: state === 'read' ? 3 : state === 'delivered' ? 2 : state === 'sent' ? 1 : 0,
        messageRandom: state === 'pending' ? null : 1,
        body: null,
        messageId: null,
        ticketId: null,
        reason,
        sentAt: state === 'pending' ? null : '2026-11-02T12:30:00.000Z',
      },
    ],
    ...rest,
  });
}
