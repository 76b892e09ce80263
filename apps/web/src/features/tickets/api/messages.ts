/**
 * Message calls (client-contract §5.1/§5.2): the history pages, sending text and files, edit, delete, react and
 * forward. Every change lands in the cached history through the helpers of hooks/messages-cache.ts.
 */
import { useInfiniteQuery, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { messageDtoSchema, messageListResponseSchema, type MessageDto, type SendMessageInput } from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import {
  patchMessage,
  setOptimisticState,
  upsertMessage,
  type MessagesData,
  type MessagesPage,
} from '../hooks/messages-cache';

/** GET /messages/{ticketId}?pageNumber=n: page 1 is the newest; older pages while `hasMore`. */
export const useMessages = (ticketId: number, enabled = true) =>
  useInfiniteQuery({
    queryKey: queryKeys.messages(ticketId),
    enabled,
    queryFn: async ({ pageParam, signal }): Promise<MessagesPage> =>
      messageListResponseSchema.parse(
        await api.get(`/messages/${ticketId}`, {
          query: { ticketId, pageNumber: pageParam },
          signal,
          background: true,
        }),
      ),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });

export function updateMessages(
  queryClient: QueryClient,
  ticketId: number,
  update: (data: MessagesData) => MessagesData,
): void {
  queryClient.setQueryData<MessagesData>(queryKeys.messages(ticketId), (data) => (data ? update(data) : data));
}

/** The server may answer a send with the stored message or with a bare status: use the message when it is one. */
const readMessage = (body: unknown): MessageDto | null => {
  const parsed = messageDtoSchema.safeParse(body);
  return parsed.success ? parsed.data : null;
};

export interface SendTextVariables {
  body: string;
  quotedMsgId: number | null;
  idFront: string;
}

/** POST /messages/{ticketId} with the JSON message of §5.2. */
export async function postText(ticketId: number, { body, quotedMsgId, idFront }: SendTextVariables) {
  const input: SendMessageInput = { body, fromMe: true, read: 1, quotedMsg: quotedMsgId, idFront };
  return readMessage(await api.post(`/messages/${ticketId}`, input));
}

export interface SendFileVariables {
  file: File;
  idFront: string;
}

/** POST /messages/{ticketId} multipart, one file per request: medias, body = file name, fromMe, idFront, isSticker. */
export async function postFile(ticketId: number, { file, idFront }: SendFileVariables) {
  const form = new FormData();
  form.append('medias', file, file.name);
  form.append('body', file.name);
  form.append('fromMe', 'true');
  form.append('idFront', idFront);
  form.append('isSticker', 'false');
  return readMessage(await api.post(`/messages/${ticketId}`, form, { timeoutMs: 120_000 }));
}

/** Settles the optimistic bubble of a send: the server's copy replaces it, or it waits for chat:create as 'sent'. */
function settleSend(queryClient: QueryClient, ticketId: number, idFront: string, message: MessageDto | null) {
  updateMessages(queryClient, ticketId, (data) =>
    message ? upsertMessage(data, message, idFront) : setOptimisticState(data, idFront, 'sent'),
  );
}

export function useSendText(ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: SendTextVariables) => postText(ticketId, variables),
    onSuccess: (message, { idFront }) => settleSend(queryClient, ticketId, idFront, message),
    onError: (_error, { idFront }) =>
      updateMessages(queryClient, ticketId, (data) => setOptimisticState(data, idFront, 'failed')),
  });
}

export function useSendFile(ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: SendFileVariables) => postFile(ticketId, variables),
    onSuccess: (message, { idFront }) => settleSend(queryClient, ticketId, idFront, message),
    onError: (_error, { idFront }) =>
      updateMessages(queryClient, ticketId, (data) => setOptimisticState(data, idFront, 'failed')),
  });
}

/** POST /messages/editMessage { messageId, ticketId, body (old), newBody }. */
export function useEditMessage(ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ message, newBody }: { message: MessageDto; newBody: string }) =>
      readMessage(
        await api.post('/messages/editMessage', {
          messageId: message.id,
          ticketId,
          body: message.edition ?? message.body,
          newBody,
        }),
      ),
    onSuccess: (answer, { message, newBody }) =>
      updateMessages(queryClient, ticketId, (data) =>
        answer
          ? upsertMessage(data, answer)
          : patchMessage(data, message.id, { edition: newBody, editedAt: new Date().toISOString() }),
      ),
  });
}

/** DELETE /messages { id, messageId }; the bubble then shows as deleted. ERR_DELETE_WAPP_MSG arrives as a toast. */
export function useDeleteMessage(ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (message: MessageDto) =>
      api.delete<unknown>('/messages', { body: { id: message.id, messageId: message.messageId } }),
    onSuccess: (_answer, message) => {
      const now = new Date().toISOString();
      updateMessages(queryClient, ticketId, (data) =>
        patchMessage(data, message.id, { isDeleted: true, deletedAt: now, updatedAt: now }),
      );
    },
  });
}

/** POST /messages/reactionMessage { messageId, ticketId, reaction }; an empty reaction removes it. */
export function useReactMessage(ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ message, reaction }: { message: MessageDto; reaction: string }) =>
      api.post<unknown>('/messages/reactionMessage', { messageId: message.id, ticketId, reaction }),
    onSuccess: (_answer, { message, reaction }) =>
      updateMessages(queryClient, ticketId, (data) =>
        patchMessage(data, message.id, { reactionFromMe: reaction || null }),
      ),
  });
}

/** POST /forward-messages/ { messages: [ids ≤ 10], contact: id }. */
export function useForwardMessages() {
  return useMutation({
    mutationFn: ({ messageIds, contactId }: { messageIds: number[]; contactId: number }) =>
      api.post<unknown>('/forward-messages/', { messages: messageIds, contact: contactId }),
  });
}
