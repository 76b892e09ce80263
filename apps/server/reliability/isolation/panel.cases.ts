/**
 * Isolation cases of task G: the tenant toggles (`PUT /tenants<Name>/{id}`, client-contract §10), which name their
 * tenant, so another tenant's admin is refused (403, as for `/tenantsEvolutionHost/{id}`), and the ticket panel's
 * list (`GET /dash-tickets-queues`).
 */
import { TENANT_FLAG_PATHS, TENANT_LIMIT_DEFAULTS } from '@conversa/shared';
import type { IsolationCase, IsolationFeature } from '../support/isolation-cases.js';

const today = new Date().toISOString().slice(0, 10);

export const feature: IsolationFeature = {
  async seed() {
    // The suite's tenant-1 ticket and contact (named with MARK) are what the panel must not leak.
  },
  cases: () => {
    const toggles: Record<string, IsolationCase> = {};
    for (const [path, field] of Object.entries(TENANT_FLAG_PATHS)) {
      const value = field in TENANT_LIMIT_DEFAULTS ? 99 : 'enabled';
      toggles[`PUT /api${path}/:id`] = { refused: [['PUT', `${path}/1`, { id: 1, [field]: value }]] };
    }
    return {
      ...toggles,
      'GET /api/dash-tickets-queues': {
        list: [
          ['GET', `/dash-tickets-queues?showAll=true&dateStart=2000-01-01&dateEnd=${today}`],
          ['GET', `/dash-tickets-queues?dateStart=2000-01-01&dateEnd=2100-01-01&status[]=open&status[]=pending`],
        ],
      },
    };
  },
};
