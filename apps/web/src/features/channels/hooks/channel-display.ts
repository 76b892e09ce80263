/** How a channel looks: status colours and actions (product-spec §4 "Channel session"), icons by type, dates. */
import type { ComponentType } from 'react';
import {
  IconBrandFacebook,
  IconBrandInstagram,
  IconBrandMessenger,
  IconBrandTelegram,
  IconBrandWhatsapp,
  IconMail,
  type IconProps,
} from '@tabler/icons-react';
import { formatDateTime } from '../../../lib/dates';
import type { ChannelStatus, ChannelType } from '@conversa/shared';

export const STATUS_COLOR: Record<ChannelStatus, string> = {
  CONNECTED: 'green',
  OPENING: 'yellow',
  qrcode: 'yellow',
  PAIRING: 'yellow',
  DISCONNECTED: 'red',
  TIMEOUT: 'red',
  DESTROYED: 'red',
  CONFLICT: 'orange',
};

/** Statuses without a live session: the channel can be connected. Every other one can be disconnected. */
const OFFLINE: readonly ChannelStatus[] = ['DISCONNECTED', 'DESTROYED'];
export const canConnect = (status: ChannelStatus): boolean => OFFLINE.includes(status);

export const TYPE_ICON: Record<ChannelType, ComponentType<IconProps>> = {
  waba: IconBrandWhatsapp,
  baileys: IconBrandWhatsapp,
  whatsapp: IconBrandWhatsapp,
  meow: IconBrandWhatsapp,
  evo: IconBrandWhatsapp,
  hub: IconBrandWhatsapp,
  telegram: IconBrandTelegram,
  hub_facebook: IconBrandFacebook,
  hub_instagram: IconBrandInstagram,
  hub_email: IconMail,
  hub_telegram: IconBrandTelegram,
  instagram: IconBrandInstagram,
  messenger: IconBrandMessenger,
};

export const TYPE_COLOR: Record<ChannelType, string> = {
  waba: 'green',
  baileys: 'green',
  whatsapp: 'green',
  meow: 'green',
  evo: 'green',
  hub: 'green',
  telegram: 'blue',
  hub_facebook: 'indigo',
  hub_instagram: 'grape',
  hub_email: 'gray',
  hub_telegram: 'blue',
  instagram: 'grape',
  messenger: 'indigo',
};

/** A Telegram channel's number is its bot username. */
export function channelHandle(type: ChannelType, number: string | null): string | null {
  if (!number) return null;
  return type === 'telegram' && !number.startsWith('@') ? `@${number}` : number;
}

/** dd/MM/yyyy HH:mm:ss, as product-spec §1 displays date-times. */
export const formatUpdatedAt = (value: string): string => formatDateTime(value);

/** A QR code arrives as a data URL (an image) or as the raw string the provider gave. */
export const isImageQrCode = (qrcode: string): boolean => qrcode.startsWith('data:');
