import { Group, Stack, Text } from '@mantine/core';
import { IconExternalLink, IconFileText, IconPhone, IconPhoto, IconVideo } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { fillText, headerMediaFormat, type ParsedTemplate, type TemplateValues } from '../../hooks/waba-template';
import classes from './official.module.css';

const MEDIA_ICON = { IMAGE: IconPhoto, VIDEO: IconVideo, DOCUMENT: IconFileText } as const;

/** What the customer will see, drawn like a WhatsApp bubble: header, body with the variables filled, footer, buttons. */
export function TemplatePreview({ template, values }: { template: ParsedTemplate; values: TemplateValues }) {
  const { t } = useTranslation();
  const media = headerMediaFormat(template);
  const MediaIcon = media ? MEDIA_ICON[media] : null;
  return (
    <section className={classes.preview} aria-label={t('chat.templates.preview')} data-testid="template-preview">
      <div className={classes.previewBubble}>
        {MediaIcon ? (
          <Group gap={6} mb={4} wrap="nowrap">
            <MediaIcon size={18} aria-hidden />
            <Text size="xs" c="dimmed" truncate>
              {values.headerMediaUrl.trim() || t(`chat.templates.headerMedia.${media}`)}
            </Text>
          </Group>
        ) : template.header?.text ? (
          <Text size="sm" fw={700} data-testid="template-preview-header">
            {fillText(template.header.text, values.header)}
          </Text>
        ) : null}
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="template-preview-body">
          {fillText(template.body, values.body)}
        </Text>
        {template.footer ? (
          <Text size="xs" c="dimmed" mt={4}>
            {template.footer}
          </Text>
        ) : null}
      </div>
      {template.buttons.length > 0 ? (
        <Stack gap={0} maw={320} ml="auto">
          {template.buttons.map((button, index) => (
            <div key={index} className={classes.previewButton}>
              {button.type === 'URL' ? <IconExternalLink size={14} aria-hidden /> : null}
              {button.type === 'PHONE_NUMBER' ? <IconPhone size={14} aria-hidden /> : null} {button.text}
            </div>
          ))}
        </Stack>
      ) : null}
    </section>
  );
}
