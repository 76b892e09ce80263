/** Isolation cases of notes (with mentions), notifications and protocols. */
import { MARK, type IsolationFeature } from '../support/isolation-cases.js';

const seeded = { note: 0, protocol: 0, notification: 0, ticket: 0, user: 0 };

export const feature: IsolationFeature = {
  async seed({ t, owner, ids }) {
    seeded.ticket = ids.ticket;
    seeded.user = owner.id;
    seeded.note = (await t.call(owner, 'POST', '/ticketNotes', { notes: `${MARK} nota`, ticketId: ids.ticket })).json<{
      id: number;
    }>().id;
    seeded.protocol = (
      await t.call(owner, 'POST', '/ticketProtocols', { protocol: `${MARK}-1`, ticketId: ids.ticket })
    ).json<{ id: number }>().id;
    seeded.notification = (
      await t.call(owner, 'POST', '/notifications', { message: `${MARK} aviso`, userId: owner.id })
    ).json<{ id: number }>().id;
  },
  cases: () => ({
    'GET /api/ticketNotes': { list: [['GET', '/ticketNotes']] },
    'GET /api/ticketNotes/list': { list: [['GET', `/ticketNotes/list?searchParam=${MARK}`]] },
    'GET /api/ticketNotes/:ticketId/logs': { owned: [['GET', `/ticketNotes/${seeded.ticket}/logs`]] },
    'POST /api/ticketNotes': { owned: [['POST', '/ticketNotes', { notes: 'intrusa', ticketId: seeded.ticket }]] },
    'PUT /api/ticketNotes/:id': { owned: [['PUT', `/ticketNotes/${seeded.note}`, { notes: 'roubada' }]] },
    'DELETE /api/ticketNotes/:id': { owned: [['DELETE', `/ticketNotes/${seeded.note}`]] },
    'GET /api/ticketProtocols': { list: [['GET', `/ticketProtocols?searchParam=${MARK}`]] },
    'GET /api/ticketProtocols/:ticketId/logs': { owned: [['GET', `/ticketProtocols/${seeded.ticket}/logs`]] },
    'POST /api/ticketProtocols': {
      owned: [['POST', '/ticketProtocols', { protocol: 'x', ticketId: seeded.ticket, tenantId: 1 }]],
    },
    'POST /api/ticketProtocols/send': { owned: [['POST', '/ticketProtocols/send', { ticketId: seeded.ticket }]] },
    'PUT /api/ticketProtocols/:id': { owned: [['PUT', `/ticketProtocols/${seeded.protocol}`, { protocol: 'x' }]] },
    'DELETE /api/ticketProtocols/:id': { owned: [['DELETE', `/ticketProtocols/${seeded.protocol}`]] },
    'GET /api/notifications': { list: [['GET', '/notifications']] },
    'POST /api/notifications': { owned: [['POST', '/notifications', { message: 'x', userId: seeded.user }]] },
    'PUT /api/notifications/readAll': { own: [['PUT', '/notifications/readAll']] },
    'PUT /api/notifications/:id': { owned: [['PUT', `/notifications/${seeded.notification}`, { isRead: true }]] },
    'DELETE /api/notifications': { own: [['DELETE', '/notifications']] },
    'DELETE /api/notifications/:id': { owned: [['DELETE', `/notifications/${seeded.notification}`]] },
  }),
};
