/**
 * A quick message with a file sent into the ticket (POST /messages/{ticketId} with `quickMessageId`): the server
 * sends the stored file as media (a voice note as ptt) with the caption typed in the box; `chat:create` puts the
 * message in the chat, so nothing is added here.
 */
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export interface QuickMessageSend {
  quickMessageId: number;
  body: string;
  idFront: string;
}

export const useSendQuickMessage = (ticketId: number) =>
  useMutation({
    mutationFn: (send: QuickMessageSend) => api.post<unknown>(`/messages/${ticketId}`, send),
    meta: { handlesErrors: true },
  });
