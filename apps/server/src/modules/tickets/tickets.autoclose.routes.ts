/**
 * `GET /settings/auto-close-preview?minutes=10` (admin): what the auto-close settings about to be saved would do, so
 * the settings screen can say it and ask before saving (issue 23). Counted with the job's own predicate
 * (tickets.autoclose.ts `inactiveTicketWhere`): `closeNow` is what the job would close at its next run with the new
 * threshold (0 when auto-close is off now: saving switches it on, and inactivity never counts from before that);
 * `awaitingCustomer` the tickets whose newest message is ours, which it closes once the threshold has passed, if the
 * customer does not write. Lives in the tickets module: the settings module cannot import tickets.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { AUTO_CLOSE_TIMES } from '@conversa/shared';
import { queryRows, type Database } from '../../platform/db/client.js';
import { withTenant } from '../../platform/db/tenancy.js';
import { requireProfile } from '../../platform/http/auth.js';
import { autoCloseSinceSql, settingEnabledSql } from '../settings/index.js';
import { countAutoClosable } from './tickets.autoclose.js';

export const autoClosePreviewQuerySchema = z.object({ minutes: z.enum(AUTO_CLOSE_TIMES) });
export const autoClosePreviewSchema = z.object({
  minutes: z.number(),
  /** Whether auto-close is on now (off: saving switches it on, and idle time counts from that moment). */
  enabled: z.boolean(),
  closeNow: z.number(),
  awaitingCustomer: z.number(),
});

export function autoClosePreviewRoutes(deps: { db: Database }): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/settings/auto-close-preview',
      {
        schema: {
          tags: ['settings'],
          querystring: autoClosePreviewQuerySchema,
          response: { 200: autoClosePreviewSchema },
        },
      },
      async (request) => {
        const ctx = requireProfile(request, 'admin');
        const minutes = Number(request.query.minutes);
        return withTenant(deps.db, ctx, async (tx) => {
          const on = settingEnabledSql(ctx.tenantId, 'autoClose');
          const since = sql`(case when ${on} then ${autoCloseSinceSql(ctx.tenantId)} else now() end)`;
          const counts = await countAutoClosable(tx, ctx.tenantId, minutes, since);
          const [row] = await queryRows<{ enabled: boolean }>(tx, sql`select ${on} as enabled`);
          return { minutes, enabled: row?.enabled === true, ...counts };
        });
      },
    );
  };
}
