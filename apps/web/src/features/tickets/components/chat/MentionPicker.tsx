import { useId, useState, type KeyboardEvent, type RefObject, type SyntheticEvent } from 'react';
import { Loader, Paper, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../../lib/api';
import { useGroupParticipants, type GroupParticipant } from '../../api/list-participants';
import { filterParticipants, insertMention, mentionTriggerAt, type MentionTrigger } from '../../hooks/chat-mentions';
import classes from './chat.module.css';

const MAX_SHOWN = 50;

interface MentionPickerOptions {
  ticketId: number;
  /** A group ticket on a live WhatsApp channel: anything else has no mentions. */
  enabled: boolean;
  text: string;
  setText: (text: string) => void;
  textarea: RefObject<HTMLTextAreaElement | null>;
}

/**
 * The `@` participant picker of a group chat's input, after the WAI-ARIA combobox pattern: the list is a listbox, the
 * text box keeps the focus and names the highlighted option with aria-activedescendant (aria-autocomplete=list,
 * aria-controls); arrows move, Enter or Tab choose, Escape closes. The textarea keeps its own textbox role: HTML
 * allows no other role on a textarea, and aria-expanded is not allowed on a textbox (axe aria-allowed-attr).
 */
export function useMentionPicker({ ticketId, enabled, text, setText, textarea }: MentionPickerOptions) {
  const listboxId = useId();
  const [caret, setCaret] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const trigger = enabled ? mentionTriggerAt(text, Math.min(caret, text.length)) : null;
  const open = trigger !== null && trigger.start !== dismissedAt;
  const [everOpened, setEverOpened] = useState(false);
  if (open && !everOpened) setEverOpened(true);
  const participants = useGroupParticipants(ticketId, enabled && everOpened);
  const options = open ? filterParticipants(participants.data ?? [], trigger.query).slice(0, MAX_SHOWN) : [];
  // A new query highlights its first match again (state adjusted while rendering, not in an effect).
  const [shownQuery, setShownQuery] = useState<string | null>(null);
  const query = open ? trigger.query : null;
  if (query !== shownQuery) {
    setShownQuery(query);
    setActive(0);
  }
  const activeIndex = Math.min(active, Math.max(0, options.length - 1));
  const optionId = (index: number) => `${listboxId}-option-${index}`;

  const track = (element: HTMLTextAreaElement) => {
    setCaret(element.selectionStart);
    const next = mentionTriggerAt(element.value, element.selectionStart);
    if (!next || next.start !== dismissedAt) setDismissedAt(null);
  };

  const choose = (participant: GroupParticipant, at: MentionTrigger) => {
    const next = insertMention(text, at, participant.number, caret);
    setText(next.text);
    setCaret(next.caret);
    requestAnimationFrame(() => {
      textarea.current?.focus();
      textarea.current?.setSelectionRange(next.caret, next.caret);
    });
  };

  /** Handles the key when the picker is open; true when it did (the input must not act on it too). */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    if (event.key === 'Escape') {
      setDismissedAt(trigger.start);
      return true;
    }
    // Enter while the list is still loading would send the half-typed `@name`: wait for it instead.
    if (options.length === 0) return event.key === 'Enter' && participants.isPending;
    if (event.key === 'ArrowDown') setActive((activeIndex + 1) % options.length);
    else if (event.key === 'ArrowUp') setActive((activeIndex - 1 + options.length) % options.length);
    else if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
      const picked = options[activeIndex];
      if (picked) choose(picked, trigger);
    } else return false;
    return true;
  };

  const textareaProps = enabled
    ? {
        'aria-autocomplete': 'list' as const,
        'aria-controls': open ? listboxId : undefined,
        'aria-activedescendant': open && options.length > 0 ? optionId(activeIndex) : undefined,
        onSelect: (event: SyntheticEvent<HTMLTextAreaElement>) => track(event.currentTarget),
      }
    : {};

  const list = open ? (
    <MentionList
      listboxId={listboxId}
      optionId={optionId}
      options={options}
      activeIndex={activeIndex}
      loading={participants.isPending}
      error={participants.isError ? describeError(participants.error) : null}
      onChoose={(participant) => choose(participant, trigger)}
      onHover={setActive}
    />
  ) : null;

  return { open, track, onKeyDown, textareaProps, list, participants: participants.data ?? [] };
}

interface MentionListProps {
  listboxId: string;
  optionId: (index: number) => string;
  options: GroupParticipant[];
  activeIndex: number;
  loading: boolean;
  error: string | null;
  onChoose: (participant: GroupParticipant) => void;
  onHover: (index: number) => void;
}

function MentionList({
  listboxId,
  optionId,
  options,
  activeIndex,
  loading,
  error,
  onChoose,
  onHover,
}: MentionListProps) {
  const { t } = useTranslation();
  const status = loading
    ? t('chat.mentions.loading')
    : error
      ? t('chat.mentions.error', { error })
      : options.length === 0
        ? t('chat.mentions.none')
        : t('chat.mentions.count', { count: options.length });
  return (
    <Paper withBorder shadow="sm" radius="sm" p={4} data-testid="chat-mention-picker">
      {/* Announced as the list changes; the sighted see the same text only when there is nothing to pick. */}
      <Text
        role="status"
        size="sm"
        c={error ? 'red' : 'dimmed'}
        px="xs"
        py={4}
        className={options.length > 0 ? 'visually-hidden' : undefined}
      >
        {loading ? <Loader size="xs" mr="xs" aria-hidden /> : null}
        {status}
      </Text>
      <div
        role="listbox"
        id={listboxId}
        aria-label={t('chat.mentions.label')}
        className={classes.mentionList}
        hidden={options.length === 0}
      >
        {options.map((participant, index) => (
          <UnstyledButton
            component="div"
            key={participant.number}
            id={optionId(index)}
            role="option"
            aria-selected={index === activeIndex}
            tabIndex={-1}
            className={classes.mentionOption}
            data-active={index === activeIndex || undefined}
            // The text box keeps the focus: the pointer picks without blurring it.
            onMouseDown={(event) => event.preventDefault()}
            onMouseEnter={() => onHover(index)}
            onClick={() => onChoose(participant)}
            data-testid={`chat-mention-option-${participant.number}`}
          >
            <Text size="sm" fw={500} span>
              {participant.name ?? participant.number}
            </Text>
            {participant.name ? (
              <Text size="xs" c="dimmed" span ml="xs" dir="ltr">
                +{participant.number}
              </Text>
            ) : null}
          </UnstyledButton>
        ))}
      </div>
    </Paper>
  );
}
