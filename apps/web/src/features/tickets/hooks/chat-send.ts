/**
 * Sending from the chat: each text or file first shows as a pending bubble keyed by its idFront (client-contract
 * §5.2), then the server's copy replaces it (its answer, or chat:create). Failed sends can be retried or discarded.
 */
import { useCallback, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { MessageDto, MessageMediaType, TicketDto } from '@conversa/shared';
import { ApiError } from '../../../lib/api';
import { updateMessages, useSendFile, useSendText } from '../api/messages';
import { addOptimistic, removeOptimistic, setOptimisticState, type ChatMessage } from './messages-cache';

let localSeq = 0;

const mediaTypeOf = (file: File): MessageMediaType => {
  const type = file.type.toLowerCase();
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  return 'application';
};

interface Draft {
  ticket: TicketDto;
  me: { id: number; name: string } | null;
  idFront: string;
  body: string;
  file?: File;
  quoted?: MessageDto | null;
}

export function optimisticMessage({ ticket, me, idFront, body, file, quoted }: Draft): ChatMessage {
  const now = new Date().toISOString();
  localSeq += 1;
  return {
    id: -localSeq,
    messageId: null,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    body,
    mediaType: file ? mediaTypeOf(file) : 'chat',
    mediaUrl: null,
    mediaName: file?.name ?? null,
    mediaMime: file?.type ?? null,
    mediaSize: file?.size ?? null,
    mediaStatus: file ? 'pending' : 'none',
    fromMe: true,
    read: true,
    ack: 0,
    status: 'pending',
    sendType: null,
    isDelayed: false,
    sendError: null,
    isDeleted: false,
    deletedAt: null,
    edition: null,
    editedAt: null,
    reaction: null,
    reactionFromMe: null,
    isSticker: false,
    meta: null,
    quotedMsg: quoted
      ? {
          id: quoted.id,
          messageId: quoted.messageId,
          body: quoted.edition ?? quoted.body,
          mediaType: quoted.mediaType,
          mediaUrl: quoted.mediaUrl,
          mediaName: quoted.mediaName,
          fromMe: quoted.fromMe,
          isDeleted: quoted.isDeleted,
          contact: quoted.contact ? { name: quoted.contact.name } : null,
        }
      : null,
    contact: null,
    user: me,
    ticket: {
      id: ticket.id,
      status: ticket.status,
      userId: ticket.userId,
      unreadMessages: 0,
      answered: true,
      createdAt: ticket.createdAt,
    },
    scheduleDate: null,
    timestamp: Date.now(),
    createdAt: now,
    updatedAt: now,
    idFront,
    localState: 'sending',
  };
}

/**
 * `onRefused`: the server refused a send for a reason the chat shows in place (409 ERR_WINDOW_CLOSED of a WhatsApp
 * Cloud API ticket outside its 24-hour window); the bubble still turns failed and the catalogue toast still shows.
 */
export function useChatSend(
  ticket: TicketDto | undefined,
  me: { id: number; name: string } | null,
  onRefused?: (code: string) => void,
) {
  const queryClient = useQueryClient();
  const ticketId = ticket?.id ?? 0;
  const sendText = useSendText(ticketId);
  const sendFile = useSendFile(ticketId);
  /** Files of failed sends, kept so "retry" can upload them again. */
  const files = useRef(new Map<string, File>());
  const refused = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.code === 'ERR_WINDOW_CLOSED') onRefused?.(error.code);
    },
    [onRefused],
  );

  const text = useCallback(
    (body: string, quoted: MessageDto | null) => {
      if (!ticket) return;
      const idFront = crypto.randomUUID();
      updateMessages(queryClient, ticket.id, (data) =>
        addOptimistic(data, optimisticMessage({ ticket, me, idFront, body, quoted })),
      );
      sendText.mutate({ body, quotedMsgId: quoted?.id ?? null, idFront }, { onError: refused });
    },
    [queryClient, ticket, me, sendText, refused],
  );

  const file = useCallback(
    (upload: File) => {
      if (!ticket) return;
      const idFront = crypto.randomUUID();
      files.current.set(idFront, upload);
      updateMessages(queryClient, ticket.id, (data) =>
        addOptimistic(data, optimisticMessage({ ticket, me, idFront, body: upload.name, file: upload })),
      );
      sendFile.mutate({ file: upload, idFront }, { onSuccess: () => files.current.delete(idFront), onError: refused });
    },
    [queryClient, ticket, me, sendFile, refused],
  );

  const canRetry = useCallback(
    (message: ChatMessage) => !!message.idFront && (message.mediaType === 'chat' || files.current.has(message.idFront)),
    [],
  );

  const retry = useCallback(
    (message: ChatMessage) => {
      const idFront = message.idFront;
      if (!ticket || !idFront) return;
      updateMessages(queryClient, ticket.id, (data) => setOptimisticState(data, idFront, 'sending'));
      const upload = files.current.get(idFront);
      if (upload) {
        sendFile.mutate(
          { file: upload, idFront },
          { onSuccess: () => files.current.delete(idFront), onError: refused },
        );
      } else {
        sendText.mutate(
          { body: message.body, quotedMsgId: message.quotedMsg?.id ?? null, idFront },
          { onError: refused },
        );
      }
    },
    [queryClient, ticket, sendFile, sendText, refused],
  );

  const discard = useCallback(
    (message: ChatMessage) => {
      const idFront = message.idFront;
      if (!ticket || !idFront) return;
      files.current.delete(idFront);
      updateMessages(queryClient, ticket.id, (data) => removeOptimistic(data, idFront));
    },
    [queryClient, ticket],
  );

  return { text, file, retry, discard, canRetry };
}
