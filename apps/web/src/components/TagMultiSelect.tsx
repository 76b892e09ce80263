/**
 * A coloured tag picker (contacts form, chat contact drawer): the tenant's active tags, plus those the contact already
 * carries (an inactive tag stays shown until removed). Values are tag ids. The tag list is read when the picker is
 * first opened (or is already cached): opening a form costs no request.
 */
import { useState } from 'react';
import { Badge, ColorSwatch, Group, MultiSelect, Pill, Text, type MultiSelectProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useActiveTags } from '../lib/tags';

export interface TagRef {
  id: number;
  tag: string;
  color: string;
}

interface TagMultiSelectProps extends Pick<MultiSelectProps, 'label' | 'description' | 'error' | 'disabled'> {
  value: number[];
  onChange: (ids: number[]) => void;
  /** Tags already on the contact (shown even when inactive). */
  known?: readonly TagRef[];
  'data-testid'?: string;
}

/** Black or white, whichever reads better on a `#rrggbb` background (WCAG relative luminance). */
export function textColorOn(hex: string): string {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) return '#000000';
  const [r, g, b] = match.slice(1).map((part) => {
    const c = parseInt(part, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // Contrast with black (L + 0.05) / 0.05 against white 1.05 / (L + 0.05).
  return (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) ? '#000000' : '#ffffff';
}

/** Coloured badges of tags. */
export function TagBadges({ tags }: { tags: readonly TagRef[] }) {
  return (
    <Group gap={4}>
      {tags.map((tag) => (
        <Badge key={tag.id} color={tag.color || 'gray'} autoContrast tt="none" data-testid={`tag-badge-${tag.id}`}>
          {tag.tag}
        </Badge>
      ))}
    </Group>
  );
}

export function TagMultiSelect({ value, onChange, known = [], ...props }: TagMultiSelectProps) {
  const { t } = useTranslation();
  const [wanted, setWanted] = useState(false);
  const active = useActiveTags(wanted);
  const byId = new Map<string, TagRef>();
  for (const tag of known) byId.set(String(tag.id), tag);
  for (const tag of active.data ?? []) byId.set(String(tag.id), tag);
  return (
    <MultiSelect
      label={props.label ?? t('contacts.tags')}
      description={props.description}
      error={props.error}
      disabled={props.disabled}
      placeholder={value.length ? undefined : t('org.tagPicker.placeholder')}
      data={[...byId.values()].map((tag) => ({ value: String(tag.id), label: tag.tag }))}
      value={value.map(String)}
      onChange={(ids) => onChange(ids.map(Number))}
      searchable
      clearable
      hidePickedOptions={false}
      onDropdownOpen={() => setWanted(true)}
      nothingFoundMessage={active.isFetching && !active.data ? t('common.loading') : t('org.tagPicker.none')}
      renderOption={({ option }) => (
        <Group gap="xs" wrap="nowrap">
          <ColorSwatch color={byId.get(String(option.value))?.color ?? '#868e96'} size={14} aria-hidden />
          <Text size="sm">{option.label}</Text>
        </Group>
      )}
      renderPill={({ option, onRemove, disabled }) => {
        const color = byId.get(String(option.value))?.color ?? '#868e96';
        return (
          <Pill
            withRemoveButton={!disabled}
            onRemove={onRemove}
            removeButtonProps={{ 'aria-label': t('org.tagPicker.remove', { name: option.label }) }}
            style={{ backgroundColor: color, color: textColorOn(color) }}
            data-testid={`tag-pill-${String(option.value)}`}
          >
            {option.label}
          </Pill>
        );
      }}
      data-testid={props['data-testid']}
    />
  );
}
