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
}

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

  useEffect(() => {
    if (highlighted === null) return;
    const timer = setTimeout(() => setHighlighted(null), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlighted]);

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

  return (
    <div
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
          components={{
            Header: () =>
              loadingOlder ? (
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
      {!atBottom && items.length > 0 ? (
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
