/**
 * Isolation cases of the Meta channels' routes (issue 15): the Facebook page connection names a channel by id, so
 * tenant 1's channel is not found for tenant 2 (before Graph is called); Meta's webhooks are public and authenticated
 * by the app secret's signature (verification GETs by the verify token), tested in their own suites.
 */
import type { IsolationFeature } from '../support/isolation-cases.js';

const SIGNED = 'Meta webhook: the X-Hub-Signature-256 of the app secret is the credential (401 without it)';
const VERIFY = 'Meta verification GET: answers only the challenge, for the verify token, and reads nothing';

export const feature: IsolationFeature = {
  async seed() {
    // The suite's tenant-1 channel is what these routes must not reach.
  },
  cases: ({ ids }) => ({
    'POST /api/fb/register-pages': {
      owned: [['POST', '/fb/register-pages', { whatsapp: { id: ids.channel }, accountId: '1', userToken: 'x' }]],
    },
    'POST /api/fb/logout-pages': { owned: [['POST', '/fb/logout-pages', { whatsapp: ids.channel }]] },
    'GET /api/webhooks/meta': { exempt: `${VERIFY} (META_VERIFY_TOKEN); waba.webhooks.test.ts` },
    'POST /api/webhooks/meta': {
      exempt: `${SIGNED}, routed by phone number, page or Instagram id; waba.webhooks.test.ts, meta-messaging.flow.test.ts`,
    },
    ...Object.fromEntries(
      (['waba', 'messenger', 'instagram'] as const).map((type) => [
        `GET /api/webhooks/${type}/:channelId`,
        { exempt: `${VERIFY} of the channel's own URL; waba.webhooks.test.ts` },
      ]),
    ),
  }),
};
