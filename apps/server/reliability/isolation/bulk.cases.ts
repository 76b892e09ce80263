/** Isolation cases of mass sending (`/bulk`, client-contract §12): tenant 1's number channel and one batch of it. */
import { createTelegramChannel } from '../../src/test/messages-kit.js';
import type { IsolationFeature } from '../support/isolation-cases.js';

const seeded = { id: 0, channel: 0 };

const batch = (whatsappId: number) => ({ whatsappId, arrayNumbers: ['5511944440001'], min: 5, max: 9, message: 'x' });

export const feature: IsolationFeature = {
  async seed({ t, owner }) {
    seeded.channel = (await createTelegramChannel(t, 1, { type: 'evo', name: 'Vitima evo', status: 'CONNECTED' })).id;
    const res = await t.call(owner, 'POST', '/bulk', batch(seeded.channel));
    if (res.statusCode !== 200) throw new Error(`batch not seeded: ${res.statusCode} ${res.body}`);
    seeded.id = res.json<{ id: number }>().id;
  },
  cases: () => {
    const { id, channel } = seeded;
    return {
      'GET /api/bulk': { list: [['GET', '/bulk']] },
      // Tenant 1's channel: not found, nothing stored.
      'POST /api/bulk': { owned: [['POST', '/bulk', batch(channel)]] },
      'POST /api/bulkClose': { owned: [['POST', '/bulkClose', batch(channel)]] },
      'POST /api/bulkVariable': {
        owned: [['POST', '/bulkVariable', { ...batch(channel), number: '5511944440001,a' }]],
      },
      'GET /api/bulk/:id': { owned: [['GET', `/bulk/${id}`]] },
      'POST /api/bulk/:id/cancel': { owned: [['POST', `/bulk/${id}/cancel`, {}]] },
    };
  },
};
