/**
 * A local SMTP server for the suite: every message it accepts is written to a folder as JSON (envelope + raw text),
 * so test files, which run in other processes than the global setup, can read what the server sent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { waitFor } from './wait.js';

export interface StoredMail {
  from: string | null;
  to: string[];
  receivedAt: number;
  raw: string;
}

export interface MailCatcher {
  port: number;
  dir: string;
  close(): Promise<void>;
}

export async function startMailCatcher(dir: string): Promise<MailCatcher> {
  fs.mkdirSync(dir, { recursive: true });
  let sequence = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const mail: StoredMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          receivedAt: Date.now(),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        sequence += 1;
        const name = `${Date.now()}-${String(sequence).padStart(5, '0')}`;
        // Written then renamed, so a reader never sees half a file.
        const temporary = path.join(dir, `${name}.tmp`);
        fs.writeFileSync(temporary, JSON.stringify(mail));
        fs.renameSync(temporary, path.join(dir, `${name}.json`));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('SMTP server has no port');
  return {
    port: address.port,
    dir,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function readMails(dir: string): StoredMail[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as StoredMail);
}

/** Waits (polling) for a message addressed to `to`. */
export function waitForMail(dir: string, to: string, timeoutMs = 20_000): Promise<StoredMail> {
  const address = to.toLowerCase();
  return waitFor(`an e-mail to ${to}`, () => readMails(dir).find((mail) => mail.to.includes(address)), {
    timeoutMs,
    intervalMs: 250,
  });
}

// ---------- MIME, just enough to read what nodemailer sends ----------

/** Quoted-printable: soft line breaks (`=` at the end of a line) join lines; `=XX` are bytes of UTF-8 text. */
export function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function splitEntity(entity: string): { headers: Map<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(entity);
  const head = match ? entity.slice(0, match.index) : entity;
  const body = match ? entity.slice(match.index + match[0].length) : '';
  const headers = new Map<string, string>();
  // Folded header lines continue with whitespace.
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** The decoded text of every leaf part of a MIME entity (the whole message included). */
export function mailTexts(entity: string): string[] {
  const { headers, body } = splitEntity(entity);
  const contentType = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (/^multipart\//i.test(contentType) && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith('--'))
      .flatMap((part) => mailTexts(part.replace(/^\r?\n/, '')));
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '').toLowerCase();
  if (encoding === 'quoted-printable') return [decodeQuotedPrintable(body)];
  if (encoding === 'base64') return [Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')];
  return [body];
}

/** The password-reset link of a message: `http(s)://host/#/reset/<token>`, from any of its parts. */
export function findResetLink(raw: string): string | undefined {
  for (const text of mailTexts(raw)) {
    const match = /https?:\/\/[^\s"'<>]*#\/reset\/[A-Za-z0-9._~%-]+/.exec(text);
    if (match) return match[0];
  }
  return undefined;
}

/** The sign-up confirmation link of a message: `http(s)://host/#/signup/confirm/<token>`, from any of its parts. */
export function findSignupLink(raw: string): string | undefined {
  for (const text of mailTexts(raw)) {
    const match = /https?:\/\/[^\s"'<>]*#\/signup\/confirm\/[A-Za-z0-9._~%-]+/.exec(text);
    if (match) return match[0];
  }
  return undefined;
}
