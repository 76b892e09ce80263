/**
 * Isolation cases of the WhatsApp Cloud API routes (`/wabameta*`): tenant 1 has a waba channel, a ticket on it and a
 * cached template; tenant 2's admin names them and gets 404 without Graph being called (the seeded channel's Graph
 * is never reached: the lookups refuse first).
 */
import { systemContext, withTenant } from '../../src/platform/db/tenancy.js';
import { channels, wabaTemplates } from '../../src/modules/channels/channels.tables.js';
import { allocateProtocol } from '../../src/modules/tickets/index.js';
import { tickets } from '../../src/modules/tickets/tickets.tables.js';
import { MARK, type IsolationFeature } from '../support/isolation-cases.js';

const PHONE = '100200300499';
const seeded = { channel: 0, ticket: 0 };

export const feature: IsolationFeature = {
  async seed({ t, owner, ids }) {
    await withTenant(t.platform.db, systemContext(owner.tenantId), async (tx) => {
      const [channel] = await tx
        .insert(channels)
        .values({
          tenantId: owner.tenantId,
          name: `${MARK} WABA`,
          type: 'waba',
          status: 'CONNECTED',
          webhookSecret: 'vitima-waba-secret',
          tokenAPI: 'vitima-waba-token',
          wabaId: PHONE,
          bmToken: '900800700499',
          wabaVersion: '20.0',
        })
        .returning({ id: channels.id });
      seeded.channel = channel!.id;
      await tx.insert(wabaTemplates).values({
        tenantId: owner.tenantId,
        channelId: seeded.channel,
        providerId: '1',
        name: 'vitima_modelo',
        language: 'pt_BR',
        status: 'APPROVED',
        components: [{ type: 'BODY', text: `${MARK} modelo` }],
      });
      const [ticket] = await tx
        .insert(tickets)
        .values({
          tenantId: owner.tenantId,
          contactId: ids.contact,
          channelId: seeded.channel,
          channel: 'waba',
          status: 'open',
          protocol: await allocateProtocol(tx, owner.tenantId),
          lastMessageReceivedAt: new Date(),
        })
        .returning({ id: tickets.id });
      seeded.ticket = ticket!.id;
    });
  },
  cases: ({ ids }) => {
    const ticketId = seeded.ticket;
    return {
      'POST /api/wabametaVerifyPhone': {
        owned: [['POST', '/wabametaVerifyPhone', { wabaId: PHONE, whatsappId: seeded.channel }]],
      },
      // The caller's own tenant's Meta token (tenant 2 has none: 400), never tenant 1's.
      'POST /api/wabametaVerifyBms': { own: [['POST', '/wabametaVerifyBms', {}]] },
      'GET /api/wabametaTemplate/:tokenApi': {
        owned: [
          ['GET', `/wabametaTemplate/${seeded.channel}`],
          ['GET', `/wabametaTemplate/${PHONE}?refresh=true`],
        ],
      },
      'POST /api/wabametaText': { owned: [['POST', '/wabametaText', { ticketId, body: 'intruso' }]] },
      // Multipart in real use; the query names the ticket, which is checked before any file is read.
      'POST /api/wabametaFile': { owned: [['POST', `/wabametaFile?ticketId=${ticketId}`]] },
      'POST /api/wabametaFileUrl': {
        owned: [['POST', '/wabametaFileUrl', { ticketId, url: 'https://cdn.example/a.png' }]],
      },
      'POST /api/wabametaSticker': {
        owned: [['POST', '/wabametaSticker', { ticketId, url: 'https://cdn.example/a.webp' }]],
      },
      'POST /api/wabametaButton': {
        owned: [['POST', '/wabametaButton', { ticketId, body: 'x', buttons: [{ title: 'Sim' }] }]],
      },
      'POST /api/wabametaList': {
        owned: [
          [
            'POST',
            '/wabametaList',
            { ticketId, body: 'x', button: 'Ver', sections: [{ title: 'A', rows: [{ title: 'Um' }] }] },
          ],
        ],
      },
      'POST /api/wabametaReaction': {
        owned: [['POST', '/wabametaReaction', { ticketId, messageId: ids.message, emojiReaction: '👍' }]],
      },
      'POST /api/wabametaTemplateComponents': {
        owned: [
          [
            'POST',
            '/wabametaTemplateComponents',
            { ticketId, templateName: 'vitima_modelo', language: 'pt_BR', components: [] },
          ],
        ],
      },
    };
  },
};
