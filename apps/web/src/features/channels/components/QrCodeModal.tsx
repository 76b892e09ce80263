import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Center, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconDeviceMobile, IconQrcode, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ChannelDto, ChannelStatus } from '@conversa/shared';
import { describeError } from '../../../lib/api';
import { notifySuccess } from '../../../lib/notify';
import { useQrLogin, type QrLoginRequest } from '../api/channels';
import { ENDED_STATUSES, formatPairingCode } from '../hooks/qr-session';
import { PairingCodeForm } from './PairingCodeForm';
import { QrCodeImage } from './QrCodeImage';

interface QrCodeModalProps {
  /** The channel as the cache holds it now (socket updates included); null closes the modal. */
  channel: ChannelDto | null;
  onClose: () => void;
}

/**
 * The login of a QR channel, live from `{T}:whatsappSession` (product-spec §4 "Channel session"): the QR code, or a
 * pairing code for a phone number instead, and a clear text for every status. The modal closes itself with a toast
 * once the session it watched becomes CONNECTED.
 */
export function QrCodeModal({ channel, onClose }: QrCodeModalProps) {
  const { t } = useTranslation();
  // The last channel shown stays while the modal fades out, so the closing dialog keeps its name (axe: a dialog
  // without an accessible name) and its content.
  const [shown, setShown] = useState(channel);
  if (channel && channel !== shown) setShown(channel);
  return (
    <Modal
      opened={channel !== null}
      onClose={onClose}
      title={shown ? t('channels.qr.title', { name: shown.name }) : ''}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {shown ? <QrSession key={shown.id} channel={shown} onClose={onClose} /> : null}
    </Modal>
  );
}

