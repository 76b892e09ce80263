import { Button, ColorInput, Group, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { DEFAULT_TAG_COLOR, TAG_COLOR_PATTERN, TAG_NAME_MAX, type TagDto } from '@conversa/shared';
import { ApiError, describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSaveTag } from '../api/tags';

/** The swatches offered by the colour field (Mantine's palette, shade 7: white text reads on all of them). */
export const TAG_SWATCHES = [
  '#c92a2a',
  '#a61e4d',
  '#862e9c',
  '#5f3dc4',
  '#364fc7',
  '#1864ab',
  '#0b7285',
  '#087f5b',
  '#2b8a3e',
  '#5c940d',
  '#e67700',
  '#d9480f',
  '#495057',
];

interface TagFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The tag being edited; undefined creates one. */
  tag?: TagDto;
}

export function TagFormModal({ opened, onClose, tag }: TagFormModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={tag ? t('org.tags.editTitle') : t('org.tags.newTitle')} centered>
      {opened ? <TagForm key={tag?.id ?? 'new'} tag={tag} onDone={onClose} /> : null}
    </Modal>
  );
}

function TagForm({ tag, onDone }: { tag?: TagDto; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useSaveTag();
  const form = useForm({
    mode: 'controlled',
    initialValues: { tag: tag?.tag ?? '', color: tag?.color ?? DEFAULT_TAG_COLOR, isActive: tag?.isActive ?? true },
    validateInputOnBlur: ['color'],
    validate: {
      tag: (v) => (v.trim() ? null : t('validation.required', { attribute: t('org.tags.name') })),
      color: (v) =>
        !v.trim()
          ? t('validation.required', { attribute: t('org.tags.color') })
          : TAG_COLOR_PATTERN.test(v.trim())
            ? null
            : t('org.tags.colorInvalid'),
    },
  });
  const submit = form.onSubmit((values) =>
    save.mutate(
      { id: tag?.id, input: { tag: values.tag.trim(), color: values.color.trim(), isActive: values.isActive } },
      {
        onSuccess: () => {
          notifySuccess(tag ? t('org.tags.saved') : t('org.tags.created'));
          onDone();
        },
        onError: (error) => {
          if (error instanceof ApiError) {
            if (error.code === 'ERR_TAG_EXISTS') form.setFieldError('tag', describeError(error));
            else if (error.field === 'color') form.setFieldError('color', t('org.tags.colorInvalid'));
            else if (error.field === 'tag') form.setFieldError('tag', describeError(error));
          }
          notifyError(describeError(error));
        },
      },
    ),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('org.tags.name')}
          required
          data-autofocus
          autoComplete="off"
          maxLength={TAG_NAME_MAX}
          data-testid="tag-form-name"
          {...form.getInputProps('tag')}
        />
        <ColorInput
          label={t('org.tags.color')}
          description={t('org.tags.colorHint')}
          required
          format="hex"
          swatches={TAG_SWATCHES}
          swatchesPerRow={7}
          withEyeDropper={false}
          closeOnColorSwatchClick
          // A mistyped colour stays as typed and is refused with its text (Mantine would silently put back the last
          // valid colour on blur, and the form saved that one).
          fixOnBlur={false}
          data-testid="tag-form-color"
          {...form.getInputProps('color')}
        />
        <Switch
          label={t('org.active')}
          data-testid="tag-form-active"
          {...form.getInputProps('isActive', { type: 'checkbox' })}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="tag-form-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
