import { Fragment, useState, type ReactNode } from 'react';
import { ActionIcon, Anchor, Group, Image, Loader, Modal, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconAlertCircle, IconDownload, IconFileText, IconMapPin, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { MessageDto } from '@conversa/shared';
import {
  formatFileSize,
  hasFile,
  messageText,
  openStreetMapUrl,
  parseLocation,
  parseVcard,
  richTextParts,
} from '../../hooks/chat-format';
import classes from './chat.module.css';

/**
 * Text with its line breaks and WhatsApp formatting, links opening in a new tab (richTextParts: linear in the text,
 * lines past FORMAT_MAX_LINE_LENGTH shown as typed). Every part is a React text node: nothing becomes HTML.
 */
export function RichText({ text, deleted }: { text: string; deleted?: boolean }) {
  return (
    <Text size="sm" className={classes.text} td={deleted ? 'line-through' : undefined}>
      {richTextParts(text).map((part, index) => {
        if (part.kind === 'link') {
          return (
            <Anchor key={index} href={part.href} target="_blank" rel="noopener noreferrer" size="sm">
              {part.text}
            </Anchor>
          );
        }
        let node: ReactNode = part.text;
        if (part.mono) node = <code>{node}</code>;
        if (part.strike) node = <s>{node}</s>;
        if (part.italic) node = <em>{node}</em>;
        if (part.bold) node = <strong>{node}</strong>;
        return <Fragment key={index}>{node}</Fragment>;
      })}
    </Text>
  );
}

function MediaState({ message }: { message: MessageDto }) {
  const { t } = useTranslation();
  if (message.mediaStatus === 'pending') {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" aria-hidden />
        <Text size="sm" c="dimmed">
          {t('chat.media.downloading')}
        </Text>
      </Group>
    );
  }
  return (
    <Group gap="xs">
      <IconAlertCircle size={16} aria-hidden />
      <Text size="sm" c="dimmed">
        {t('chat.media.unavailable')}
      </Text>
    </Group>
  );
}

function ImageMedia({ url, name }: { url: string; name: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <UnstyledButton onClick={() => setOpen(true)} aria-label={t('chat.media.openImage', { name })}>
        <img src={url} alt={name} className={classes.thumb} loading="lazy" />
      </UnstyledButton>
      <Modal opened={open} onClose={() => setOpen(false)} title={name} size="auto" centered>
        <Stack gap="xs" align="center">
          <Image src={url} alt={name} mah="80vh" maw="90vw" fit="contain" />
          <Anchor href={url} download={name} target="_blank" rel="noopener noreferrer">
            {t('chat.actions.download')}
          </Anchor>
        </Stack>
      </Modal>
    </>
  );
}

function DocumentCard({ message }: { message: MessageDto }) {
  const { t } = useTranslation();
  const name = message.mediaName ?? message.body;
  return (
    <Paper withBorder p="xs" radius="sm" data-testid={`message-document-${message.id}`}>
      <Group gap="sm" wrap="nowrap">
        <IconFileText size={28} aria-hidden />
        <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
          <Text size="sm" fw={500} truncate>
            {name}
          </Text>
          <Text size="xs" c="dimmed">
            {formatFileSize(message.mediaSize)}
          </Text>
        </Stack>
        {message.mediaUrl ? (
          <ActionIcon
            component="a"
            href={message.mediaUrl}
            download={name}
            target="_blank"
            rel="noopener noreferrer"
            variant="subtle"
            aria-label={t('chat.media.downloadFile', { name })}
          >
            <IconDownload size={18} aria-hidden />
          </ActionIcon>
        ) : null}
      </Group>
    </Paper>
  );
}

function FileMedia({ message }: { message: MessageDto }) {
  const { t } = useTranslation();
  const url = message.mediaUrl;
  if (!url || message.mediaStatus === 'pending' || message.mediaStatus === 'failed') {
    return <MediaState message={message} />;
  }
  const name = message.mediaName ?? message.body;
  switch (message.mediaType) {
    case 'image':
      return <ImageMedia url={url} name={name || t('chat.media.image')} />;
    case 'sticker':
      return <img src={url} alt={t('chat.media.sticker')} className={classes.sticker} loading="lazy" />;
    case 'video':
      return (
        <video controls preload="metadata" src={url} style={{ maxWidth: 320, borderRadius: 6 }}>
          <track kind="captions" />
        </video>
      );
    case 'audio':
    case 'ptt':
      return <audio controls preload="metadata" src={url} aria-label={t('chat.media.audio')} />;
    default:
      return <DocumentCard message={message} />;
  }
}

/** A caption is the body when it says more than the file name. */
const captionOf = (message: MessageDto): string | null => {
  const text = messageText(message).trim();
  return text && text !== message.mediaName ? text : null;
};

/** The content of a bubble by media type (client-contract §20.3). */
export function MessageContent({ message }: { message: MessageDto }) {
  const { t } = useTranslation();
  const deleted = message.isDeleted;
  if (message.mediaType === 'location') {
    const location = parseLocation(message.meta);
    if (location) {
      return (
        <Stack gap={2}>
          <Group gap={4}>
            <IconMapPin size={16} aria-hidden />
            <Text size="sm">{location.name ?? t('chat.media.location')}</Text>
          </Group>
          <Text size="xs" c="dimmed">
            {location.latitude}, {location.longitude}
          </Text>
          <Anchor href={openStreetMapUrl(location)} target="_blank" rel="noopener noreferrer" size="sm">
            {t('chat.media.openMap')}
          </Anchor>
        </Stack>
      );
    }
  }
  if (message.mediaType === 'vcard') {
    const card = parseVcard(message.meta) ?? parseVcard(message.body);
    if (card) {
      return (
        <Group gap="xs" wrap="nowrap">
          <IconUser size={20} aria-hidden />
          <Stack gap={0}>
            <Text size="sm" fw={500}>
              {card.name || t('chat.media.contact')}
            </Text>
            <Text size="xs" c="dimmed">
              {card.number}
            </Text>
          </Stack>
        </Group>
      );
    }
  }
  if (hasFile(message)) {
    const caption = captionOf(message);
    return (
      <Stack gap={4}>
        <FileMedia message={message} />
        {caption ? <RichText text={caption} deleted={deleted} /> : null}
      </Stack>
    );
  }
  // A text past the server's cap (MESSAGE_BODY_MAX_LENGTH) shows its first part; the whole text is its file.
  if (message.mediaUrl && message.mediaStatus === 'ready') {
    const name = message.mediaName ?? 'mensagem.txt';
    return (
      <Stack gap={4}>
        <RichText text={messageText(message)} deleted={deleted} />
        <Anchor href={message.mediaUrl} download={name} target="_blank" rel="noopener noreferrer" size="sm">
          {t('chat.media.downloadFile', { name })}
        </Anchor>
      </Stack>
    );
  }
  return <RichText text={messageText(message)} deleted={deleted} />;
}
