import { useEffect } from 'react';
import { Center, Code, Image, Loader, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ChannelDto } from '@conversa/shared';
import { isImageQrCode } from '../hooks/channel-display';

interface QrCodeModalProps {
  /** The channel as the cache holds it now (socket updates included); null closes the modal. */
  channel: ChannelDto | null;
  onClose: () => void;
}

/**
 * The QR code of a channel waiting for a scan (`status = qrcode`), live from `{T}:whatsappSession`; the modal closes
 * itself once the channel is CONNECTED.
 */
export function QrCodeModal({ channel, onClose }: QrCodeModalProps) {
  const { t } = useTranslation();
  const connected = channel?.status === 'CONNECTED';
  useEffect(() => {
    if (connected) onClose();
  }, [connected, onClose]);
  const qrcode = channel?.status === 'qrcode' ? channel.qrcode : null;
  return (
    <Modal
      opened={channel !== null && !connected}
      onClose={onClose}
      title={channel ? t('channels.qr.title', { name: channel.name }) : ''}
      centered
    >
      <Stack gap="sm" data-testid="channel-qrcode-modal">
        <Text size="sm">{t('channels.qr.instructions')}</Text>
        {qrcode ? (
          isImageQrCode(qrcode) ? (
            <Center>
              <Image
                src={qrcode}
                alt={t('channels.qr.alt', { name: channel?.name ?? '' })}
                w={280}
                h={280}
                fit="contain"
                data-testid="channel-qrcode-image"
              />
            </Center>
          ) : (
            <Code block data-testid="channel-qrcode-text" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
              {qrcode}
            </Code>
          )
        ) : (
          <Center py="lg">
            <Stack align="center" gap="xs" role="status" aria-live="polite">
              <Loader aria-hidden />
              <Text size="sm" c="dimmed">
                {t('channels.qr.waiting')}
              </Text>
            </Stack>
          </Center>
        )}
      </Stack>
    </Modal>
  );
}
