import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent, type ReactNode } from 'react';
import { ActionIcon, Group, Pill, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import {
  IconMicrophone,
  IconPaperclip,
  IconPencil,
  IconPlayerStopFilled,
  IconSend,
  IconTrash,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { MessageDto, TicketDto } from '@conversa/shared';
import { ApiError, describeError } from '../../../../lib/api';
import { notifyError, notifyWarning } from '../../../../lib/notify';
import { useSendMention, type MentionSend } from '../../api/send-mention';
import { mentionedNumbers } from '../../hooks/chat-mentions';
import { formatFileSize, messageText } from '../../hooks/chat-format';
import { formatElapsed, useAudioRecorder } from '../../hooks/chat-recorder';
import { ContextBanner } from './ContextBanner';
import { EmojiPicker } from './EmojiPicker';
import { GroupMentionMenu } from './GroupMentionMenu';
import { useMentionPicker } from './MentionPicker';
import { useQuickReplyPicker } from './QuickReplyPicker';
import { ChatSignatureSwitch } from './schedule/ChatSignatureSwitch';

export interface PendingFile {
  key: string;
  file: File;
}

interface ChatInputProps {
  replyTo: MessageDto | null;
  onCancelReply: () => void;
  editing: MessageDto | null;
  onCancelEdit: () => void;
  files: PendingFile[];
  onAddFiles: (files: File[]) => void;
  onRemoveFile: (key: string) => void;
  onSendText: (text: string) => void;
  onSendFiles: () => void;
  onSendAudio: (file: File) => void;
  onEdit: (message: MessageDto, newBody: string) => void;
  /** A group ticket on a live WhatsApp channel: `@` mentions and the mention menu. */
  groupTicketId?: number | null;
  /** The ticket: the `/` quick messages fill their variables from it and send their files into it. */
  ticket?: TicketDto | undefined;
  /** Channel-specific tools next to "attach" (the template picker of WhatsApp Cloud API tickets). */
  tools?: ReactNode;
}

/** The message input: text (Enter sends, Shift+Enter breaks the line), emoji, files, voice notes, reply and edit. */
export function ChatInput(props: ChatInputProps) {
  const { t } = useTranslation();
  const { replyTo, editing, files } = props;
  const [text, setText] = useState('');
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const recorder = useAudioRecorder();
  const groupTicketId = props.groupTicketId ?? null;
  const mentions = useMentionPicker({
    ticketId: groupTicketId ?? 0,
    enabled: groupTicketId !== null,
    text,
    setText,
    textarea,
  });
  const mentionSend = useSendMention(groupTicketId ?? 0);
  const quick = useQuickReplyPicker({ ticket: props.ticket, enabled: !editing, text, setText, textarea });

  /** A mention send: the text stays in the box until the server has it (chat:create then shows the message). */
  const sendMention = (send: MentionSend) =>
    mentionSend.mutate(send, {
      onSuccess: () => {
        setText((current) => (current.trim() === send.body ? '' : current));
        props.onCancelReply();
      },
      onError: (error) => {
        if (!(error instanceof ApiError && error.notified))
          notifyError(describeError(error), t('chat.mentions.failed'));
      },
    });

  // Entering edit mode puts the message's text in the box (state adjusted while rendering, not in an effect).
  const [editingShown, setEditingShown] = useState(editing);
  if (editing !== editingShown) {
    setEditingShown(editing);
    if (editing) setText(messageText(editing));
  }
  useEffect(() => {
    if (editing) textarea.current?.focus();
  }, [editing]);
  useEffect(() => {
    if (replyTo) textarea.current?.focus();
  }, [replyTo]);

  const cancelContext = () => {
    if (editing) {
      props.onCancelEdit();
      setText('');
    } else if (replyTo) props.onCancelReply();
  };

  const submit = () => {
    const body = text.trim();
    if (editing) {
      if (body && body !== messageText(editing).trim()) props.onEdit(editing, body);
      props.onCancelEdit();
      setText('');
      return;
    }
    if (mentionSend.isPending || quick.interceptSend(body)) return;
    if (quick.attached) {
      if (files.length > 0) props.onSendFiles();
      quick.sendAttached(body);
      return setText('');
    }
    if (files.length > 0) props.onSendFiles();
    const mentioned = body ? mentionedNumbers(body, mentions.participants) : [];
    if (mentioned.length > 0) return sendMention({ mode: 'list', body, participants: mentioned });
    if (body) props.onSendText(body);
    if (body || files.length > 0) setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (mentions.onKeyDown(event) || quick.onKeyDown(event)) {
      event.preventDefault();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    } else if (event.key === 'Escape' && (editing || replyTo)) {
      event.preventDefault();
      cancelContext();
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = Array.from(event.clipboardData.files);
    if (pasted.length > 0 && !editing) {
      event.preventDefault();
      props.onAddFiles(pasted);
    }
  };

  const insertEmoji = (emoji: string) => {
    const element = textarea.current;
    const start = element?.selectionStart ?? text.length;
    const end = element?.selectionEnd ?? text.length;
    setText(text.slice(0, start) + emoji + text.slice(end));
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(start + emoji.length, start + emoji.length);
    });
  };

  const startRecording = async () => {
    const failure = await recorder.start();
    if (failure) notifyWarning(t(`chat.record.${failure}`));
  };
  const stopRecording = async () => {
    const file = await recorder.stop();
    if (file) props.onSendAudio(file);
  };

  const canSend = editing
    ? text.trim().length > 0
    : text.trim().length > 0 || files.length > 0 || quick.attached !== null;

  if (recorder.recording) {
    return (
      <Group gap="xs" p="xs" justify="flex-end" role="group" aria-label={t('chat.record.recording')}>
        <Text size="sm" c="red" fw={500} aria-live="polite" data-testid="chat-record-elapsed">
          ● {t('chat.record.recording')} {formatElapsed(recorder.elapsed)}
        </Text>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={t('chat.record.cancel')}
          onClick={recorder.cancel}
        >
          <IconTrash size={20} aria-hidden />
        </ActionIcon>
        <ActionIcon
          variant="filled"
          color="red"
          size="lg"
          aria-label={t('chat.record.stop')}
          onClick={() => void stopRecording()}
          data-testid="chat-record-stop"
        >
          <IconPlayerStopFilled size={18} aria-hidden />
        </ActionIcon>
      </Group>
    );
  }

  return (
    <Stack gap={6} p="xs">
      {editing ? <ContextBanner message={editing} mode="edit" onCancel={cancelContext} /> : null}
      {!editing && replyTo ? <ContextBanner message={replyTo} mode="reply" onCancel={props.onCancelReply} /> : null}
      {files.length > 0 && !editing ? (
        <Pill.Group aria-label={t('chat.input.files')}>
          {files.map(({ key, file }) => (
            <Pill
              key={key}
              withRemoveButton
              onRemove={() => props.onRemoveFile(key)}
              removeButtonProps={{ 'aria-label': t('chat.input.removeFile', { name: file.name }) }}
              data-testid="chat-file-chip"
            >
              {file.name} · {formatFileSize(file.size)}
            </Pill>
          ))}
        </Pill.Group>
      ) : null}
      {quick.attachment}
      {mentions.list}
      {quick.list}
      <Group gap={4} align="flex-end" wrap="nowrap">
        <EmojiPicker onPick={insertEmoji} />
        {groupTicketId !== null && !editing ? (
          <GroupMentionMenu
            empty={!text.trim()}
            sending={mentionSend.isPending}
            onSend={(mode) => sendMention({ mode, body: text.trim() })}
          />
        ) : null}
        {editing ? null : (
          <>
            <Tooltip label={t('chat.input.attach')}>
              <ActionIcon
                variant="subtle"
                size="lg"
                aria-label={t('chat.input.attach')}
                onClick={() => fileInput.current?.click()}
                data-testid="chat-attach"
              >
                <IconPaperclip size={20} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <input
              ref={fileInput}
              type="file"
              multiple
              hidden
              data-testid="chat-attach-input"
              onChange={(event) => {
                props.onAddFiles(Array.from(event.currentTarget.files ?? []));
                event.currentTarget.value = '';
              }}
            />
            {props.tools}
          </>
        )}
        <Textarea
          ref={textarea}
          flex={1}
          autosize
          minRows={1}
          maxRows={6}
          maxLength={20_000}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            mentions.track(event.currentTarget);
          }}
          {...mentions.textareaProps}
          {...quick.textareaProps}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          placeholder={t('chat.input.placeholder')}
          aria-label={t('chat.input.label')}
          data-testid="chat-input"
        />
        {editing ? null : (
          <ActionIcon
            variant="subtle"
            size="lg"
            aria-label={t('chat.record.start')}
            onClick={() => void startRecording()}
            data-testid="chat-record"
          >
            <IconMicrophone size={20} aria-hidden />
          </ActionIcon>
        )}
        <ActionIcon
          variant="filled"
          size="lg"
          aria-label={editing ? t('chat.input.saveEdit') : t('chat.input.send')}
          onClick={submit}
          disabled={!canSend}
          loading={mentionSend.isPending}
          data-testid="chat-send"
        >
          {editing ? <IconPencil size={18} aria-hidden /> : <IconSend size={18} aria-hidden />}
        </ActionIcon>
      </Group>
      <Group justify="space-between" gap="xs">
        <Text size="xs" c="dimmed">
          {t('chat.input.hint')}
        </Text>
        <ChatSignatureSwitch />
      </Group>
    </Stack>
  );
}
