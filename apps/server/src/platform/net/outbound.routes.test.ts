/**
 * SSRF through the routes: URLs a tenant controls (a chat flow's media, a Messenger attachment in a webhook signed
 * with the company's own secret, an Evolution or Wuzapi gateway's base URL) pointing at refused addresses are never
 * fetched, nothing is read back, and what the tenant sees is one generic text. These apps do NOT allow loopback
 * (OUTBOUND_ALLOW empty, or only the one 127.0.0.1 server a test needs); the canary servers listen on 127.0.0.2 and
 * count every connection they get.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelDto, MessageListResponse, TicketListResponse } from '@conversa/shared';
import { botHelpers, graph, startBotKit, type BotKit } from '../../test/chatbot-kit.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import type { JobDefinition } from '../jobs/queue.js';
import { signMetaBody } from '../../modules/channels/providers/meta/meta.signature.js';
import {
  startMetaMessagingSimulator,
  type MetaMessagingSimulator,
} from '../../modules/channels/providers/meta-messaging/meta-messaging.simulator.js';
import { OUTBOUND_FAILED_MESSAGE } from './safe-fetch.js';

interface Canary {
  url: string;
  port: number;
  connections: number;
  requests: { url: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** A server that must never be reached (or, on 127.0.0.1, one that answers 404 to everything). */
