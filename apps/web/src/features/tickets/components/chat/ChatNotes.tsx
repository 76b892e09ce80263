/**
 * The chat's notes: a provider (ChatPanel) that owns the note modal and the delete confirmation, the note item the
 * history renders (MessageList), and the header's "Note" and "Send protocol" actions.
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { Button, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconFileCertificate, IconNotes } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TicketDto } from '@conversa/shared';
import { notifySuccess } from '../../../../lib/notify';
import { useStoredSession } from '../../../../lib/storage';
import { useDeleteNote, useSendProtocol, useTicketNotesLive } from '../../api/notes';
import { noteIdOf } from '../../hooks/chat-notes';
import { useTransferUsers } from '../../hooks/chat-ticket';
import type { ChatMessage } from '../../hooks/messages-cache';
import type { MentionUser } from '../../hooks/note-mentions';
import { NoteBubble } from './NoteBubble';
import { NoteModal } from './NoteModal';

interface ChatNotesValue {
  users: MentionUser[];
  canChange: (message: ChatMessage) => boolean;
  openComposer: (message?: ChatMessage) => void;
  confirmDelete: (message: ChatMessage) => void;
}

const ChatNotesContext = createContext<ChatNotesValue | null>(null);

export function ChatNotesProvider({ ticket, children }: { ticket: TicketDto; children: ReactNode }) {
  const { t } = useTranslation();
  const session = useStoredSession();
  const isAdmin = session?.profile === 'admin' || session?.profile === 'superadmin';
  const canListUsers = isAdmin || session?.profile === 'super';
  const [composer, setComposer] = useState<{ editing: { id: number; text: string } | null } | null>(null);
  const team = useTransferUsers(composer !== null, canListUsers);
  const remove = useDeleteNote(ticket.id);
  useTicketNotesLive();

  const confirmDelete = useCallback(
    (message: ChatMessage) =>
      modals.openConfirmModal({
        title: t('notes.deleteTitle'),
        children: <Text size="sm">{t('notes.deleteConfirm')}</Text>,
        labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
        confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, unknown>,
        cancelProps: { 'data-testid': 'confirm-cancel' } as Record<string, unknown>,
        onConfirm: () =>
          remove.mutate(noteIdOf(message), {
            onSuccess: () => notifySuccess(t('notes.deleted')),
          }),
      }),
    [remove, t],
  );

  const value = useMemo<ChatNotesValue>(
    () => ({
      users: team.users,
      canChange: (message) => isAdmin || (message.user !== null && message.user.id === session?.userId),
      openComposer: (message) =>
        setComposer({ editing: message ? { id: noteIdOf(message), text: message.body } : null }),
      confirmDelete,
    }),
    [team.users, isAdmin, session?.userId, confirmDelete],
  );

  return (
    <ChatNotesContext.Provider value={value}>
      {children}
      {composer ? (
        <NoteModal
          ticketId={ticket.id}
          editing={composer.editing}
          users={team.users}
          usersLoading={team.isLoading}
          onClose={() => setComposer(null)}
        />
      ) : null}
    </ChatNotesContext.Provider>
  );
}

/** A note among the messages (rendered by MessageList for `mediaType 'notes'` items). */
export function ChatNoteItem({ message }: { message: ChatMessage }) {
  const notes = useContext(ChatNotesContext);
  return (
    <NoteBubble
      message={message}
      canChange={notes?.canChange(message) ?? false}
      users={notes?.users ?? []}
      onEdit={(m) => notes?.openComposer(m)}
      onDelete={(m) => notes?.confirmDelete(m)}
    />
  );
}

/** The header's actions: write a note; send the ticket's protocol to the customer (after a confirmation). */
export function ChatNoteActions({ ticket }: { ticket: TicketDto }) {
  const { t } = useTranslation();
  const notes = useContext(ChatNotesContext);
  const send = useSendProtocol(ticket.id);
  const confirmProtocol = () =>
    modals.openConfirmModal({
      title: t('protocols.sendTitle'),
      children: <Text size="sm">{t('protocols.sendConfirm', { protocol: ticket.protocol })}</Text>,
      labels: { confirm: t('protocols.send'), cancel: t('common.cancel') },
      confirmProps: { 'data-testid': 'confirm-protocol' } as Record<string, unknown>,
      onConfirm: () =>
        send.mutate(undefined, {
          onSuccess: () => notifySuccess(t('protocols.sent', { protocol: ticket.protocol })),
        }),
    });
  return (
    <>
      {notes ? (
        <Button
          size="xs"
          variant="subtle"
          leftSection={<IconNotes size={14} aria-hidden />}
          onClick={() => notes.openComposer()}
          data-testid="chat-action-note"
        >
          {t('notes.add')}
        </Button>
      ) : null}
      {ticket.status !== 'closed' ? (
        <Button
          size="xs"
          variant="subtle"
          leftSection={<IconFileCertificate size={14} aria-hidden />}
          onClick={confirmProtocol}
          loading={send.isPending}
          data-testid="chat-action-protocol"
        >
          {t('protocols.send')}
        </Button>
      ) : null}
    </>
  );
}
