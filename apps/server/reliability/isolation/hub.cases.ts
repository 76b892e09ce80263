/**
 * Isolation cases of the NotificaMe hub routes (issue 15) and the tenant's write-only Meta/hub tokens. Tenant 1's
 * channel and ticket named by id are not found for tenant 2; the account lists read the caller's own hub token (tenant 2
 * has none: 400, nothing of tenant 1); the token routes name their tenant, so another tenant's id is refused (403).
 */
import { HUB_CHANNEL_TYPES } from '@conversa/shared';
import type { IsolationFeature } from '../support/isolation-cases.js';

export const feature: IsolationFeature = {
  async seed() {
    // The suite's tenant-1 channel and ticket are what these routes must not reach.
  },
  cases: ({ ids }) => ({
    'GET /api/hub-channel': { own: [['GET', '/hub-channel/']] },
    'POST /api/hub-channel': { own: [['POST', '/hub-channel/', { id: 'wa-1', name: 'Hub', channel: 'whatsapp' }]] },
    'POST /api/hub-channel-setagain': { owned: [['POST', '/hub-channel-setagain/', { whatsappId: ids.channel }]] },
    'POST /api/hub-template': { owned: [['POST', '/hub-template/', { whatsappId: ids.channel }]] },
    'POST /api/send-template': {
      owned: [['POST', '/send-template/', { ticketId: ids.ticket, templateName: 'pedido', language: 'pt_BR' }]],
    },
    'POST /api/hub-message/:ticketId': { owned: [['POST', `/hub-message/${ids.ticket}`, { body: 'intruso' }]] },
    'PUT /api/tenantsMetaUpdate/:id': {
      refused: [['PUT', '/tenantsMetaUpdate/1', { metaToken: 'x', wabaToken: 'y' }]],
    },
    'PUT /api/tenantsHubToken/:id': { refused: [['PUT', '/tenantsHubToken/1', { hubToken: 'x' }]] },
    ...Object.fromEntries(
      HUB_CHANNEL_TYPES.map((type) => [
        `POST /api/webhooks/${type}/:channelId`,
        { exempt: 'hub webhook: the token derived from the channel secret is the credential (401), hub.flow.test.ts' },
      ]),
    ),
  }),
};
