/** What the global setup hands to every spec file (vitest `provide` / `inject`). */
import { inject } from 'vitest';

export interface E2eContext {
  /** http://127.0.0.1:<port>, the built server serving web + API. */
  baseUrl: string;
  /** The server's port (browser contexts reach it through their own client address). */
  port: number;
  /** The server's DATA_DIR (its secrets.json holds the captcha secret). */
  dataDir: string;
  /** Where the local SMTP server stores each message it receives. */
  mailDir: string;
  captchaSecret: string;
  /** An access token of the seeded superadmin (tenant 1), for arranging data through the API. */
  superadminToken: string;
  /** The local Telegram Bot API simulator the server talks to (support/telegram.ts drives it). */
  telegramApiRoot: string;
  /** The Baileys simulator (WhatsApp as the server's fake Baileys sockets see it; support/whatsapp.ts drives it). */
  whatsappSimulatorUrl: string;
  /** The Graph API simulator (WhatsApp Cloud API) behind the server's META_GRAPH_URL; support/waba.ts drives it. */
  graphSimulatorUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: E2eContext;
  }
}

export const e2eContext = (): E2eContext => inject('e2e');
