/**
 * Outbound e-mail over real SMTP (nodemailer) when SMTP_URL is set; otherwise each message is written to
 * DATA_DIR/outbox as an .eml file (mode 600), so a fresh install can still follow a reset link. The log names the
 * file but never the body: a reset link is a credential, and logs travel further than the data folder.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export function createMailer(options: {
  smtpUrl?: string | undefined;
  from: string;
  dataDir: string;
  logger: Logger;
}): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: options.from, ...message });
      },
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await stream.sendMail({ from: options.from, ...message });
      await fs.mkdir(outbox, { recursive: true });
      const file = path.join(outbox, `${Date.now()}-${message.to.replace(/[^a-z0-9@.-]/gi, '_')}.eml`);
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      options.logger.info({ to: message.to, subject: message.subject, file }, 'e-mail written to outbox');
    },
  };
}
