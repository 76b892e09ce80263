import { useId, useState, type KeyboardEvent, type RefObject } from 'react';
import { Badge, Group, Paper, Pill, Text, UnstyledButton } from '@mantine/core';
import { IconFile, IconMicrophone } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { QuickMessageDto, TicketDto } from '@conversa/shared';
import { ApiError, describeError } from '../../../../lib/api';
import { notifyError } from '../../../../lib/notify';
import { fillVariables } from '../../../../lib/quick-message-variables';
import { useQuickMessages } from '../../../../lib/quick-messages';
import { useStoredSession } from '../../../../lib/storage';
import { useSendQuickMessage } from '../../api/send-quick-message';
import { filterQuickReplies, quickTrigger, unmatchedShortcut } from '../../hooks/quick-replies';
import classes from './chat.module.css';

interface QuickReplyPickerOptions {
  ticket: TicketDto | undefined;
  /** Off while a message is being edited. */
  enabled: boolean;
  text: string;
  setText: (text: string) => void;
  textarea: RefObject<HTMLTextAreaElement | null>;
}

const newIdFront = () => `quick-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * The `/` quick message picker of the chat input, after the WAI-ARIA combobox pattern (as the mention picker): the
 * box holding `/word` opens a listbox of the matching quick messages; arrows move, Enter or Tab pick, Escape closes,
 * the pointer picks too. Picking fills the box with the message, its variables filled. A quick message with a file
 * is attached, as Chatwoot attaches files to the reply box: a chip shows the file above the box, the text stays
 * editable as its caption, and Send posts `quickMessageId` (the server sends the stored file, a voice note as ptt).
 */
export function useQuickReplyPicker({ ticket, enabled, text, setText, textarea }: QuickReplyPickerOptions) {
  const { t } = useTranslation();
  const listboxId = useId();
  const session = useStoredSession();
  const quickMessages = useQuickMessages(enabled);
  const sendQuick = useSendQuickMessage(ticket?.id ?? 0);
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const [attached, setAttached] = useState<QuickMessageDto | null>(null);
  const query = enabled ? quickTrigger(text) : null;
  const open = query !== null && text !== dismissedFor;
  const options = open ? filterQuickReplies(quickMessages.data ?? [], query) : [];
  // A new query highlights its first match again (state adjusted while rendering, not in an effect).
  const [shownQuery, setShownQuery] = useState<string | null>(null);
  if (query !== shownQuery) {
    setShownQuery(query);
    setActive(0);
  }
  const activeIndex = Math.min(active, Math.max(0, options.length - 1));
  const optionId = (index: number) => `${listboxId}-option-${index}`;

  const choose = (quick: QuickMessageDto) => {
    const filled = fillVariables(quick.message, {
      contactName: ticket?.contact.name,
      protocol: ticket?.protocol,
      ticketId: ticket?.id,
      userName: session?.username,
      greetings: {
        morning: t('quickMessages.greeting.morning'),
        afternoon: t('quickMessages.greeting.afternoon'),
        evening: t('quickMessages.greeting.evening'),
      },
    });
    setAttached(quick.media ? quick : null);
    setText(filled);
    setDismissedFor(null);
    requestAnimationFrame(() => {
      textarea.current?.focus();
      textarea.current?.setSelectionRange(filled.length, filled.length);
    });
  };

  /** Handles the key when the picker is open; true when it did (the input must not act on it too). */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    if (event.key === 'Escape') {
      setDismissedFor(text);
      return true;
    }
    if (options.length === 0) return false;
    if (event.key === 'ArrowDown') setActive((activeIndex + 1) % options.length);
    else if (event.key === 'ArrowUp') setActive((activeIndex - 1 + options.length) % options.length);
    else if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
      const picked = options[activeIndex];
      if (picked) choose(picked);
    } else return false;
    return true;
  };

  /**
   * Called by the input before a send: a lone `/word` naming a quick message is picked instead of sent (true), one
   * naming none is refused with the spec's error (true). False lets the send go on.
   */
  const interceptSend = (body: string): boolean => {
    if (!enabled || quickTrigger(body.trim()) === null || body.trim() === '/') return false;
    // Still loading: wait rather than call an existing shortcut unknown.
    if (quickMessages.isPending) return true;
    const unknown = unmatchedShortcut(body, quickMessages.data ?? []);
    if (unknown !== null) {
      notifyError(t('quickMessages.noMatch', { key: `/${unknown}` }));
      return true;
    }
    const key = body.trim().slice(1).toLowerCase();
    const match = (quickMessages.data ?? []).find((quick) => quick.isActive && quick.key.toLowerCase() === key);
    if (match) choose(match);
    return true;
  };

  /** Sends the attached quick message's file with the box's text as caption; the box is cleared by the caller. */
  const sendAttached = (body: string) => {
    if (!attached || !ticket) return;
    sendQuick.mutate(
      { quickMessageId: attached.id, body, idFront: newIdFront() },
      {
        onError: (error) => {
          if (!(error instanceof ApiError && error.notified)) notifyError(describeError(error));
        },
      },
    );
    setAttached(null);
  };

  const textareaProps = open
    ? {
        'aria-autocomplete': 'list' as const,
        'aria-controls': listboxId,
        'aria-activedescendant': options.length > 0 ? optionId(activeIndex) : undefined,
      }
    : {};

  const list = open ? (
    <QuickReplyList
      listboxId={listboxId}
      optionId={optionId}
      options={options}
      activeIndex={activeIndex}
      loading={quickMessages.isPending}
      onChoose={choose}
      onHover={setActive}
    />
  ) : null;

  const attachment = attached ? (
    <Pill.Group aria-label={t('quickMessages.attached')}>
      <Pill
        withRemoveButton
        onRemove={() => setAttached(null)}
        removeButtonProps={{ 'aria-label': t('quickMessages.removeAttached', { key: `/${attached.key}` }) }}
        data-testid="chat-quick-attachment"
      >
        {attached.voice === 'enabled'
          ? t('quickMessages.kind.voice')
          : t('quickMessages.fileOf', { key: `/${attached.key}` })}
      </Pill>
    </Pill.Group>
  ) : null;

  return { open, onKeyDown, interceptSend, sendAttached, attached, textareaProps, list, attachment };
}

interface QuickReplyListProps {
  listboxId: string;
  optionId: (index: number) => string;
  options: QuickMessageDto[];
  activeIndex: number;
  loading: boolean;
  onChoose: (quick: QuickMessageDto) => void;
  onHover: (index: number) => void;
}

export function QuickReplyList({
  listboxId,
  optionId,
  options,
  activeIndex,
  loading,
  onChoose,
  onHover,
}: QuickReplyListProps) {
  const { t } = useTranslation();
  const status = loading
    ? t('common.loading')
    : options.length === 0
      ? t('quickMessages.none')
      : t('quickMessages.count', { count: options.length });
  return (
    <Paper withBorder shadow="sm" radius="sm" p={4} data-testid="chat-quick-picker">
      <Text
        role="status"
        size="sm"
        c="dimmed"
        px="xs"
        py={4}
        className={options.length > 0 ? 'visually-hidden' : undefined}
      >
        {status}
      </Text>
      <div
        role="listbox"
        id={listboxId}
        aria-label={t('quickMessages.pickerLabel')}
        className={classes.mentionList}
        hidden={options.length === 0}
      >
        {options.map((quick, index) => (
          <UnstyledButton
            component="div"
            key={quick.id}
            id={optionId(index)}
            role="option"
            aria-selected={index === activeIndex}
            tabIndex={-1}
            className={classes.mentionOption}
            data-active={index === activeIndex || undefined}
            // The text box keeps the focus: the pointer picks without blurring it.
            onMouseDown={(event) => event.preventDefault()}
            onMouseEnter={() => onHover(index)}
            onClick={() => onChoose(quick)}
            data-testid={`chat-quick-option-${quick.key}`}
          >
            <Group gap="xs" wrap="nowrap">
              <Text size="sm" fw={600} ff="monospace" span>
                /{quick.key}
              </Text>
              {quick.media ? (
                <Badge
                  size="xs"
                  variant="light"
                  leftSection={
                    quick.voice === 'enabled' ? (
                      <IconMicrophone size={10} aria-hidden />
                    ) : (
                      <IconFile size={10} aria-hidden />
                    )
                  }
                >
                  {quick.voice === 'enabled' ? t('quickMessages.kind.voice') : t('quickMessages.withFile')}
                </Badge>
              ) : null}
              <Text size="xs" c="dimmed" span truncate>
                {quick.message}
              </Text>
            </Group>
          </UnstyledButton>
        ))}
      </div>
    </Paper>
  );
}
