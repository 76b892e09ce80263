import { useCallback, useMemo, useRef, useState, type DragEvent } from 'react';
import { Alert, Button, Center, Group, Loader, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArrowForwardUp, IconLock, IconUpload } from '@tabler/icons-react';
import { FORWARD_MAX_MESSAGES, type MessageDto } from '@conversa/shared';
import { useTranslation } from 'react-i18next';
import { QueryError } from '../../../../components/QueryError';
import { describeError, ApiError } from '../../../../lib/api';
import { isLiveChannelType } from '../../../../lib/live-channels';
import { notifyError, notifyWarning } from '../../../../lib/notify';
import { useStoredSession } from '../../../../lib/storage';
import { useDeleteMessage, useEditMessage, useMessages, useReactMessage } from '../../api/messages';
import { useTicketNotes } from '../../api/notes';
import { mergeNotes } from '../../hooks/chat-notes';
import { isAcceptedFile } from '../../hooks/chat-format';
import { useMarkRead } from '../../hooks/chat-mark-read';
import { useChatSend } from '../../hooks/chat-send';
import { useChangeTicket, useChatTicket } from '../../hooks/chat-ticket';
import { refusedAsPending, spyBlocked, useSpyticketSetting } from '../../hooks/spy-ticket';
import { customerWroteAt, useCustomerWindow } from '../../hooks/customer-window';
import { useForceOpenChatWindow } from '../../api/force-open-window';
import { flattenHistory, type ChatMessage } from '../../hooks/messages-cache';
import classes from './chat.module.css';
import { ChatHeader, ticketChanges } from './ChatHeader';
import { ChatInput, type PendingFile } from './ChatInput';
import { ChatScheduleBar } from './schedule/ChatScheduleBar';
import { ContactDrawer } from './ContactDrawer';
import { CustomerWindowIndicator } from './CustomerWindowIndicator';
import { TemplatePickerModal } from './TemplatePickerModal';
import { TemplateTool, WindowClosedNotice, WindowRefusedAlert } from './WindowNotices';
import { ForwardModal } from './ForwardModal';
import { MessageList, type MessageListHandle } from './MessageList';
import { ChatNotesProvider } from './ChatNotes';
import { QuoteAuthorContext, type QuoteAuthorSource } from './quote-author';

let fileSeq = 0;

