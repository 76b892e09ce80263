import { useState } from 'react';
import { ActionIcon, Popover, SegmentedControl, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconMoodSmile, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import classes from './chat.module.css';
import { EMOJI_CATEGORIES, searchEmoji, type EmojiCategory } from './emoji-data';

/** The input's emoji button: a popover grid by category, with a search box (no extra dependency). */
export function EmojiPicker({ onPick, disabled }: { onPick: (emoji: string) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [category, setCategory] = useState<EmojiCategory>('smileys');
  const [query, setQuery] = useState('');
  const entries = query.trim() ? searchEmoji(query) : EMOJI_CATEGORIES[category];
  const categories = Object.keys(EMOJI_CATEGORIES) as EmojiCategory[];

  return (
    <Popover opened={opened} onChange={setOpened} position="top-start" width={320} trapFocus withinPortal>
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          size="lg"
          aria-label={t('chat.input.emoji')}
          onClick={() => setOpened((o) => !o)}
          disabled={disabled}
          data-testid="chat-emoji"
        >
          <IconMoodSmile size={20} aria-hidden />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <TextInput
            size="xs"
            leftSection={<IconSearch size={14} aria-hidden />}
            placeholder={t('chat.emoji.search')}
            aria-label={t('chat.emoji.search')}
            value={query}
            onChange={(event) => setQuery(event.currentTarget.value)}
            data-autofocus
          />
          {query.trim() ? null : (
            <SegmentedControl
              size="xs"
              fullWidth
              value={category}
              onChange={(value) => setCategory(value as EmojiCategory)}
              data={categories.map((value) => ({ value, label: t(`chat.emoji.categories.${value}`) }))}
            />
          )}
          {entries.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('chat.emoji.none')}
            </Text>
          ) : (
            <div className={classes.emojiGrid} role="group" aria-label={t('chat.input.emoji')}>
              {entries.map((entry) => (
                <UnstyledButton
                  key={entry.emoji}
                  className={classes.emojiButton}
                  aria-label={entry.emoji}
                  onClick={() => onPick(entry.emoji)}
                >
                  {entry.emoji}
                </UnstyledButton>
              ))}
            </div>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
