/**
 * Mention sends of a group ticket (client-contract §5.1): POST /messages/mentionMessage (the chosen participants),
 * /mentionAllMessage (everyone, visibly) and /ghostMessage (everyone, silently). The answer is the stored message;
 * `chat:create` puts it in the chat, so nothing is added here.
 */
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export type MentionSend =
  | { mode: 'list'; body: string; participants: string[] }
  | { mode: 'all'; body: string }
  | { mode: 'ghost'; body: string };

const PATH = { list: '/messages/mentionMessage', all: '/messages/mentionAllMessage', ghost: '/messages/ghostMessage' };

export const useSendMention = (ticketId: number) =>
  useMutation({
    mutationFn: (send: MentionSend) =>
      api.post<unknown>(
        PATH[send.mode],
        send.mode === 'list'
          ? { body: send.body, ticket: ticketId, participants: send.participants }
          : { body: send.body, ticket: ticketId },
      ),
    meta: { handlesErrors: true },
  });
