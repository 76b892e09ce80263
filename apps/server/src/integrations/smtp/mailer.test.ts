import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from './mailer.js';

const received: { to: string[]; raw: string }[] = [];
let server: SMTPServer;
let port: number;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('mailer', () => {
  it('speaks SMTP to the configured server', async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'Conversa <no-reply@test.local>',
      dataDir: os.tmpdir(),
      logger: pino({ level: 'silent' }),
    });
    await mailer.send({ to: 'ana@example.com', subject: 'Olá', text: 'Link: http://x/#/reset/abc' });
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual(['ana@example.com']);
    expect(received[0]!.raw).toContain('Subject: =?UTF-8?Q?Ol=C3=A1?=');
    expect(received[0]!.raw).toContain('http://x/#/reset/abc');
  });

  it('writes to DATA_DIR/outbox without SMTP_URL', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'conversa-outbox-'));
    const mailer = createMailer({ from: 'a@b.c', dataDir, logger: pino({ level: 'silent' }) });
    await mailer.send({ to: 'bia@example.com', subject: 'Reset', text: 'hello' });
    const files = fs.readdirSync(path.join(dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    expect(fs.readFileSync(path.join(dataDir, 'outbox', files[0]!), 'utf8')).toContain('To: bia@example.com');
    expect(fs.statSync(path.join(dataDir, 'outbox', files[0]!)).mode & 0o777).toBe(0o600);
  });

  it("logs the outbox mail's recipient, subject and file, never its body or links", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'conversa-outbox-'));
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const token = '1.reset-token-that-must-not-be-logged';
    const mailer = createMailer({ from: 'a@b.c', dataDir, logger });
    await mailer.send({
      to: 'bia@example.com',
      subject: 'Redefinição de senha',
      text: `Abra https://app.example.com/#/reset/${token}`,
      html: `<a href="https://app.example.com/#/reset/${token}">Redefinir</a>`,
    });
    const [file] = fs.readdirSync(path.join(dataDir, 'outbox'));
    const log = lines.join('');
    expect(log).toContain('bia@example.com');
    expect(log).toContain('Redefinição de senha');
    expect(log).toContain(file);
    expect(log).not.toContain('reset-token-that-must-not-be-logged');
    expect(log).not.toContain('#/reset/');
  });
});
