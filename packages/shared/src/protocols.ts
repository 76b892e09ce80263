/** Protocols sent to customers (product-spec §3 "Protocol", client-contract §15 `/ticketProtocols`). */
import { z } from 'zod';

export const PROTOCOLS_PAGE_SIZE = 30;

export const ticketProtocolDtoSchema = z.object({
  id: z.number(),
  protocol: z.string(),
  ticketId: z.number(),
  userId: z.number().nullable(),
  createdAt: z.string(),
  user: z.object({ name: z.string() }).nullable(),
  ticket: z.object({ id: z.number(), contact: z.object({ name: z.string(), number: z.string().nullable() }) }),
});
export type TicketProtocolDto = z.infer<typeof ticketProtocolDtoSchema>;

/** `date` is a day (yyyy-MM-dd) in the tenant's time zone; an empty or malformed one means "any day". */
export const ticketProtocolListQuerySchema = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  rowsPerPage: z.coerce.number().int().min(1).max(100).catch(PROTOCOLS_PAGE_SIZE).default(PROTOCOLS_PAGE_SIZE),
  searchParam: z.string().trim().max(200).optional(),
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)))
    .optional()
    .catch(undefined),
});
export type TicketProtocolListQuery = z.input<typeof ticketProtocolListQuerySchema>;

export const ticketProtocolPageSchema = z.object({
  ticketProtocols: z.array(ticketProtocolDtoSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type TicketProtocolPage = z.infer<typeof ticketProtocolPageSchema>;

export const ticketProtocolListSchema = z.array(ticketProtocolDtoSchema);

/** POST /ticketProtocols/: clients also send `userId` and `tenantId`, which are ignored (the caller is the user). */
export const ticketProtocolInputSchema = z.object({
  protocol: z.coerce.string().trim().min(1).max(64),
  ticketId: z.coerce.number().int().positive(),
});
export type TicketProtocolInput = z.input<typeof ticketProtocolInputSchema>;

export const ticketProtocolUpdateSchema = z.object({
  protocol: z.coerce.string().trim().min(1).max(64),
  ticketId: z.unknown().optional(),
});

/** POST /ticketProtocols/send: sends the ticket's protocol to the customer and records it, in one step. */
export const sendTicketProtocolInputSchema = z.object({ ticketId: z.coerce.number().int().positive() });

/** The text the customer receives (pt-BR, the product's default language). */
export const protocolMessageText = (protocol: string) => `Protocolo de atendimento: ${protocol}`;
