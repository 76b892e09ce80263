/**
 * Which instance an Evolution start connects (evolution.instance.ts), against the simulator: on the shared gateway
 * always one it creates under a name nobody chose, never an existing one; on a company's own gateway the instance of
 * that exact name (hyphens and underscores included), adopted with its token when the server exposes it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError, type ChannelCredentials } from '../../channels.adapter.js';
import { createEvolutionAdapter } from './evolution.adapter.js';
import { startEvolutionSimulator, type EvolutionSimulator } from './evolution.simulator.js';

let sim: EvolutionSimulator;
const adapter = createEvolutionAdapter({ timeoutMs: 2000 });
const URL_A = 'https://conversa.example/api/webhooks/evo/1';
const URL_B = 'https://conversa.example/api/webhooks/evo/2';

const channelOf = (id: number, wabaId: string, providerState: Record<string, unknown> = {}): ChannelCredentials => ({
  id,
  tenantId: id,
  type: 'evo',
  name: wabaId,
  number: null,
  tokenTelegram: null,
  tokenAPI: sim.apiKey,
  wabaId,
  bmToken: null,
  wabaVersion: '20.0',
  remotePath: sim.url,
  webhookSecret: `secret-of-channel-${id}-0123456789`,
  providerState,
  routing: { queueId: null, userId: null },
});

beforeAll(async () => {
  sim = await startEvolutionSimulator('sim-global-api-key', { exposeTokens: true });
});
afterAll(async () => sim.close());
beforeEach(() => void sim.calls.splice(0));

describe('on the shared gateway', () => {
  let first: Record<string, unknown>;

  it("never touches an existing instance of the channel's name: it creates its own under a random name", async () => {
    // Company A's session, connected, with its webhook.
    const a = await adapter.start(channelOf(1, 'LojaCentro'), URL_A, { sharedGateway: true });
    const nameA = a.providerState.instanceName as string;
    sim.open(nameA, '5511900000001@s.whatsapp.net');
    sim.calls.splice(0);
    // Company B names its channel like A's and starts it.
    const b = await adapter.start(channelOf(2, 'LojaCentro'), URL_B, { sharedGateway: true });
    const nameB = b.providerState.instanceName as string;
    expect(nameA).toMatch(/^LojaCentro_[0-9a-f]{20}$/);
    expect(nameB).toMatch(/^LojaCentro_[0-9a-f]{20}$/);
    expect(nameB).not.toBe(nameA);
    expect(b).toMatchObject({ status: 'qrcode', number: null });
    expect(b.providerState).toMatchObject({ instanceCreated: true, instanceGateway: sim.url });
    // Not one call of B's start named A's instance; A's webhook is A's.
    expect(sim.calls.filter((call) => call.instance === nameA || call.body.instanceName === nameA)).toEqual([]);
    expect(sim.instances.get(nameA)!.webhook!.url).toBe(URL_A);
    expect(sim.instances.get(nameB)!.webhook!.url).toBe(URL_B);
    first = b.providerState;
  });

  it('connects the instance it created before on a later start, without creating another', async () => {
    const again = await adapter.start(channelOf(2, 'LojaCentro', first), URL_B, { sharedGateway: true });
    expect(again.providerState).toEqual({ ...first, webhookUrl: URL_B });
    expect(sim.callsOf('instance/create')).toEqual([]);
    expect(sim.callsOf('instance/connectionState').map((call) => call.instance)).toEqual([first.instanceName]);
  });

  it('does not connect a recorded instance it did not create (adopted on an own gateway): a new one', async () => {
    const adopted = { ...first, instanceCreated: false };
    const started = await adapter.start(channelOf(2, 'LojaCentro', adopted), URL_B, { sharedGateway: true });
    expect(started.providerState.instanceName).not.toBe(first.instanceName);
    expect(sim.callsOf('instance/connectionState')).toEqual([]);
  });

  it('refuses when Evolution answers that the name exists (403): no webhook is set anywhere', async () => {
    sim.failNext('instance/create', 403, 'This name "x" is already in use.');
    const refused = await adapter.start(channelOf(3, 'Outra'), URL_B, { sharedGateway: true }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProviderError);
    expect(refused).toMatchObject({ permanent: true, status: 403 });
    expect(sim.callsOf('webhook/set')).toEqual([]);
  });
});

describe("on a company's own gateway", () => {
  it('adopts an existing instance by its exact name, hyphens and underscores included, with its token', async () => {
    const existing = await adapter.start(channelOf(5, 'loja-centro_2'), URL_A, { sharedGateway: true });
    const name = 'loja-centro_2';
    // An instance made outside this product under that exact name.
    sim.instances.set(name, { ...sim.instances.get(existing.providerState.instanceName as string)!, name });
    sim.instances.get(name)!.token = 'TOKEN-MADE-ELSEWHERE';
    sim.open(name, '5511900000005@s.whatsapp.net');
    sim.calls.splice(0);
    const started = await adapter.start(channelOf(5, name), URL_A);
    expect(started).toMatchObject({ status: 'CONNECTED', number: '5511900000005' });
    expect(started.providerState).toEqual({
      instanceName: name,
      instanceToken: 'TOKEN-MADE-ELSEWHERE',
      instanceCreated: false,
      instanceGateway: sim.url,
      webhookUrl: URL_A,
    });
    expect(sim.callsOf('instance/create')).toEqual([]);
    expect(sim.callsOf('webhook/set').map((call) => call.instance)).toEqual([name]);
  });

  it('creates the instance of that name when it is missing', async () => {
    const started = await adapter.start(channelOf(6, 'Filial_Sul-3'), URL_A);
    expect(started.providerState).toMatchObject({ instanceName: 'Filial_Sul-3', instanceCreated: true });
    expect(sim.callsOf('instance/create')[0]!.body).toMatchObject({ instanceName: 'Filial_Sul-3' });
  });
});
