import { useEffect, useRef, useState } from 'react';
import { ActionIcon, Anchor, Group, Text, Tooltip } from '@mantine/core';
import {
  IconFile,
  IconMicrophone,
  IconMovie,
  IconMusic,
  IconPhoto,
  IconPlayerPauseFilled,
  IconPlayerPlayFilled,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { QuickMessageDto } from '@conversa/shared';

export type FileKind = 'voice' | 'audio' | 'image' | 'video' | 'document';

export function fileKind(mediaType: string | null, voice: boolean): FileKind {
  if (voice) return 'voice';
  if (mediaType?.startsWith('audio/')) return 'audio';
  if (mediaType?.startsWith('image/')) return 'image';
  if (mediaType?.startsWith('video/')) return 'video';
  return 'document';
}

const ICONS = { voice: IconMicrophone, audio: IconMusic, image: IconPhoto, video: IconMovie, document: IconFile };

/** Plays an audio file in place (a voice note or an audio file), one at a time per button. */
export function PlayButton({ url, label }: { url: string; label: string }) {
  const { t } = useTranslation();
  const audio = useRef<HTMLAudioElement | null>(null);
  const [playing, setPlaying] = useState(false);
  useEffect(() => () => audio.current?.pause(), []);
  const toggle = () => {
    if (!audio.current) {
      audio.current = new Audio(url);
      audio.current.onended = () => setPlaying(false);
      audio.current.onpause = () => setPlaying(false);
    }
    if (playing) audio.current.pause();
    else
      void audio.current.play().then(
        () => setPlaying(true),
        () => setPlaying(false),
      );
  };
  const name = playing ? t('quickMessages.pause', { name: label }) : t('quickMessages.play', { name: label });
  return (
    <Tooltip label={name}>
      <ActionIcon variant="light" radius="xl" aria-label={name} onClick={toggle} data-testid="quick-play">
        {playing ? <IconPlayerPauseFilled size={16} aria-hidden /> : <IconPlayerPlayFilled size={16} aria-hidden />}
      </ActionIcon>
    </Tooltip>
  );
}

/** The file of a quick message: its kind's icon and name (a link that opens it), play for voice notes and audio. */
export function QuickMessageFile({ quick }: { quick: QuickMessageDto }) {
  const { t } = useTranslation();
  if (!quick.media || !quick.mediaUrl) {
    return (
      <Text size="sm" c="dimmed">
        {t('quickMessages.noFile')}
      </Text>
    );
  }
  const kind = fileKind(quick.mediaType, quick.voice === 'enabled');
  const Icon = ICONS[kind];
  const label = t(`quickMessages.kind.${kind}`);
  return (
    <Group gap="xs" wrap="nowrap" miw={0}>
      {kind === 'voice' || kind === 'audio' ? (
        <PlayButton url={quick.mediaUrl} label={`/${quick.key}`} />
      ) : (
        <Icon size={20} aria-hidden />
      )}
      <div style={{ minWidth: 0 }}>
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Anchor
          href={quick.mediaUrl}
          target="_blank"
          rel="noopener noreferrer"
          size="xs"
          display="block"
          truncate
          maw={200}
          aria-label={t('quickMessages.openFile', { name: quick.media })}
        >
          {quick.media}
        </Anchor>
      </div>
    </Group>
  );
}