function QrSession({ channel, onClose }: { channel: ChannelDto; onClose: () => void }) {
  const { t } = useTranslation();
  const login = useQrLogin();
  const [askingNumber, setAskingNumber] = useState(false);
  const { status, name } = channel;
  const previous = useRef<ChannelStatus>(status);
  useEffect(() => {
    const before = previous.current;
    previous.current = status;
    if (status === 'CONNECTED' && before !== 'CONNECTED') {
      notifySuccess(t('channels.qr.connected', { name }));
      onClose();
    }
  }, [status, name, onClose, t]);

  const request = (next: QrLoginRequest) => {
    login.reset();
    login.mutate({ channel, request: next }, { onSuccess: () => setAskingNumber(false) });
  };
  const newQrButton = (label: string) => (
    <Button
      variant="light"
      leftSection={<IconRefresh size={16} aria-hidden />}
      loading={login.isPending && login.variables.request.kind === 'qrcode'}
      disabled={login.isPending}
      onClick={() => request({ kind: 'qrcode' })}
      data-testid="channel-qrcode-new"
    >
      {label}
    </Button>
  );
  const pairingButton = (
    <Button
      variant="subtle"
      leftSection={<IconDeviceMobile size={16} aria-hidden />}
      disabled={login.isPending}
      onClick={() => setAskingNumber(true)}
      data-testid="channel-pairing-start"
    >
      {t('channels.qr.usePairing')}
    </Button>
  );
  const ended = ENDED_STATUSES.includes(status);
  const timeout = useTimeoutKind(channel);
  const stateText =
    timeout === 'expired' || !timeout ? t(`channels.qr.state.${status}`) : t(`channels.qr.${timeout}.state`);
  const endedHint =
    timeout === 'unreachable'
      ? [t('channels.qr.unreachable.hint'), channel.proxyUrl ? t('channels.qr.unreachable.proxy') : '']
          .filter(Boolean)
          .join(' ')
      : timeout === 'unwatched'
        ? t('channels.qr.unwatched.hint')
        : t(`channels.qr.hint.${status}`);

  return (
    <Stack gap="md" data-testid="channel-qrcode-modal" data-status={status}>
      <Group gap="xs" justify="space-between" role="status" aria-live="polite">
        <Text fw={600} data-testid="channel-qrcode-state">
          {stateText}
        </Text>
        {channel.retries > 0 ? (
          <Text size="sm" c="dimmed" data-testid="channel-qrcode-retries">
            {t('channels.qr.retries', { count: channel.retries })}
          </Text>
        ) : null}
      </Group>
      {login.isError ? (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle aria-hidden />}
          role="alert"
          data-testid="channel-qrcode-failure"
        >
          {describeError(login.error)}
        </Alert>
      ) : null}
      {askingNumber ? (
        <PairingCodeForm
          pending={login.isPending}
          onRequest={(phoneNumber) => request({ kind: 'pairing', phoneNumber })}
          onCancel={() => setAskingNumber(false)}
        />
      ) : status === 'qrcode' ? (
        <>
          <Text size="sm">{t('channels.qr.instructions')}</Text>
          {channel.qrcode ? (
            <QrCodeImage qrcode={channel.qrcode} alt={t('channels.qr.alt', { name })} />
          ) : (
            <Waiting text={t('channels.qr.waiting')} />
          )}
          <Group justify="space-between" gap="xs">
            {pairingButton}
            {newQrButton(t('channels.qr.newQr'))}
          </Group>
        </>
      ) : status === 'PAIRING' ? (
        <>
          {channel.pairingCode ? (
            <Stack gap="xs" align="center">
              <Text size="sm">{t('channels.qr.pairingCodeLabel')}</Text>
              <Title
                order={2}
                ff="monospace"
                fz={40}
                lts={4}
                aria-label={t('channels.qr.pairingCodeAria', { code: channel.pairingCode.split('').join(' ') })}
                data-testid="channel-pairing-code"
              >
                {formatPairingCode(channel.pairingCode)}
              </Title>
              <Text size="sm" ta="center">
                {t('channels.qr.pairingInstructions')}
              </Text>
            </Stack>
          ) : (
            <Waiting text={t('channels.qr.pairingWaiting')} />
          )}
          <Group justify="flex-end">{newQrButton(t('channels.qr.useQrInstead'))}</Group>
        </>
      ) : status === 'OPENING' ? (
        <Waiting text={t('channels.qr.openingHint')} />
      ) : status === 'CONNECTED' ? (
        <Group justify="flex-end">
          <Button onClick={onClose} data-testid="channel-qrcode-close">
            {t('common.close')}
          </Button>
        </Group>
      ) : ended ? (
        <>
          <Alert
            color={status === 'CONFLICT' ? 'orange' : 'red'}
            variant="light"
            icon={<IconQrcode aria-hidden />}
            data-testid="channel-qrcode-hint"
          >
            {endedHint}
          </Alert>
          <Group justify="space-between" gap="xs">
            {pairingButton}
            {newQrButton(t('channels.qr.retry'))}
          </Group>
        </>
      ) : null}
    </Stack>
  );
}

/**
 * What a TIMEOUT means depends on what this modal saw: a QR or pairing code shown and not used ('expired'), a login
 * it watched in which no code ever came ('unreachable': the session never reached WhatsApp, so "QR code expirado"
 * would be untrue), or neither, opened on a session that had already ended ('unwatched'). The server keeps no reason
 * for a TIMEOUT (its status is all the channel says), so the modal tells what it knows: no code arrived, and the
 * proxy the session goes through when it has one. Null for the other statuses.
 */
function useTimeoutKind(channel: ChannelDto): 'expired' | 'unreachable' | 'unwatched' | null {
  const { status } = channel;
  const [seen, setSeen] = useState({ code: false, watched: false });
  const showsCode = (status === 'qrcode' && !!channel.qrcode) || (status === 'PAIRING' && !!channel.pairingCode);
  // A new attempt (OPENING) starts without a code: the expiry of an earlier one says nothing about it.
  const code = status === 'OPENING' ? false : seen.code || showsCode;
  const watched = seen.watched || (!ENDED_STATUSES.includes(status) && status !== 'CONNECTED');
  if (code !== seen.code || watched !== seen.watched) setSeen({ code, watched });
  if (status !== 'TIMEOUT') return null;
  if (code) return 'expired';
  return watched ? 'unreachable' : 'unwatched';
}

function Waiting({ text }: { text: string }) {
  return (
    <Center py="lg">
      <Stack align="center" gap="xs">
        <Loader aria-hidden />
        <Text size="sm" c="dimmed">
          {text}
        </Text>
      </Stack>
    </Center>
  );
}
