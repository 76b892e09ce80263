/** The ticket row shapes, apart from the repository so tickets.dto.ts (which the repository uses) can name them. */
import type { tickets } from './tickets.tables.js';

export type TicketRow = typeof tickets.$inferSelect;
export type TicketPatch = Partial<Omit<typeof tickets.$inferInsert, 'id' | 'tenantId' | 'createdAt'>>;
export type NewTicket = Omit<typeof tickets.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
