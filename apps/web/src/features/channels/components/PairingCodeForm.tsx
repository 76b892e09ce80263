/** Asks for the phone number a pairing-code login is for (country code and number; masked, 10 to 15 digits). */
import { useState, type FormEvent } from 'react';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatPairingNumber, isPairingNumber, pairingDigits } from '../hooks/qr-session';

interface PairingCodeFormProps {
  pending: boolean;
  onRequest: (phoneNumber: string) => void;
  onCancel: () => void;
}

export function PairingCodeForm({ pending, onRequest, onCancel }: PairingCodeFormProps) {
  const { t } = useTranslation();
  const [number, setNumber] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isPairingNumber(number)) {
      setError(t('channels.qr.pairingNumberInvalid'));
      return;
    }
    onRequest(pairingDigits(number));
  };
  return (
    <form onSubmit={submit} noValidate data-testid="channel-pairing-form">
      <Stack gap="sm">
        <Text size="sm">{t('channels.qr.pairingIntro')}</Text>
        <TextInput
          label={t('channels.qr.pairingNumber')}
          description={t('channels.qr.pairingNumberHint')}
          placeholder="+55 11 912345678"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          required
          data-autofocus
          value={number}
          error={error}
          onChange={(event) => {
            setNumber(formatPairingNumber(event.currentTarget.value));
            setError(null);
          }}
          data-testid="channel-pairing-number"
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel} data-testid="channel-pairing-cancel">
            {t('channels.qr.backToQr')}
          </Button>
          <Button type="submit" loading={pending} data-testid="channel-pairing-submit">
            {t('channels.qr.pairingRequest')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
