/** Isolation cases of resolving: closing messages, reasons, ratings and the rating data of the tenant. */
import { systemContext, withTenant } from '../../src/platform/db/tenancy.js';
import { ticketEvaluations } from '../../src/modules/evaluations/evaluations.tables.js';
import { MARK, type IsolationFeature } from '../support/isolation-cases.js';

const seeded = { farewell: 0, reason: 0, evaluation: 0, ticket: 0, tenant: 0 };

export const feature: IsolationFeature = {
  async seed({ t, owner, ids }) {
    seeded.ticket = ids.ticket;
    seeded.tenant = owner.tenantId;
    seeded.farewell = (await t.call(owner, 'POST', '/farewellPrivateMessage', { message: `${MARK} despedida` })).json<{
      id: number;
    }>().id;
    seeded.reason = (await t.call(owner, 'POST', '/reasons', { name: `${MARK} motivo` })).json<{ id: number }>().id;
    const [row] = await withTenant(t.platform.db, systemContext(owner.tenantId), (tx) =>
      tx
        .insert(ticketEvaluations)
        .values({
          tenantId: owner.tenantId,
          ticketId: ids.ticket,
          userId: owner.id,
          evaluation: MARK,
          value: 5,
          status: 'rated',
        })
        .returning({ id: ticketEvaluations.id }),
    );
    seeded.evaluation = row!.id;
  },
  cases: () => ({
    'GET /api/farewellPrivateMessage': { list: [['GET', '/farewellPrivateMessage']] },
    'POST /api/farewellPrivateMessage': { own: [['POST', '/farewellPrivateMessage', { message: `${MARK} nova` }]] },
    'PUT /api/farewellPrivateMessage/:id': {
      owned: [['PUT', `/farewellPrivateMessage/${seeded.farewell}`, { message: 'roubada' }]],
    },
    'DELETE /api/farewellPrivateMessage/:id': { owned: [['DELETE', `/farewellPrivateMessage/${seeded.farewell}`]] },
    'DELETE /api/farewellPrivateMessageAll': { own: [['DELETE', '/farewellPrivateMessageAll']] },
    'GET /api/reasons': { list: [['GET', '/reasons']] },
    'POST /api/reasons': { own: [['POST', '/reasons', { name: `${MARK} motivo` }]] },
    'PUT /api/reasons/:id': { owned: [['PUT', `/reasons/${seeded.reason}`, { name: 'roubado' }]] },
    'DELETE /api/reasons/:id': { owned: [['DELETE', `/reasons/${seeded.reason}`]] },
    'GET /api/ticketEvaluations': { list: [['GET', '/ticketEvaluations']] },
    'POST /api/ticketEvaluations': {
      owned: [['POST', '/ticketEvaluations', { evaluation: 'x', attempts: 0, ticketId: seeded.ticket }]],
    },
    'POST /api/ticketEvaluations/send': { owned: [['POST', '/ticketEvaluations/send', { ticketId: seeded.ticket }]] },
    'PUT /api/ticketEvaluations/:id': {
      owned: [['PUT', `/ticketEvaluations/${seeded.evaluation}`, { value: 0, evaluation: 'x' }]],
    },
    'DELETE /api/ticketEvaluations/:id': { owned: [['DELETE', `/ticketEvaluations/${seeded.evaluation}`]] },
    'GET /api/ticketEvaluations/:ticketId/logs': { owned: [['GET', `/ticketEvaluations/${seeded.ticket}/logs`]] },
    'PUT /api/tenantsRatingData/:id': {
      owned: [['PUT', `/tenantsRatingData/${seeded.tenant}`, { ratingStore: 'roubado', ratingAttempts: 1 }]],
    },
  }),
};
