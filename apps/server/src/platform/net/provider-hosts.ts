/**
 * The host lists of provider file links (the checked fetch's `hosts`): a link a webhook carries is downloaded only
 * from its provider's CDN, and its address is still checked. Meta publishes no list of its CDN hosts; these are the
 * hosts its attachment and media links use (Messenger `scontent*.fbcdn.net`, `cdn.fbsbx.com`; Instagram
 * `lookaside.fbsbx.com/ig_messaging_cdn`, `*.cdninstagram.com`; WhatsApp Cloud API `lookaside.fbsbx.com`;
 * WhatsApp's own `*.whatsapp.net`).
 */
export const META_CDN_HOSTS: readonly string[] = [
  '*.fbcdn.net',
  '*.fbsbx.com',
  '*.cdninstagram.com',
  '*.facebook.com',
  '*.whatsapp.net',
];

/**
 * The NotificaMe hub's file links: Facebook and Instagram attachments are Meta's own CDN links, the rest is served
 * by the hub (`*.notificame.com.br`) or, for Telegram through the hub, Telegram's file host.
 */
export const HUB_FILE_HOSTS: readonly string[] = [
  ...META_CDN_HOSTS,
  'notificame.com.br',
  '*.notificame.com.br',
  'api.telegram.org',
];
