/**
 * The provider clients' file downloads keep to their host lists: a webhook's link on another host is refused before
 * it is resolved, while the same server under a listed CDN name is reached. Names are answered by a stub resolver
 * with a loopback canary address (allowed), so what refuses is the host list, never the address.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAvatarFetch } from '../../modules/contacts/contacts.avatars.fetch.js';
import { createHubClient } from '../../modules/channels/providers/hub/hub.client.js';
import { createGraphClient } from '../../modules/channels/providers/meta-messaging/meta-messaging.client.js';
import { parseOutboundAllow } from './address-policy.js';
import { createOutboundFetch, type Resolver } from './safe-fetch.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
let server: http.Server;
let port: number;
let hits: string[] = [];
const resolved: string[] = [];

const resolver: Resolver = async (host) => {
  resolved.push(host);
  return [{ address: '127.0.0.2', family: 4 }];
};
const fetcher = createOutboundFetch({
  policy: { allow: parseOutboundAllow('127.0.0.2/32'), trustedOrigins: [] },
  resolver,
});

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(`${req.headers.host}${req.url}`);
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(PNG);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const reset = () => {
  hits = [];
  resolved.length = 0;
};

describe('provider file links keep to their hosts', () => {
  it('Messenger/Instagram attachments: Meta CDN hosts only', async () => {
    reset();
    const graph = createGraphClient('https://graph.facebook.com', { fetch: fetcher });
    for (const host of ['evil.example', 'fbcdn.net.evil.example', 'graph.facebook.com.evil.example']) {
      await expect(graph.download(`http://${host}:${port}/a.jpg`, 1000), host).rejects.toMatchObject({
        permanent: true,
        message: 'meta download: the address could not be fetched',
      });
    }
    expect(resolved).toEqual([]);
    expect(hits).toEqual([]);
    const file = await graph.download(`http://scontent.xx.fbcdn.net:${port}/a.jpg`, 1000);
    expect(file.data.equals(PNG)).toBe(true);
    expect(hits).toEqual([`scontent.xx.fbcdn.net:${port}/a.jpg`]);
  });

  it('hub files: the hub and Meta hosts only', async () => {
    reset();
    const hub = createHubClient('https://hub.notificame.com.br/v1', { fetch: fetcher });
    await expect(hub.download(`http://evil.example:${port}/f.pdf`, 1000)).rejects.toMatchObject({ permanent: true });
    expect(hits).toEqual([]);
    await hub.download(`http://files.notificame.com.br:${port}/f.pdf`, 1000);
    await hub.download(`http://cdn.fbsbx.com:${port}/v/f.pdf`, 1000);
    expect(hits).toEqual([`files.notificame.com.br:${port}/f.pdf`, `cdn.fbsbx.com:${port}/v/f.pdf`]);
  });

  it("contact pictures: WhatsApp's CDN only (https), and its address is checked too", async () => {
    reset();
    const strictFetch = createOutboundFetch({ resolver });
    const avatars = createAvatarFetch({ fetch: strictFetch });
    // On the list but resolving to a loopback address without the allow-list: refused, never reached.
    await expect(avatars(`https://pps.whatsapp.net:${port}/p.jpg`)).rejects.toThrow(/127\.0\.0\.2/);
    await expect(avatars(`https://evil.example/p.jpg`)).rejects.toThrow(/host not allowed/);
    expect(hits).toEqual([]);
  });
});
