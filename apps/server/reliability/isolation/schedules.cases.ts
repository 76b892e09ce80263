/** Isolation cases of scheduled messages (`/messagesSchedule`, `/scheduleMessages`). */
import { MARK, type IsolationFeature } from '../support/isolation-cases.js';

const seeded = { id: 0 };

export const feature: IsolationFeature = {
  async seed({ t, owner, ids }) {
    const res = await t.call(owner, 'POST', '/messagesSchedule', {
      contactId: ids.contact,
      channelId: ids.channel,
      ticketId: ids.ticket,
      body: `${MARK} agendada`,
      scheduleDate: '2099-12-01 09:00',
    });
    seeded.id = res.json<{ id: number }>().id;
  },
  cases: ({ ids, ownContactId }) => ({
    'POST /api/messagesSchedule': {
      owned: [
        // Tenant 1's contact, channel or ticket: not found, nothing stored.
        ['POST', '/messagesSchedule', { contactId: ids.contact, body: 'x', scheduleDate: '2099-12-01 09:00' }],
        [
          'POST',
          '/messagesSchedule',
          { contactId: ownContactId, channelId: ids.channel, body: 'x', scheduleDate: '2099-12-01 09:00' },
        ],
        [
          'POST',
          '/messagesSchedule',
          { contactId: ownContactId, ticketId: ids.ticket, body: 'x', scheduleDate: '2099-12-01 09:00' },
        ],
      ],
    },
    'GET /api/scheduleMessages': {
      list: [
        ['GET', '/scheduleMessages'],
        ['GET', `/scheduleMessages?ticketId=${ids.ticket}`],
        ['GET', '/scheduleMessages?status=pending&rowsPerPage=100'],
      ],
    },
    'PUT /api/messagesSchedule/:id': {
      owned: [['PUT', `/messagesSchedule/${seeded.id}`, { body: 'Roubada', scheduleDate: '2099-12-02 10:00' }]],
    },
    'DELETE /api/messagesSchedule/:id': { owned: [['DELETE', `/messagesSchedule/${seeded.id}`]] },
  }),
};
