import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Button, Group, Modal, Paper, Text, Textarea, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NOTE_MAX_LENGTH } from '@conversa/shared';
import { notifySuccess } from '../../../../lib/notify';
import { useSaveNote } from '../../api/notes';
import { mentionTriggerAt, type MentionTrigger } from '../../hooks/chat-mentions';
import { filterMentionUsers, insertUserMention, type MentionUser } from '../../hooks/note-mentions';
import classes from './notes.module.css';

const MAX_SHOWN = 30;

interface NoteModalProps {
  ticketId: number;
  /** The note being edited (its id and text), or none for a new note. */
  editing: { id: number; text: string } | null;
  users: MentionUser[];
  usersLoading: boolean;
  onClose: () => void;
}

/**
 * Writes or edits an internal note. Typing `@` opens the tenant's users (the WAI-ARIA combobox pattern of the chat's
 * group mentions: the text box keeps the focus and names the highlighted option; arrows move, Enter or Tab choose,
 * Escape closes the list). A chosen user is written `@<name>`; the server notifies everyone mentioned.
 */
export function NoteModal({ ticketId, editing, users, usersLoading, onClose }: NoteModalProps) {
  const { t } = useTranslation();
  const save = useSaveNote(ticketId);
  const listboxId = useId();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState(editing?.text ?? '');
  const [caret, setCaret] = useState(text.length);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [error, setError] = useState<string | null>(null);

  const trigger = mentionTriggerAt(text, Math.min(caret, text.length));
  const open = trigger !== null && trigger.start !== dismissedAt;
  const options = open ? filterMentionUsers(users, trigger.query).slice(0, MAX_SHOWN) : [];
  const activeIndex = Math.min(active, Math.max(0, options.length - 1));
  const optionId = (index: number) => `${listboxId}-option-${index}`;

  const update = (value: string, at: number) => {
    setText(value);
    setCaret(at);
    setActive(0);
    if (error && value.trim()) setError(null);
    const next = mentionTriggerAt(value, at);
    if (!next || next.start !== dismissedAt) setDismissedAt(null);
  };

  const choose = (user: MentionUser, at: MentionTrigger) => {
    const next = insertUserMention(text, at, user.name, caret);
    update(next.text, next.caret);
    requestAnimationFrame(() => {
      textarea.current?.focus();
      textarea.current?.setSelectionRange(next.caret, next.caret);
    });
  };

  const submit = () => {
    const notes = text.trim();
    if (!notes) {
      setError(t('validation.required', { attribute: t('notes.text') }));
      return;
    }
    save.mutate(
      { ...(editing ? { id: editing.id } : {}), notes },
      {
        onSuccess: () => {
          notifySuccess(editing ? t('notes.updated') : t('notes.created'));
          onClose();
        },
      },
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open && event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setDismissedAt(trigger.start);
      return;
    }
    if (open && options.length > 0) {
      if (event.key === 'ArrowDown') setActive((activeIndex + 1) % options.length);
      else if (event.key === 'ArrowUp') setActive((activeIndex - 1 + options.length) % options.length);
      else if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab')
        choose(options[activeIndex]!, trigger);
      else return;
      event.preventDefault();
      return;
    }
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <Modal opened onClose={onClose} title={editing ? t('notes.editTitle') : t('notes.addTitle')} size="lg">
      <Textarea
        ref={textarea}
        label={t('notes.text')}
        description={t('notes.mentionHelp')}
        placeholder={t('notes.placeholder')}
        autosize
        minRows={4}
        maxRows={12}
        maxLength={NOTE_MAX_LENGTH}
        value={text}
        error={error}
        data-autofocus
        onChange={(event) => update(event.currentTarget.value, event.currentTarget.selectionStart)}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        aria-autocomplete="list"
        aria-controls={open ? listboxId : undefined}
        aria-activedescendant={open && options.length > 0 ? optionId(activeIndex) : undefined}
        data-testid="note-text"
      />
      {open ? (
        <Paper withBorder shadow="sm" radius="sm" p={4} mt={4} data-testid="note-mention-picker">
          <Text
            role="status"
            size="sm"
            c="dimmed"
            px="xs"
            py={4}
            className={options.length ? 'visually-hidden' : undefined}
          >
            {usersLoading
              ? t('common.loading')
              : options.length
                ? t('notes.mentionCount', { count: options.length })
                : t('notes.mentionNone')}
          </Text>
          <div
            role="listbox"
            id={listboxId}
            aria-label={t('notes.mentionLabel')}
            className={classes.options}
            hidden={options.length === 0}
          >
            {options.map((user, index) => (
              <UnstyledButton
                component="div"
                key={user.id}
                id={optionId(index)}
                role="option"
                aria-selected={index === activeIndex}
                tabIndex={-1}
                className={classes.option}
                data-active={index === activeIndex || undefined}
                onMouseDown={(event) => event.preventDefault()}
                onMouseEnter={() => setActive(index)}
                onClick={() => choose(user, trigger)}
                data-testid={`note-mention-option-${user.id}`}
              >
                <Text size="sm" span>
                  {user.name}
                </Text>
              </UnstyledButton>
            ))}
          </div>
        </Paper>
      ) : null}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button onClick={submit} loading={save.isPending} data-testid="note-save">
          {t('common.save')}
        </Button>
      </Group>
    </Modal>
  );
}
