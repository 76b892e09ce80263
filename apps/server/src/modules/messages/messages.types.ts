/** The message row shapes, apart from the repository so messages.dto.ts (which the repository uses) can name them. */
import type { messages } from './messages.tables.js';

export type MessageRow = typeof messages.$inferSelect;
export type MessageInsert = typeof messages.$inferInsert;
export type MessagePatch = Partial<Omit<MessageInsert, 'id' | 'tenantId' | 'search'>>;
