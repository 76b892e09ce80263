/**
 * The 24-hour customer-service window on the send path. WhatsApp Cloud API (`waba`) refuses a free-form message
 * (anything but a template) once 24 hours have passed since the customer's last message, so such a send is refused
 * here (409 ERR_WINDOW_CLOSED, nothing stored) instead of becoming an undelivered bubble. The tenant flag
 * `forceOpenChatWindow` (client-contract §10) lets it through: it is tried, and Meta's refusal (error 131047) marks
 * it undelivered with the reason. Messenger and Instagram are never refused: their send job passes `windowOpen` and
 * the adapter sends with the HUMAN_AGENT tag.
 */
import type { Tx } from '../../platform/db/client.js';
import type { TenantContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import { readTenantFlagsOf } from '../tenants/index.js';
import { customerWindowOf, type TicketRow } from '../tickets/index.js';

/** Channel types whose free-form sends are refused outside the window. */
const REFUSED_WHEN_CLOSED: readonly string[] = ['waba'];

export async function forceOpenChatWindow(tx: Tx, tenantId: number): Promise<boolean> {
  return (await readTenantFlagsOf(tx, tenantId)).forceOpenChatWindow === 'enabled';
}

/** Throws ERR_WINDOW_CLOSED for a free-form send on a waba ticket whose window is closed (flag off). */
export async function assertWindowAllows(tx: Tx, ctx: TenantContext, ticket: TicketRow): Promise<void> {
  if (!REFUSED_WHEN_CLOSED.includes(ticket.channel)) return;
  const window = await customerWindowOf(tx, ticket);
  if (!window || window.open) return;
  if (await forceOpenChatWindow(tx, ctx.tenantId)) return;
  throw fail('ERR_WINDOW_CLOSED');
}