async function canaryOn(host: string): Promise<Canary> {
  const state: Canary = { url: '', port: 0, connections: 0, requests: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    state.requests.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('SECRET-INTERNAL-PAGE');
  });
  server.on('connection', () => (state.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://${host}:${state.port}`;
  state.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

let canary: Canary;
beforeAll(async () => {
  canary = await canaryOn('127.0.0.2');
});
afterAll(async () => {
  await canary.close();
});

describe('a chat flow MediaField URL (sent as bytes on Telegram)', () => {
  let kit: BotKit;
  let notFound: Canary;
  const h = botHelpers(() => kit);
  let chat = 880000100;

  beforeAll(async () => {
    notFound = await canaryOn('127.0.0.1');
    // Only the 404 server is allowed: the test can tell "answered 404" from "refused" apart only by the text.
    kit = await startBotKit({ OUTBOUND_ALLOW: `127.0.0.1/32` });
  });
  afterAll(async () => {
    await kit.close();
    await notFound.close();
  });

  async function sendFlowMedia(mediaUrl: string) {
    const flow = await h.createFlow(
      graph({}, [
        {
          id: 'files',
          interactions: [{ id: 'img', type: 'MediaField', data: { mediaUrl, type: 'image', caption: 'Tabela' } }],
          conditions: [{ type: 'R', action: 4 }],
        },
      ]),
    );
    await h.setChannelFlow(flow.id);
    chat += 1;
    await h.customerSays(chat, 'oi');
    await h.settle();
    const ticket = await h.ticketOf(chat);
    const history = (await kit.t.call(kit.admin, 'GET', `/messages/${ticket.id}`)).json<MessageListResponse>();
    const media = [...history.messages, ...history.messagesOffLine].find((m) => m.fromMe && m.mediaType === 'image');
    return { chat, media };
  }

  it('a refused address is never connected to; the message fails with the generic text', async () => {
    const sent = kit.sim.callsOf('sendPhoto').length;
    const errors: (string | null)[] = [];
    for (const url of [
      `${canary.url}/logo.png`,
      `http://[::ffff:127.0.0.2]:${canary.port}/logo.png`,
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://10.0.0.1/logo.png',
    ]) {
      const { media } = await sendFlowMedia(url);
      expect(media, url).toMatchObject({ isDelayed: true, ack: 0 });
      errors.push(media!.sendError);
    }
    expect(canary.connections).toBe(0);
    expect(kit.sim.callsOf('sendPhoto').length).toBe(sent);
    expect(new Set(errors)).toEqual(new Set([`media url: ${OUTBOUND_FAILED_MESSAGE}`]));
  });

  it('an allowed server answering 404 gives exactly the same text, and its page is not read back', async () => {
    const { media } = await sendFlowMedia(`${notFound.url}/missing.png`);
    expect(notFound.requests.map((r) => r.url)).toEqual(['/missing.png']);
    expect(media).toMatchObject({ isDelayed: true, sendError: `media url: ${OUTBOUND_FAILED_MESSAGE}` });
    expect(JSON.stringify(media)).not.toContain('SECRET-INTERNAL-PAGE');
  });
});

describe('a Messenger attachment URL in a webhook signed with the company secret', () => {
  const APP_SECRET = 'ssrf-app-secret';
  const PAGE = '5566778899';
  const PSID = '7009008007006005';
  const PAGE_TOKEN = 'EAAG-ssrf-page-token';
  const USER_TOKEN = 'EAAG-ssrf-user-token';
  let t: TestApp;
  let sim: MetaMessagingSimulator;
  let admin: TestUser;
  let channel: ChannelDto;
  const job = (name: string) => t.jobDefinitions.find((d) => d.name === name) as unknown as JobDefinition<unknown>;

  beforeAll(async () => {
    sim = await startMetaMessagingSimulator();
    sim.pages.set(PAGE_TOKEN, { id: PAGE, name: 'Loja', instagram: null });
    sim.users.set(USER_TOKEN, { id: '10220000000000077', pageTokens: [PAGE_TOKEN] });
    sim.profiles.set(PSID, { first_name: 'Ana', last_name: 'Lima' });
    t = await createTestApp({
      META_GRAPH_URL: sim.url,
      META_APP_SECRET: APP_SECRET,
      PUBLIC_URL: 'https://conversa.example',
      OUTBOUND_ALLOW: '',
    });
    ({ admin } = await t.createStaff());
    channel = (await t.call(admin, 'POST', '/whatsapp', { name: 'Messenger', type: 'messenger' })).json<ChannelDto>();
    const registered = await t.call(admin, 'POST', '/fb/register-pages', {
      whatsapp: channel.id,
      accountId: '10220000000000077',
      userToken: USER_TOKEN,
    });
    expect(registered.statusCode, registered.body).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await sim.close();
  });

  const attachment = (mid: string, url: string) => {
    const raw = JSON.stringify({
      object: 'page',
      entry: [
        {
          id: PAGE,
          messaging: [
            {
              sender: { id: PSID },
              recipient: { id: PAGE },
              timestamp: Date.now(),
              message: { mid, attachments: [{ type: 'image', payload: { url } }] },
            },
          ],
        },
      ],
    });
    return t.app.inject({
      method: 'POST',
      url: `/api/webhooks/messenger/${channel.id}`,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signMetaBody(raw, APP_SECRET) },
      payload: raw,
    });
  };

  it('links to refused addresses or outside Meta CDN hosts fail the media; the Graph CDN link downloads', async () => {
    sim.files.set('ok.jpg', { data: Buffer.from('JPEGDATA'), type: 'image/jpeg' });
    const links = [
      `${canary.url}/x.jpg`,
      'http://169.254.169.254/latest/meta-data/',
      `http://127.0.0.1:${canary.port}/x.jpg`,
      'https://lookaside.fbsbx.com.evil.example/x.jpg',
      `${sim.url}/cdn/ok.jpg`,
    ];
    for (const [i, url] of links.entries()) expect((await attachment(`m_ssrf_${i}`, url)).statusCode).toBe(200);
    await t.jobs.runPending(job('messages.download-media'));
    const tickets = (await t.call(admin, 'GET', '/tickets?status=pending&showAll=true')).json<TicketListResponse>();
    const history = (await t.call(admin, 'GET', `/messages/${tickets.tickets[0]!.id}`)).json<MessageListResponse>()
      .messages;
    const byMid = new Map(history.map((m) => [m.id, m]));
    expect(history.map((m) => m.mediaStatus)).toEqual(['failed', 'failed', 'failed', 'failed', 'ready']);
    for (const m of byMid.values()) if (m.mediaStatus === 'failed') expect(m.mediaUrl).toBeNull();
    expect(canary.connections).toBe(0);
  });
});

describe("a gateway's base URL (the company's Evolution remotePath)", () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://conversa.example', OUTBOUND_ALLOW: '' });
    ({ admin } = await t.createStaff());
  });
  afterAll(async () => {
    await t.close();
  });

  it('a private or metadata address is never called, so the apikey never leaves; the error says nothing', async () => {
    const answers: string[] = [];
    const targets = [
      canary.url,
      `http://127.0.0.1:${canary.port}`,
      'http://169.254.169.254',
      'http://[::ffff:10.0.0.1]:8080',
    ];
    for (const [i, [type, remotePath]] of targets
      .flatMap((url) => [
        ['evo', url],
        ['meow', url],
      ])
      .entries()) {
      const created = await t.call(admin, 'POST', '/whatsapp', {
        name: `Gateway${i}`,
        type,
        remotePath,
        tokenAPI: 'company-evolution-apikey',
      });
      expect(created.statusCode, created.body).toBe(201);
      const started = await t.call(admin, 'POST', `/whatsappsession/${created.json<ChannelDto>().id}`);
      // The provider's refusal (502 ERR_CHANNEL_PROVIDER), never a 5xx of our own making.
      expect(started.statusCode, started.body).toBe(502);
      expect(started.json()).toMatchObject({ error: 'ERR_CHANNEL_PROVIDER' });
      answers.push(started.body);
    }
    expect(canary.connections).toBe(0);
    // The same answer whatever the address: nothing to scan with.
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).not.toMatch(/127\.0\.0|169\.254|10\.0\.0|port|ECONNREFUSED/);
  });

  it("the operator's OUTBOUND_ALLOW admits a gateway on a private network, on any port", async () => {
    const allowed = await createTestApp({ PUBLIC_URL: 'https://conversa.example', OUTBOUND_ALLOW: '127.0.0.2/32' });
    try {
      const { admin: owner } = await allowed.createStaff();
      const created = await allowed.call(owner, 'POST', '/whatsapp', {
        name: 'Privada',
        type: 'evo',
        remotePath: canary.url,
        tokenAPI: 'company-evolution-apikey',
      });
      await allowed.call(owner, 'POST', `/whatsappsession/${created.json<ChannelDto>().id}`);
      expect(canary.requests.length).toBeGreaterThan(0);
      expect(canary.requests[0]!.headers.apikey).toBe('company-evolution-apikey');
    } finally {
      await allowed.close();
    }
  });
});
