/**
 * The seam where the whatsapp-web.js client is created: the subset of the library's `Client` the driver uses, the
 * factory type, the library loaded on first use (it pulls puppeteer in: a server without `whatsapp` channels never
 * loads it), and the client options (system chromium, headless, the channel's proxy). Tests replace `makeClient` with
 * the fake (wwebjs.fake-client.ts); production uses `new Client(options)`.
 */
import type { EventEmitter } from 'node:events';
import type WAWebJS from 'whatsapp-web.js';

/** What the driver calls on a client; the library's Client satisfies it (checked below with `satisfies`). */
export interface WwebjsClient extends Pick<EventEmitter, 'on' | 'removeAllListeners'> {
  info: { wid: { user: string; server: string; _serialized: string } } | undefined;
  initialize(): Promise<void>;
  destroy(): Promise<void>;
  logout(): Promise<void>;
  sendMessage(
    chatId: string,
    content: string | WAWebJS.MessageMedia,
    options?: WAWebJS.MessageSendOptions,
  ): Promise<WAWebJS.Message | undefined>;
  getMessageById(messageId: string): Promise<WAWebJS.Message | null>;
  getNumberId(number: string): Promise<{ user: string; server: string; _serialized: string } | null>;
  getContactLidAndPhone(userIds: string[]): Promise<{ lid?: string; pn?: string }[]>;
  getChatById(chatId: string): Promise<{ name?: string; isGroup?: boolean }>;
  /** The chats of the number (the login's history import reads them). */
  getChats(): Promise<unknown[]>;
  getProfilePicUrl(contactId: string): Promise<string | undefined>;
}

export type MakeWwebjsClient = (options: WAWebJS.ClientOptions) => WwebjsClient;

export type WwebjsLibrary = Pick<typeof WAWebJS, 'Client' | 'MessageMedia' | 'RemoteAuth'>;

let library: Promise<WwebjsLibrary> | null = null;

/** The library (CommonJS) on first use. */
export function loadWwebjs(): Promise<WwebjsLibrary> {
  library ??= import('whatsapp-web.js').then((mod) => (mod.default ?? mod) as WwebjsLibrary);
  return library;
}

export const defaultMakeClient =
  (lib: WwebjsLibrary): MakeWwebjsClient =>
  (options) =>
    new lib.Client(options) satisfies WwebjsClient;

export interface ChannelProxy {
  /** `http://host:port` (or `host:port`, `socks5://...`): chromium's --proxy-server. */
  url: string;
  user: string | null;
  pass: string | null;
}

export interface BrowserSettings {
  chromiumPath: string;
  /** Chromium refuses to run as root without --no-sandbox (containers). */
  runningAsRoot: boolean;
  proxy: ChannelProxy | null;
}

/** Puppeteer launch options and the client options that depend on the browser. */
export function browserOptions(
  settings: BrowserSettings,
): Pick<WAWebJS.ClientOptions, 'puppeteer' | 'proxyAuthentication'> {
  const args = ['--disable-dev-shm-usage', '--disable-gpu', '--no-first-run', '--no-default-browser-check'];
  if (settings.runningAsRoot) args.push('--no-sandbox', '--disable-setuid-sandbox');
  const proxy = settings.proxy;
  if (proxy) args.push(`--proxy-server=${proxy.url}`);
  return {
    puppeteer: { executablePath: settings.chromiumPath, headless: true, args },
    ...(proxy?.user ? { proxyAuthentication: { username: proxy.user, password: proxy.pass ?? '' } } : {}),
  };
}