/** The chat of `/atendimento/:ticketId`: header with the ticket actions, the history and the input. */
/** `focusMessageId`: a message to open the history at (a text search's match), highlighted. */
export function ChatPanel({ ticketId, focusMessageId = null }: { ticketId: number; focusMessageId?: number | null }) {
  const { t } = useTranslation();
  const session = useStoredSession();
  const meId = session?.userId ?? 0;
  const me = useMemo(() => (session ? { id: session.userId, name: session.username } : null), [session]);
  const canListUsers =
    session?.profile === 'super' || session?.profile === 'admin' || session?.profile === 'superadmin';

  const ticketQuery = useChatTicket(ticketId);
  const ticket = ticketQuery.data;
  // spyticket off: a pending ticket not accepted shows an accept prompt, its messages not asked for (hooks/spy-ticket).
  const spyticket = useSpyticketSetting();
  const pendingNotMine = ticket?.status === 'pending' && ticket.userId !== meId;
  const withheld = spyBlocked(ticket, meId, session?.profile, spyticket);
  const spyUnknown = pendingNotMine && session?.profile === 'user' && spyticket === undefined;
  // An agent asks for the messages once the ticket says whether they may be read.
  const mayAsk = session?.profile !== 'user' || (ticket !== undefined && !withheld && !spyUnknown);
  const history = useMessages(ticketId, mayAsk);
  const { items, olderCount } = useMemo(() => flattenHistory(history.data), [history.data]);
  // Internal notes among the messages, at their time (hooks/chat-notes.ts).
  const notes = useTicketNotes(ticketId);
  const withNotes = useMemo(
    () => (ticket ? mergeNotes(items, olderCount, notes.data, ticket, history.hasNextPage) : { items, olderCount }),
    [items, olderCount, notes.data, ticket, history.hasNextPage],
  );
  const offlineIds = useMemo(
    () => new Set(history.data?.pages.flatMap((page) => page.messagesOffLine.map((m) => m.id)) ?? []),
    [history.data],
  );
  const lastIncoming = history.data ? (items.findLast((m) => !m.fromMe && m.id > 0) ?? null) : undefined;
  const lastIncomingId = lastIncoming === undefined ? undefined : (lastIncoming?.id ?? null);
  useMarkRead(ticketId, ticket?.unreadMessages, lastIncomingId);

  // Official channels: the 24-hour window (reopens when the customer writes: a new received bubble, or the ticket's
  // lastMessageReceived from realtime), and for waba the composer that only a template may pass while it is closed.
  const lastIncomingAt = lastIncoming ? customerWroteAt(lastIncoming) : null;
  const customerWindow = useCustomerWindow(ticket, lastIncomingAt);
  const isWaba = ticket?.whatsapp?.type === 'waba';
  const forceOpen = useForceOpenChatWindow(isWaba);
  const [templatesOpen, setTemplatesOpen] = useState(false);
  // A 409 ERR_WINDOW_CLOSED, shown until the customer writes again (the newest received message changes).
  const [refusedAt, setRefusedAt] = useState<string | null | undefined>(undefined);
  const onRefused = useCallback(() => setRefusedAt(lastIncomingAt), [lastIncomingAt]);

  const send = useChatSend(ticket, me, onRefused);
  const edit = useEditMessage(ticketId);
  const remove = useDeleteMessage(ticketId);
  const react = useReactMessage(ticketId);
  const accept = useChangeTicket(ticketId);
  const list = useRef<MessageListHandle>(null);

  const [replyTo, setReplyTo] = useState<MessageDto | null>(null);
  const [editing, setEditing] = useState<MessageDto | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [selectMode, setSelectMode] = useState(false);
  const [forwardOpen, setForwardOpen] = useState(false);
  const [contactOpen, setContactOpen] = useState(false);
  const [files, setFiles] = useState<PendingFile[]>([]);
  const [dragging, setDragging] = useState(false);

  const addFiles = useCallback(
    (incoming: File[]) => {
      const accepted = incoming.filter(isAcceptedFile);
      if (accepted.length < incoming.length) notifyWarning(t('chat.input.fileRejected'));
      if (accepted.length)
        setFiles((current) => [...current, ...accepted.map((file) => ({ key: `f${(fileSeq += 1)}`, file }))]);
    },
    [t],
  );

  const toggleSelect = useCallback(
    (message: MessageDto) =>
      setSelected((current) => {
        if (current.includes(message.id)) return current.filter((id) => id !== message.id);
        if (current.length >= FORWARD_MAX_MESSAGES) {
          notifyWarning(t('chat.forward.limit', { max: FORWARD_MAX_MESSAGES }));
          return current;
        }
        return [...current, message.id];
      }),
    [t],
  );

  const confirmDelete = useCallback(
    (message: MessageDto) =>
      modals.openConfirmModal({
        title: t('chat.delete.title'),
        children: <Text size="sm">{t('chat.delete.confirm')}</Text>,
        labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
        confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, unknown>,
        cancelProps: { 'data-testid': 'confirm-cancel' } as Record<string, unknown>,
        onConfirm: () =>
          remove.mutate(message, {
            onError: (error) => {
              if (!(error instanceof ApiError && error.notified)) notifyError(describeError(error));
            },
          }),
      }),
    [remove, t],
  );

  const handlers = useMemo(
    () => ({
      onReply: (message: MessageDto) => {
        setEditing(null);
        setReplyTo(message);
      },
      onForward: (message: MessageDto) => {
        setSelectMode(true);
        setSelected([message.id]);
      },
      onReact: (message: MessageDto, reaction: string) => react.mutate({ message, reaction }),
      onEdit: (message: MessageDto) => {
        setReplyTo(null);
        setEditing(message);
      },
      onDelete: confirmDelete,
      onToggleSelect: toggleSelect,
      onRetry: (message: ChatMessage) => send.retry(message),
      onDiscard: (message: ChatMessage) => send.discard(message),
      canRetry: (message: ChatMessage) => send.canRetry(message),
    }),
    [react, confirmDelete, toggleSelect, send],
  );

  // Who wrote a quote: the private chat's contact, or the agent of a loaded message of ours (quote-author.ts).
  const quoteContact = ticket && !(ticket.isGroup || ticket.contact.isGroup) ? ticket.contact.name : null;
  const quoteSource = useMemo<QuoteAuthorSource>(() => {
    const agents = new Map(items.map((message) => [message.id, message.user]));
    return { contactName: quoteContact, meId, agentOf: (id) => agents.get(id) };
  }, [items, quoteContact, meId]);

  if (ticketQuery.isLoading) {
    return (
      <Center h="100%" role="status" aria-label={t('common.loading')} data-testid="chat-panel">
        <Loader />
      </Center>
    );
  }
  if (!ticket) {
    return (
      <Center h="100%" p="md" data-testid="chat-panel">
        <QueryError error={ticketQuery.error} onRetry={() => void ticketQuery.refetch()} />
      </Center>
    );
  }

  const liveSession = isLiveChannelType(ticket.whatsapp?.type);
  const windowBlocked = isWaba && customerWindow !== null && !customerWindow.open && !forceOpen;
  const showRefused = isWaba && refusedAt !== undefined && refusedAt === lastIncomingAt;
  const openTemplates = () => setTemplatesOpen(true);
  const isGroup = ticket.isGroup || ticket.contact.isGroup;
  const blockedReason =
    ticket.status === 'closed' ? 'closed' : ticket.status === 'pending' && ticket.userId !== meId ? 'pending' : null;
  const spyPrompt = withheld || refusedAsPending(history.error, ticket);

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (blockedReason || editing) return;
    addFiles(Array.from(event.dataTransfer.files));
  };

  const sendText = (body: string) => {
    send.text(body, replyTo);
    setReplyTo(null);
    list.current?.scrollToBottom();
  };
  const sendFiles = () => {
    for (const { file } of files) send.file(file);
    setFiles([]);
    list.current?.scrollToBottom();
  };

  const exitSelect = () => {
    setSelectMode(false);
    setSelected([]);
  };

  const panel = (
    <ChatNotesProvider ticket={ticket}>
      <div
        className={classes.panel}
        data-testid="chat-panel"
        onDragOver={(event) => {
          if (!event.dataTransfer.types.includes('Files') || blockedReason) return;
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
      >
        <ChatHeader
          ticket={ticket}
          meId={meId}
          canListUsers={canListUsers}
          liveSessionTools={liveSession && (session?.profile === 'admin' || session?.profile === 'superadmin')}
          onOpenContact={() => setContactOpen(true)}
        />
        {customerWindow ? <CustomerWindowIndicator window={customerWindow} /> : null}
        {spyPrompt ? (
          <Center flex={1} p="md" data-testid="chat-spy-prompt">
            <Alert color="yellow" icon={<IconLock size={16} aria-hidden />} title={t('chat.spy.title')} maw={420}>
              <Text size="sm" mb="sm">
                {t('chat.spy.body')}
              </Text>
              <Button
                size="sm"
                onClick={() => accept.mutate(ticketChanges.accept(meId))}
                loading={accept.isPending}
                data-testid="chat-spy-accept"
              >
                {t('chat.header.accept')}
              </Button>
            </Alert>
          </Center>
        ) : (
          <MessageList
            ref={list}
            items={withNotes.items}
            olderCount={withNotes.olderCount}
            offlineIds={offlineIds}
            isGroup={ticket.isGroup}
            isLoading={history.isLoading}
            error={history.error}
            onRetryLoad={() => void history.refetch()}
            hasOlder={history.hasNextPage}
            loadingOlder={history.isFetchingNextPage}
            onLoadOlder={() => void history.fetchNextPage()}
            selectMode={selectMode}
            selectedIds={new Set(selected)}
            handlers={handlers}
            focusMessageId={focusMessageId}
          />
        )}
        <ChatScheduleBar ticket={ticket} />
        {selectMode ? (
          <Group justify="space-between" p="xs" data-testid="chat-forward-bar">
            <Text size="sm" aria-live="polite">
              {t('chat.forward.selected', { count: selected.length, max: FORWARD_MAX_MESSAGES })}
            </Text>
            <Group gap="xs">
              <Button variant="default" onClick={exitSelect}>
                {t('common.cancel')}
              </Button>
              <Button
                leftSection={<IconArrowForwardUp size={16} aria-hidden />}
                disabled={selected.length === 0}
                onClick={() => setForwardOpen(true)}
                data-testid="chat-forward-open"
              >
                {t('chat.actions.forward')}
              </Button>
            </Group>
          </Group>
        ) : spyPrompt ? null : blockedReason ? (
          <Alert
            m="xs"
            color={blockedReason === 'closed' ? 'gray' : 'yellow'}
            icon={<IconLock size={16} aria-hidden />}
            data-testid="chat-input-blocked"
          >
            <Group justify="space-between" gap="xs">
              <Text size="sm">{blockedReason === 'closed' ? t('chat.input.closed') : t('chat.input.pending')}</Text>
              {blockedReason === 'pending' ? (
                <Button size="xs" onClick={() => accept.mutate(ticketChanges.accept(meId))} loading={accept.isPending}>
                  {t('chat.header.accept')}
                </Button>
              ) : null}
            </Group>
          </Alert>
        ) : windowBlocked ? (
          <WindowClosedNotice onOpenTemplates={openTemplates} />
        ) : (
          <>
            {showRefused ? (
              <WindowRefusedAlert onOpenTemplates={openTemplates} onClose={() => setRefusedAt(undefined)} />
            ) : null}
            <ChatInput
              replyTo={replyTo}
              onCancelReply={() => setReplyTo(null)}
              editing={editing}
              onCancelEdit={() => setEditing(null)}
              files={files}
              onAddFiles={addFiles}
              onRemoveFile={(key) => setFiles((current) => current.filter((f) => f.key !== key))}
              onSendText={sendText}
              onSendFiles={sendFiles}
              onSendAudio={(file) => send.file(file)}
              onEdit={(message, newBody) => edit.mutate({ message, newBody })}
              groupTicketId={liveSession && isGroup ? ticket.id : null}
              ticket={ticket}
              tools={isWaba ? <TemplateTool onOpen={openTemplates} /> : null}
            />
          </>
        )}
        {isWaba && ticket.whatsappId && templatesOpen ? (
          <TemplatePickerModal
            ticketId={ticket.id}
            channelId={ticket.whatsappId}
            opened
            onClose={() => setTemplatesOpen(false)}
          />
        ) : null}
        {dragging ? (
          <div className={classes.dropOverlay} aria-hidden>
            <Group gap="xs">
              <IconUpload size={24} />
              <Text fw={600}>{t('chat.input.drop')}</Text>
            </Group>
          </div>
        ) : null}
        {forwardOpen ? (
          <ForwardModal
            messageIds={selected}
            opened
            onClose={() => setForwardOpen(false)}
            onDone={() => {
              setForwardOpen(false);
              exitSelect();
            }}
          />
        ) : null}
        <ContactDrawer
          contact={ticket.contact}
          ticketId={ticketId}
          opened={contactOpen}
          onClose={() => setContactOpen(false)}
        />
      </div>
    </ChatNotesProvider>
  );
  return <QuoteAuthorContext.Provider value={quoteSource}>{panel}</QuoteAuthorContext.Provider>;
}
