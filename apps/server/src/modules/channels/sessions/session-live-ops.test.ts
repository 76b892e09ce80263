/**
 * The live operations' routing for gateways (Evolution, Wuzapi): a channel whose adapter offers GatewayLive runs every
 * operation on the requesting node over the gateway, never through a session's owner; its fetched history goes to
 * ingestion (messages only) in the background; what the gateway lacks is ERR_CHANNEL_TYPE_UNSUPPORTED.
 */
import { describe, expect, it } from 'vitest';
import type { JobQueue } from '../../../platform/jobs/queue.js';
import type { GatewayLive, InboundEvent } from '../channels.adapter.js';
import { SessionNotRunningError, type SessionAction } from './session-actions.js';
import type { LiveSession } from './session-driver.js';
import { createLiveOps, type GatewayChannel } from './session-live-ops.js';

const GATEWAY = 7;
const STATEFUL = 8;

const message = (id: string): InboundEvent => ({
  kind: 'message',
  providerMessageId: id,
  party: { chatId: '5511988887777', isGroup: false, name: 'Ana', number: '5511988887777', idField: 'number' },
  fromMe: false,
  timestamp: 1_700_000_000_000,
  mediaType: 'chat',
  body: id,
  media: null,
  quotedProviderMessageId: null,
});

function setup(gateway: GatewayLive, options: { sessionHere?: Partial<LiveSession> } = {}) {
  const delivered: InboundEvent[] = [];
  const hostActions: SessionAction[] = [];
  let ownerAsked = 0;
  let release: () => void = () => undefined;
  const deliveredAll = new Promise<void>((resolve) => (release = resolve));
  const channel: GatewayChannel = {
    live: gateway,
    async deliver(events) {
      delivered.push(...events);
      release();
    },
  };
  const ops = createLiveOps({
    // A gateway's operation never reaches the job queue: any use of it fails the test.
    jobs: new Proxy({} as JobQueue, {
      get: () => {
        throw new Error('the job queue was used');
      },
    }),
    host: {
      live: (id) => (id === STATEFUL && options.sessionHere ? (options.sessionHere as LiveSession) : null),
      act: async (action) => {
        hostActions.push(action);
        return { exists: false, number: null };
      },
    },
    ownerAlive: async () => {
      ownerAsked += 1;
      return false;
    },
    gateway: async (id) => (id === GATEWAY ? channel : null),
    timeoutMs: 1_000,
  });
  return { ops, delivered, deliveredAll, hostActions, ownerAsked: () => ownerAsked };
}

describe('live operations on a gateway', () => {
  const members = [{ number: '5511911110001', name: 'Ana', isAdmin: true }];
  const full: GatewayLive = {
    checkNumber: async (number) => ({ exists: number.endsWith('1'), number: number.endsWith('1') ? number : null }),
    groupParticipants: async (groupId) => (groupId === '1203@g.us' ? members : []),
    listGroups: async () => [{ id: '1203@g.us', subject: 'Team', participants: 1 }],
    listContacts: async () => [{ number: '5511911110001', name: 'Ana' }],
    fetchHistory: async () => [
      message('old-1'),
      { kind: 'ack', providerMessageId: 'old-1', ack: 3, timestamp: 1 },
      message('old-2'),
    ],
    sendMention: async (to, body, mentions) => ({
      providerMessageId: `${to}:${mentions.join(',')}:${body}`,
      ack: 1,
      timestamp: 5,
    }),
  };

  it('runs each operation on the gateway, never asking for a session owner', async () => {
    const { ops, ownerAsked } = setup(full);
    expect(await ops.run({ op: 'groupParticipants', channelId: GATEWAY, groupId: '1203@g.us' })).toEqual(members);
    expect(await ops.run({ op: 'listGroups', channelId: GATEWAY })).toEqual([
      { id: '1203@g.us', subject: 'Team', participants: 1 },
    ]);
    expect(await ops.run({ op: 'listContacts', channelId: GATEWAY })).toEqual([
      { number: '5511911110001', name: 'Ana' },
    ]);
    expect(
      await ops.run({
        op: 'sendMention',
        channelId: GATEWAY,
        to: '1203@g.us',
        body: 'hi',
        mentions: ['5511911110001'],
      }),
    ).toMatchObject({ providerMessageId: '1203@g.us:5511911110001:hi' });
    expect(
      await ops.run({ op: 'checkNumbers', channelId: GATEWAY, numbers: ['5511911110001', '5511911110002'] }),
    ).toEqual([
      { number: '5511911110001', failed: false, check: { exists: true, number: '5511911110001' } },
      { number: '5511911110002', failed: false, check: { exists: false, number: null } },
    ]);
    expect(await ops.run({ op: 'capabilities', channelId: GATEWAY })).toEqual({
      groupParticipants: true,
      listGroups: true,
      listContacts: true,
      requestHistory: true,
      sendMention: true,
    });
    expect(ownerAsked()).toBe(0);
  });

  it('hands the fetched messages (not other events) to ingestion and answers how many were fetched', async () => {
    const { ops, delivered, deliveredAll } = setup(full);
    expect(await ops.run({ op: 'requestHistory', channelId: GATEWAY, chatId: '5511988887777', limit: 10 })).toBe(2);
    await deliveredAll;
    expect(delivered.map((e) => (e.kind === 'message' ? e.providerMessageId : e.kind))).toEqual(['old-1', 'old-2']);
  });

  it("checks one number on the gateway (act), and a session's number on the session host", async () => {
    const { ops, hostActions } = setup(full);
    expect(await ops.act({ op: 'checkNumber', channelId: GATEWAY, number: '5511911110001' })).toEqual({
      exists: true,
      number: '5511911110001',
    });
    expect(hostActions).toEqual([]);
    await ops.act({ op: 'checkNumber', channelId: STATEFUL, number: '5511911110001' });
    expect(hostActions).toEqual([{ op: 'checkNumber', channelId: STATEFUL, number: '5511911110001' }]);
  });

  it('answers ERR_CHANNEL_TYPE_UNSUPPORTED for what the gateway lacks, in run and local alike', async () => {
    const { ops } = setup({ checkNumber: full.checkNumber });
    await expect(ops.run({ op: 'listGroups', channelId: GATEWAY })).rejects.toMatchObject({
      name: 'LiveOpUnsupportedError',
      message: 'ERR_CHANNEL_TYPE_UNSUPPORTED',
    });
    await expect(
      ops.local({ op: 'sendMention', channelId: GATEWAY, to: '1203@g.us', body: 'x', mentions: [] }),
    ).rejects.toMatchObject({ name: 'LiveOpUnsupportedError' });
    expect(await ops.run({ op: 'capabilities', channelId: GATEWAY })).toEqual({
      groupParticipants: false,
      listGroups: false,
      listContacts: false,
      requestHistory: false,
      sendMention: false,
    });
  });

  it('runs a mention send of a gateway from any worker (local), and a session that runs nowhere is not running', async () => {
    const { ops } = setup(full);
    expect(
      await ops.local({
        op: 'sendMention',
        channelId: GATEWAY,
        to: '1203@g.us',
        body: 'b',
        mentions: ['5511911110001'],
      }),
    ).toMatchObject({ providerMessageId: '1203@g.us:5511911110001:b' });
    await expect(ops.local({ op: 'listGroups', channelId: STATEFUL })).rejects.toBeInstanceOf(SessionNotRunningError);
    await expect(ops.run({ op: 'listGroups', channelId: STATEFUL })).rejects.toBeInstanceOf(SessionNotRunningError);
  });
});
