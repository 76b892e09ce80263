/**
 * A local stand-in for the Telegram Bot API (tests only): answers the methods the adapter calls, records every call,
 * serves files, and can be told to fail a method. No network in tests: TELEGRAM_API_ROOT points here.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFields } from '../../providers/simulator-body.js';

export interface SimulatedCall {
  token: string;
  method: string;
  /** JSON body, or the multipart fields (files as `{ name, type, size, text }`). */
  params: Record<string, unknown>;
}

export interface TelegramSimulator {
  url: string;
  calls: SimulatedCall[];
  /** Tokens the simulator knows; any other gets 401 Unauthorized. */
  bots: Map<string, { id: number; username: string }>;
  files: Map<string, { path: string; data: Buffer; type: string }>;
  /** Milliseconds every call of a method waits before it is answered (a slow provider: crash tests). */
  delays: Map<string, number>;
  /** The next call of `method` answers this error. */
  failNext(method: string, error: { error_code: number; description: string }): void;
  callsOf(method: string): SimulatedCall[];
  close(): Promise<void>;
}

export async function startTelegramSimulator(): Promise<TelegramSimulator> {
  const calls: SimulatedCall[] = [];
  const bots = new Map<string, { id: number; username: string }>();
  const files = new Map<string, { path: string; data: Buffer; type: string }>();
  const failures = new Map<string, { error_code: number; description: string }>();
  const delays = new Map<string, number>();
  let nextMessageId = 1000;

  function answer(method: string, params: Record<string, unknown>, bot: { id: number; username: string }): unknown {
    if (method === 'getMe') return { id: bot.id, is_bot: true, first_name: 'Bot', username: bot.username };
    if (method === 'getFile') {
      const file = files.get(String(params.file_id));
      return file ? { file_id: params.file_id, file_path: file.path, file_size: file.data.length } : undefined;
    }
    if (method.startsWith('send')) return { message_id: nextMessageId++, date: 1_763_700_000, chat: { id: 1 } };
    return true;
  }

  /**
   * A control surface for tests in another process (the e2e suite runs the server and this simulator apart from its
   * specs): `POST /__simulator/bots` {token, id, username} adds a bot; `GET /__simulator/calls?method=` lists calls.
   */
  function control(req: http.IncomingMessage, url: string, send: (status: number, payload: unknown) => void): void {
    const { pathname, searchParams } = new URL(url);
    if (req.method === 'GET' && pathname === '/__simulator/calls') {
      const method = searchParams.get('method');
      return send(200, method ? calls.filter((call) => call.method === method) : calls);
    }
    if (req.method === 'POST' && pathname === '/__simulator/bots') {
      void readFields(req, url).then((params) => {
        bots.set(String(params.token), { id: Number(params.id), username: String(params.username) });
        send(200, { ok: true });
      });
      return;
    }
    send(404, { ok: false });
  }

  const server = http.createServer((req, res) => {
    const url = `http://local${req.url ?? '/'}`;
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    };
    if (req.url?.startsWith('/__simulator/')) return void control(req, url, send);
    const fileMatch = /^\/file\/bot([^/]+)\/(.+)$/.exec(req.url ?? '');
    if (req.method === 'GET' && fileMatch) {
      const file = [...files.values()].find((f) => f.path === fileMatch[2]);
      if (!file || !bots.has(fileMatch[1]!)) return void res.writeHead(404).end();
      return void res.writeHead(200, { 'content-type': file.type }).end(file.data);
    }
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
    if (!match) return send(404, { ok: false, error_code: 404, description: 'Not Found' });
    const [, token, method] = match as unknown as [string, string, string];
    void readFields(req, url).then(async (params) => {
      const delay = delays.get(method);
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
      calls.push({ token, method, params });
      const bot = bots.get(token);
      if (!bot) return send(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      const failure = failures.get(method);
      if (failure) {
        failures.delete(method);
        return send(failure.error_code, { ok: false, ...failure });
      }
      const result = answer(method, params, bot);
      if (result === undefined)
        return send(400, { ok: false, error_code: 400, description: 'Bad Request: invalid file_id' });
      return send(200, { ok: true, result });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    bots,
    files,
    delays,
    failNext: (method, error) => void failures.set(method, error),
    callsOf: (method) => calls.filter((call) => call.method === method),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
