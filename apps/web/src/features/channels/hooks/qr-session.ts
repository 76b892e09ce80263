/** The QR modal's rules: what each session status shows, the pairing number's mask and check, the QR image. */
import type { ChannelStatus } from '@conversa/shared';
import { isImageQrCode } from './channel-display';

/** Statuses where the session ended: the modal offers a new attempt. */
export const ENDED_STATUSES: readonly ChannelStatus[] = ['TIMEOUT', 'CONFLICT', 'DISCONNECTED', 'DESTROYED'];

/** A pairing number is the country code and number, digits only, 10 to 15 of them (restartSessionSchema). */
export const PAIRING_NUMBER_MAX_DIGITS = 15;
export const pairingDigits = (value: string): string => value.replace(/\D/g, '').slice(0, PAIRING_NUMBER_MAX_DIGITS);
export const isPairingNumber = (value: string): boolean => /^\d{10,15}$/.test(pairingDigits(value));

/** As typed: `+55 11 912345678` (country code, two-digit area, the rest); only digits are kept. */
export function formatPairingNumber(value: string): string {
  const digits = pairingDigits(value);
  if (!digits) return '';
  const parts = [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4)].filter(Boolean);
  return `+${parts.join(' ')}`;
}

/** WhatsApp shows pairing codes as two groups of four (`ABCD-1234`). */
export function formatPairingCode(code: string): string {
  const clean = code.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  return clean.length === 8 ? `${clean.slice(0, 4)}-${clean.slice(4)}` : clean;
}

/** A QR code arrives as a data URL (an image already) or as the raw string the provider gave, drawn here as SVG. */
export async function qrImageSource(qrcode: string): Promise<string> {
  if (isImageQrCode(qrcode)) return qrcode;
  const { toString } = await import('qrcode');
  const svg = await toString(qrcode, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
