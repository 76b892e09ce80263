/**
 * POST /messages/syncOldByUser (client-contract §5.1, admins): fetch the last `limit` messages of one chat from the
 * WhatsApp session. The import runs in the background; its progress arrives as `{T}:importMessages` toasts.
 */
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';

export interface SyncHistoryVariables {
  whatsappId: number;
  limit: number;
  /** `<number>@c.us` for a person, `<number>@g.us` for a group. */
  contactId: string;
}

export const useSyncHistory = () =>
  useMutation({
    mutationFn: async (variables: SyncHistoryVariables) =>
      z.object({ requested: z.number() }).parse(await api.post('/messages/syncOldByUser', variables)),
    meta: { handlesErrors: true },
  });

/** The chat id WhatsApp knows the contact by; null when the number cannot be one. */
export function whatsappChatId(number: string | null, isGroup: boolean): string | null {
  if (!number) return null;
  const bare = number.replace(/@.*$/, '').trim();
  if (isGroup) return /^[\d-]{5,40}$/.test(bare) ? `${bare}@g.us` : null;
  return /^\d{5,20}$/.test(bare) ? `${bare}@c.us` : null;
}
