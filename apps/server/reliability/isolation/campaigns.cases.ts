/** Isolation cases of campaigns (`/campaigns`, client-contract §12): tenant 1's campaign, contacts and channel. */
import { MARK, type IsolationFeature } from '../support/isolation-cases.js';

const seeded = { id: 0 };

const form = (sessionId: number) => ({ name: `${MARK} campanha`, start: '2099-12-01 09:00', sessionId, message1: 'x' });

export const feature: IsolationFeature = {
  async seed({ t, owner, ids }) {
    const res = await t.call(owner, 'POST', '/campaigns', form(ids.channel));
    if (res.statusCode !== 200) throw new Error(`campaign not seeded: ${res.statusCode} ${res.body}`);
    seeded.id = res.json<{ id: number }>().id;
    const added = await t.call(owner, 'POST', `/campaigns/contacts/${seeded.id}`, [{ id: ids.contact }]);
    if (added.statusCode !== 200) throw new Error(`campaign contacts not seeded: ${added.statusCode}`);
  },
  cases: ({ ids }) => {
    const id = seeded.id;
    return {
      'GET /api/campaigns': { list: [['GET', '/campaigns']] },
      // Tenant 1's channel as the session: not found, nothing stored.
      'POST /api/campaigns': { owned: [['POST', '/campaigns', form(ids.channel)]] },
      'GET /api/campaigns/:id': { owned: [['GET', `/campaigns/${id}`]] },
      'PUT /api/campaigns/:id': { owned: [['PUT', `/campaigns/${id}`, { name: 'Roubada', message1: 'y' }]] },
      'DELETE /api/campaigns/:id': { owned: [['DELETE', `/campaigns/${id}`]] },
      'POST /api/campaigns/start/:id': { owned: [['POST', `/campaigns/start/${id}`, { campaignId: id }]] },
      'POST /api/campaigns/cancel/:id': { owned: [['POST', `/campaigns/cancel/${id}`, { campaignId: id }]] },
      'POST /api/campaigns/:id/duplicate': { owned: [['POST', `/campaigns/${id}/duplicate`, {}]] },
      'GET /api/campaigns/contacts/:id': { owned: [['GET', `/campaigns/contacts/${id}?campaignId=${id}`]] },
      'POST /api/campaigns/contacts/:id': { owned: [['POST', `/campaigns/contacts/${id}`, [{ id: ids.contact }]]] },
      'POST /api/campaigns/:id/contacts/tags': { owned: [['POST', `/campaigns/${id}/contacts/tags`, { tagIds: [1] }]] },
      'DELETE /api/campaigns/contacts/:id/:contactId': {
        owned: [['DELETE', `/campaigns/contacts/${id}/${ids.contact}`]],
      },
      'DELETE /api/campaigns/deleteall/contacts/:id': { owned: [['DELETE', `/campaigns/deleteall/contacts/${id}`]] },
      'GET /api/campaigns/:id/report': { owned: [['GET', `/campaigns/${id}/report`]] },
      'GET /api/campaigns/:id/report/export': {
        owned: [
          ['GET', `/campaigns/${id}/report/export?format=csv`],
          ['GET', `/campaigns/${id}/report/export?format=xlsx`],
        ],
      },
    };
  },
};
