import { forwardRef, useCallback, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { Badge, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { IconArrowDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { QueryError } from '../../../../components/QueryError';
import { notifyInfo } from '../../../../lib/notify';
import { dayLabel, sameDay, dateTimeOf } from '../../hooks/chat-format';
import { isNoteItem } from '../../hooks/chat-notes';
import type { ChatMessage } from '../../hooks/messages-cache';
import classes from './chat.module.css';
import { MessageBubble, type BubbleHandlers } from './MessageBubble';
import { ChatNoteItem } from './ChatNotes';

/** Virtuoso's index of the first item; it goes down as older pages are prepended, keeping the scroll position. */
const START_INDEX = 1_000_000;
const HIGHLIGHT_MS = 1600;

export interface MessageListHandle {
  scrollToBottom: () => void;
  scrollToMessage: (id: number) => void;
}

interface MessageListProps {
  items: ChatMessage[];
  olderCount: number;
  offlineIds: Set<number>;
  isGroup: boolean;
  isLoading: boolean;
  error: unknown;
  onRetryLoad: () => void;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  selectMode: boolean;
  selectedIds: Set<number>;
  handlers: Omit<BubbleHandlers, 'onQuoteClick'>;
  /** A message to open at (a text search's match): older pages load until it is there, then it is highlighted. */
  focusMessageId?: number | null;
}

/** Older pages loaded at most while looking for the message to open at. */
const FOCUS_PAGES_MAX = 20;
const FOCUS_HIGHLIGHT_MS = 4000;

function DaySeparator({ createdAt }: { createdAt: string }) {
  const { t } = useTranslation();
  const label = dayLabel(createdAt);
  const text =
    label.kind === 'today' ? t('chat.day.today') : label.kind === 'yesterday' ? t('chat.day.yesterday') : label.date;
  return (
    <div className={classes.separator}>
      <Badge variant="light" color="gray" tt="none" radius="sm">
        {text}
      </Badge>
    </div>
  );
}

function TicketSeparator({ message }: { message: ChatMessage }) {
  const { t } = useTranslation();
  return (
    <div className={classes.separator} data-testid={`chat-ticket-separator-${message.ticket.id}`}>
      <Badge variant="outline" color="blue" tt="none" radius="sm">
        {t('chat.ticketSeparator', { id: message.ticket.id, date: dateTimeOf(message.ticket.createdAt) })}
      </Badge>
    </div>
  );
}

/**
 * The history (react-virtuoso): starts at the bottom, loads older pages at the top without moving what is on screen
 * (`firstItemIndex`), follows new messages while at the bottom and otherwise offers a jump button.
 */
export const MessageList = forwardRef<MessageListHandle, MessageListProps>(function MessageList(props, ref) {
  const { t } = useTranslation();
  const { items, olderCount, hasOlder, loadingOlder, onLoadOlder } = props;
  const virtuoso = useRef<VirtuosoHandle>(null);
  const [atBottom, setAtBottom] = useState(true);
  const [unseen, setUnseen] = useState(0);
  const [highlighted, setHighlighted] = useState<number | null>(null);
  // Virtuoso measures its viewport before it draws the first rows: until then the history stays behind a loader (it
  // showed an empty "Início da conversa" for a second or two).
  const [painted, setPainted] = useState(false);
  const lastKey = useRef<string | number | undefined>(undefined);
  const last = items.at(-1);
  const lastItemKey = last ? (last.idFront ?? last.id) : undefined;
  const lastIsLocal = last?.localState !== undefined;

  useEffect(() => {
    if (lastKey.current !== undefined && lastItemKey !== lastKey.current && !atBottom && !lastIsLocal) {
      setUnseen((n) => n + 1);
    }
    lastKey.current = lastItemKey;
  }, [lastItemKey, atBottom, lastIsLocal]);

  // Opening at a message (`seek` until found): a search's match stays highlighted longer than a quote's target.
  const focusPhase = useRef<'seek' | 'shown' | 'done'>('seek');
  useEffect(() => {
    if (highlighted === null) return;
    const timer = setTimeout(
      () => setHighlighted(null),
      focusPhase.current === 'shown' ? FOCUS_HIGHLIGHT_MS : HIGHLIGHT_MS,
    );
    return () => clearTimeout(timer);
  }, [highlighted]);

  // Opening at a message: load older pages until it is loaded, then scroll to it, highlight it and move focus there
  // (a screen reader reads it); a message never found says so once.
  const focusTarget = props.focusMessageId ?? null;
  const pagesLoaded = useRef(0);
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focusTarget === null || focusPhase.current !== 'seek' || props.isLoading || loadingOlder) return;
    const index = items.findIndex((m) => m.id === focusTarget);
    if (index >= 0) {
      focusPhase.current = 'shown';
      virtuoso.current?.scrollToIndex({ index, align: 'center' });
      let tries = 0;
      const focus = () => {
        const bubble = container.current?.querySelector<HTMLElement>(`[data-testid="message-${focusTarget}"]`);
        if (bubble) {
          setHighlighted(focusTarget);
          bubble.tabIndex = -1;
          bubble.focus({ preventScroll: true });
        } else if ((tries += 1) < 20) requestAnimationFrame(focus);
      };
      requestAnimationFrame(focus);
      return;
    }
    if (hasOlder && pagesLoaded.current < FOCUS_PAGES_MAX) {
      pagesLoaded.current += 1;
      onLoadOlder();
      return;
    }
    focusPhase.current = 'done';
    notifyInfo(t('chat.searchMatchNotLoaded'));
  }, [focusTarget, items, hasOlder, loadingOlder, onLoadOlder, props.isLoading, t]);

  const scrollToBottom = useCallback(() => {
    virtuoso.current?.scrollToIndex({ index: 'LAST', align: 'end', behavior: 'smooth' });
    setUnseen(0);
  }, []);

  const scrollToMessage = useCallback(
    (id: number) => {
      const index = items.findIndex((m) => m.id === id);
      if (index < 0) {
        notifyInfo(t('chat.quote.notLoaded'));
        return;
      }
      virtuoso.current?.scrollToIndex({ index, align: 'center', behavior: 'smooth' });
      setHighlighted(id);
    },
    [items, t],
  );

  useImperativeHandle(ref, () => ({ scrollToBottom, scrollToMessage }), [scrollToBottom, scrollToMessage]);

  if (props.isLoading) {
    return (
      <Center className={classes.history} role="status" aria-label={t('common.loading')}>
        <Loader />
      </Center>
    );
  }
  if (props.error) {
    return (
      <Center className={classes.history} p="md">
        <QueryError error={props.error} onRetry={props.onRetryLoad} />
      </Center>
    );
  }

  const firstItemIndex = START_INDEX - olderCount;
  const handlers: BubbleHandlers = { ...props.handlers, onQuoteClick: scrollToMessage };
  const drawing = items.length > 0 && !painted;

  return (
    <div
      ref={container}
      className={classes.history}
      role="log"
      aria-live="polite"
      aria-relevant="additions"
      aria-label={t('chat.history')}
      data-testid="chat-history"
    >
      {items.length === 0 ? (
        <Center h="100%">
          <Text c="dimmed" size="sm">
            {t('chat.empty')}
          </Text>
        </Center>
      ) : (
        <Virtuoso
          ref={virtuoso}
          style={{ height: '100%' }}
          data={items}
          firstItemIndex={firstItemIndex}
          initialTopMostItemIndex={{ index: items.length - 1, align: 'end' }}
          computeItemKey={(_index, message) => message.idFront ?? message.id}
          startReached={() => {
            if (hasOlder && !loadingOlder) onLoadOlder();
          }}
          followOutput={(isAtBottom) => (isAtBottom || lastIsLocal ? 'smooth' : false)}
          atBottomStateChange={(bottom) => {
            setAtBottom(bottom);
            if (bottom) setUnseen(0);
          }}
          increaseViewportBy={{ top: 400, bottom: 200 }}
          itemsRendered={(rendered) => {
            if (rendered.length > 0 && !painted) setPainted(true);
          }}
          components={{
            Header: () =>
              drawing ? null : loadingOlder ? (
                <Center py="xs" role="status" aria-label={t('chat.loadingOlder')}>
                  <Loader size="sm" />
                </Center>
              ) : !hasOlder ? (
                <Center py="xs">
                  <Text size="xs" c="dimmed">
                    {t('chat.historyStart')}
                  </Text>
                </Center>
              ) : (
                <div style={{ height: 8 }} />
              ),
            Footer: () => <div style={{ height: 8 }} />,
          }}
          itemContent={(index, message) => {
            const previous = items[index - firstItemIndex - 1];
            return (
              <Stack gap={0}>
                {previous && previous.ticket.id !== message.ticket.id ? <TicketSeparator message={message} /> : null}
                {!previous || !sameDay(previous.createdAt, message.createdAt) ? (
                  <DaySeparator createdAt={message.createdAt} />
                ) : null}
                {isNoteItem(message) ? (
                  <ChatNoteItem message={message} />
                ) : (
                  <MessageBubble
                    message={message}
                    isGroup={props.isGroup}
                    selectMode={props.selectMode}
                    selected={props.selectedIds.has(message.id)}
                    highlighted={highlighted === message.id}
                    offline={props.offlineIds.has(message.id)}
                    handlers={handlers}
                  />
                )}
              </Stack>
            );
          }}
        />
      )}
      {drawing ? (
        <Center
          className={classes.historyCover}
          role="status"
          aria-label={t('common.loading')}
          data-testid="chat-drawing"
        >
          <Loader />
        </Center>
      ) : null}
      {!atBottom && items.length > 0 && !drawing ? (
        <Button
          className={classes.jump}
          size="xs"
          radius="xl"
          variant={unseen > 0 ? 'filled' : 'default'}
          leftSection={<IconArrowDown size={14} aria-hidden />}
          onClick={scrollToBottom}
          data-testid="chat-jump-bottom"
        >
          {unseen > 0 ? t('chat.newMessages', { count: unseen }) : t('chat.toBottom')}
        </Button>
      ) : null}
    </div>
  );
});
