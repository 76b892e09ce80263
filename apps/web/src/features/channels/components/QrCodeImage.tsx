/** A QR code as an image: a data URL as it came, a raw string drawn with the `qrcode` package (loaded on demand). */
import { useEffect, useState } from 'react';
import { Alert, Center, Image, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { qrImageSource } from '../hooks/qr-session';

export function QrCodeImage({ qrcode, alt }: { qrcode: string; alt: string }) {
  const { t } = useTranslation();
  const [drawn, setDrawn] = useState<{ qrcode: string; src: string | null } | null>(null);
  useEffect(() => {
    let current = true;
    qrImageSource(qrcode).then(
      (src) => current && setDrawn({ qrcode, src }),
      () => current && setDrawn({ qrcode, src: null }),
    );
    return () => {
      current = false;
    };
  }, [qrcode]);
  // A new code replaces the old one only once drawn; the old one (or a spinner) shows meanwhile.
  if (!drawn) {
    return (
      <Center h={280}>
        <Loader aria-label={t('channels.qr.drawing')} />
      </Center>
    );
  }
  if (!drawn.src) {
    return (
      <Alert color="red" variant="light" data-testid="channel-qrcode-error">
        {t('channels.qr.drawError')}
      </Alert>
    );
  }
  return (
    <Center>
      <Image
        src={drawn.src}
        alt={alt}
        w={280}
        h={280}
        fit="contain"
        bg="white"
        p={4}
        radius="sm"
        data-testid="channel-qrcode-image"
        data-qrcode={drawn.qrcode === qrcode ? 'current' : 'previous'}
      />
    </Center>
  );
}
