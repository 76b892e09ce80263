/**
 * POST /messages/syncOld { whatsappId, limit } (client-contract §5.1, admins): fetch the last `limit` messages of a
 * connected WhatsApp channel's chats. The import runs in the background; `{T}:importMessages` shows its progress.
 */
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';

export const useImportOldMessages = () =>
  useMutation({
    mutationFn: async (variables: { whatsappId: number; limit: number }) =>
      z.object({ requested: z.number() }).parse(await api.post('/messages/syncOld', variables)),
    meta: { handlesErrors: true },
  });
