/**
 * The ticket panel (`/painel-atendimentos`, admin only; client-contract §4.3 `GET /dash-tickets-queues`): the tickets
 * of a period as a bare array of list rows, bounded to the newest TICKET_PANEL_LIMIT.
 */
import { z } from 'zod';
import { looseBoolean } from './schemas.js';
import { TICKET_STATUSES, type TicketStatus } from './tickets.js';

export const TICKET_PANEL_LIMIT = 2000;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}/, 'YYYY-MM-DD')
  .transform((value) => value.slice(0, 10));
const ids = z.preprocess(
  (v) => (v === undefined || v === '' ? [] : Array.isArray(v) ? v : String(v).split(',')),
  z.array(z.coerce.number().int().positive()).max(500),
);

/**
 * `showAll` (the panel is the admin's: every ticket is shown anyway), the period as dates in the tenant's time zone
 * (`dateStart` and `dateEnd` inclusive; ISO date-times are cut to their date), optional queues and statuses.
 */
export const ticketPanelQuerySchema = z
  .object({
    showAll: looseBoolean.optional(),
    dateStart: day,
    dateEnd: day,
    queuesIds: ids,
    status: z
      .preprocess(
        (v) => (v === undefined || v === '' ? undefined : Array.isArray(v) ? v : String(v).split(',')),
        z.array(z.enum(TICKET_STATUSES)).min(1).max(3).optional(),
      )
      .transform((v) => v ?? ([...TICKET_STATUSES] as TicketStatus[])),
  })
  .refine((q) => q.dateStart <= q.dateEnd, { message: 'dateStart after dateEnd', path: ['dateEnd'] });
export type TicketPanelQuery = z.output<typeof ticketPanelQuerySchema>;
export type TicketPanelQueryInput = z.input<typeof ticketPanelQuerySchema>;
