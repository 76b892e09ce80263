/**
 * A step's interactions, sent in order when the step is entered: texts (MessageField), media (MediaField: an uploaded
 * file or a pasted URL, with a caption) and delays (DelayField, 1-3600 seconds).
 */
import { useState } from 'react';
import { Button, FileButton, Fieldset, Group, NumberInput, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconClockPause, IconMessage, IconPhoto, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ChatFlowInteraction } from '@conversa/shared';
import { describeError } from '../../../lib/api-error';
import { notifyError } from '../../../lib/notify';
import { useBuilder } from './builder.context';
import { moveItem, newId, type StepNode } from './builder.graph';
import { uploadChatFlowMedia } from './builder-api';
import { ItemButtons, OptionSelect } from './PanelFields';

type MediaInteraction = Extract<ChatFlowInteraction, { type: 'MediaField' }>;
const MEDIA_TYPES = ['image', 'video', 'audio', 'document'] as const;
const MAX_INTERACTIONS = 50;
/** The contact's and ticket's values a text may carry (decisions §C), shown as typed. */
const PLACEHOLDERS = '{{name}}, {{firstName}}, {{protocol}}';

export function InteractionsEditor({ node }: { node: StepNode }) {
  const { t } = useTranslation();
  const { dispatch } = useBuilder();
  const change = (update: (list: ChatFlowInteraction[]) => ChatFlowInteraction[], coalesce?: string) =>
    dispatch({
      type: 'updateStep',
      nodeId: node.id,
      update: (n) => ({ ...n, interactions: update(n.interactions) }),
      coalesce,
    });
  const add = (interaction: ChatFlowInteraction) => change((list) => [...list, interaction]);
  const replace = (index: number, next: ChatFlowInteraction, coalesce?: string) =>
    change((list) => list.map((item, i) => (i === index ? next : item)), coalesce);
  const full = node.interactions.length >= MAX_INTERACTIONS;

  return (
    <Stack gap="xs">
      <Text fw={600} size="sm" component="h3">
        {t('flowBuilder.interactions.title')}
      </Text>
      {node.interactions.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('flowBuilder.interactions.empty')}
        </Text>
      ) : null}
      {node.interactions.map((interaction, index) => {
        const item = t('flowBuilder.interactions.item', { n: index + 1 });
        const key = `${node.id}:${interaction.id}`;
        return (
          <Fieldset key={interaction.id} legend={item} p="xs" data-testid={`interaction-${index + 1}`}>
            <Stack gap={6}>
              {interaction.type === 'MessageField' ? (
                <Textarea
                  label={t('flowBuilder.interactions.message', { item })}
                  description={t('flowBuilder.interactions.placeholders', { list: PLACEHOLDERS })}
                  autosize
                  minRows={2}
                  maxLength={4096}
                  value={interaction.data.message}
                  onChange={(event) =>
                    replace(
                      index,
                      { ...interaction, data: { ...interaction.data, message: event.currentTarget.value } },
                      `${key}:message`,
                    )
                  }
                />
              ) : null}
              {interaction.type === 'MediaField' ? (
                <MediaFields
                  item={item}
                  interaction={interaction}
                  onChange={(next, field) => replace(index, next, field ? `${key}:${field}` : undefined)}
                />
              ) : null}
              {interaction.type === 'DelayField' ? (
                <NumberInput
                  label={t('flowBuilder.interactions.delay', { item })}
                  min={1}
                  max={3600}
                  clampBehavior="strict"
                  allowDecimal={false}
                  value={interaction.data.seconds}
                  onChange={(value) =>
                    replace(
                      index,
                      { ...interaction, data: { ...interaction.data, seconds: Math.max(1, Number(value) || 1) } },
                      `${key}:seconds`,
                    )
                  }
                />
              ) : null}
              <Group justify="flex-end">
                <ItemButtons
                  name={item}
                  index={index}
                  count={node.interactions.length}
                  onMove={(delta) => change((list) => moveItem(list, index, delta))}
                  onDelete={() => change((list) => list.filter((_, i) => i !== index))}
                />
              </Group>
            </Stack>
          </Fieldset>
        );
      })}
      <Group gap="xs">
        <Button
          size="xs"
          variant="light"
          disabled={full}
          leftSection={<IconMessage size={14} aria-hidden />}
          onClick={() => add({ id: newId(), type: 'MessageField', data: { message: '' } })}
        >
          {t('flowBuilder.interactions.addText')}
        </Button>
        <Button
          size="xs"
          variant="light"
          disabled={full}
          leftSection={<IconPhoto size={14} aria-hidden />}
          onClick={() => add({ id: newId(), type: 'MediaField', data: { mediaUrl: '', type: 'image', caption: '' } })}
        >
          {t('flowBuilder.interactions.addMedia')}
        </Button>
        <Button
          size="xs"
          variant="light"
          disabled={full}
          leftSection={<IconClockPause size={14} aria-hidden />}
          onClick={() => add({ id: newId(), type: 'DelayField', data: { seconds: 5 } })}
        >
          {t('flowBuilder.interactions.addDelay')}
        </Button>
      </Group>
    </Stack>
  );
}

function MediaFields({
  item,
  interaction,
  onChange,
}: {
  item: string;
  interaction: MediaInteraction;
  /** `field` names a typed field (its keystrokes are one history entry). */
  onChange: (next: MediaInteraction, field?: string) => void;
}) {
  const { t } = useTranslation();
  const [uploading, setUploading] = useState(false);
  const data = interaction.data;
  const upload = async (file: File | null) => {
    if (!file) return;
    setUploading(true);
    try {
      const media = await uploadChatFlowMedia(file);
      onChange({ ...interaction, data: { ...data, mediaUrl: media.mediaUrl, type: media.type, name: media.name } });
    } catch (error) {
      notifyError(describeError(error));
    } finally {
      setUploading(false);
    }
  };
  return (
    <>
      <Group gap="xs" align="flex-end">
        <FileButton onChange={(file) => void upload(file)}>
          {(props) => (
            <Button
              {...props}
              size="xs"
              variant="default"
              loading={uploading}
              leftSection={<IconUpload size={14} aria-hidden />}
            >
              {t('flowBuilder.interactions.upload')}
            </Button>
          )}
        </FileButton>
        {data.name ? (
          <Text size="xs" c="dimmed" lineClamp={1}>
            {data.name}
          </Text>
        ) : null}
      </Group>
      <TextInput
        label={t('flowBuilder.interactions.mediaUrl', { item })}
        description={t('flowBuilder.interactions.mediaUrlHelp')}
        value={data.mediaUrl}
        maxLength={2000}
        onChange={(event) =>
          onChange({ ...interaction, data: { ...data, mediaUrl: event.currentTarget.value } }, 'url')
        }
      />
      <OptionSelect
        label={t('flowBuilder.interactions.mediaType', { item })}
        value={data.type}
        options={MEDIA_TYPES.map((type) => ({ value: type, label: t(`flowBuilder.mediaTypes.${type}`) }))}
        onChange={(type) =>
          onChange({
            ...interaction,
            data: { ...data, type: (type ?? 'document') as MediaInteraction['data']['type'] },
          })
        }
      />
      <Textarea
        label={t('flowBuilder.interactions.caption', { item })}
        autosize
        minRows={1}
        maxLength={4096}
        value={data.caption ?? ''}
        onChange={(event) =>
          onChange({ ...interaction, data: { ...data, caption: event.currentTarget.value } }, 'caption')
        }
      />
    </>
  );
}
