import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { ChannelDto, ChannelSessionState } from '@conversa/shared';
import { channelFixture } from '../test/channels';
import { fakeSocket } from '../test/socket';
import { queryKeys } from './query-keys';
import { startChannelsSync, startRealtimeSync } from './realtime-sync';

const session = (id: number, overrides: Partial<ChannelSessionState> = {}): ChannelSessionState => ({
  id,
  name: `Channel ${id}`,
  number: `bot${id}`,
  status: 'CONNECTED',
  qrcode: null,
  pairingCode: null,
  retries: 0,
  updatedAt: '2025-05-06T07:08:00.000Z',
  ...overrides,
});

function setup() {
  const queryClient = new QueryClient();
  queryClient.setQueryData<ChannelDto[]>(queryKeys.channels, [channelFixture(1), channelFixture(2)]);
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
  const { socket, emit, handlers } = fakeSocket();
  const stop = startChannelsSync(socket, queryClient, 4);
  const list = () => queryClient.getQueryData<ChannelDto[]>(queryKeys.channels) ?? [];
  return { queryClient, invalidate, emit, handlers, stop, list };
}

describe('realtime sync of channels', () => {
  it('applies a session update to the cached channel in place, without re-fetching', () => {
    const { emit, invalidate, list } = setup();
    const untouched = list()[1];
    emit('4:whatsappSession', {
      action: 'update',
      session: session(1, { status: 'qrcode', qrcode: 'data:image/png;base64,AA', retries: 2 }),
    });
    expect(list()[0]).toMatchObject({
      id: 1,
      status: 'qrcode',
      qrcode: 'data:image/png;base64,AA',
      retries: 2,
      updatedAt: '2025-05-06T07:08:00.000Z',
    });
    expect(list()[1]).toBe(untouched);
    emit('4:whatsappSession', {
      action: 'update',
      session: session(1, { status: 'PAIRING', pairingCode: 'ABCD1234' }),
    });
    expect(list()[0]).toMatchObject({ status: 'PAIRING', pairingCode: 'ABCD1234' });
    emit('4:whatsappSession', { action: 'update', session: session(1, { status: 'CONNECTED', number: 'mybot' }) });
    expect(list()[0]).toMatchObject({ status: 'CONNECTED', qrcode: null, pairingCode: null, number: 'mybot' });
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('ignores other session actions, unknown statuses and channels it does not hold', () => {
    const { emit, list } = setup();
    const before = list();
    emit('4:whatsappSession', { action: 'loadingscreen', session: session(1), percent: 10 });
    emit('4:whatsappSession', { action: 'update', session: session(1, { status: 'weird' as never }) });
    emit('4:whatsappSession', { action: 'update', session: session(99) });
    expect(list()).toBe(before);
  });

  it('replaces an updated channel, appends a new one and removes a deleted one', () => {
    const { emit, invalidate, list } = setup();
    emit('4:whatsapp', { action: 'update', whatsapp: channelFixture(2, { name: 'Vendas', isDefault: true }) });
    expect(list().map((c) => c.name)).toEqual(['Channel 1', 'Vendas']);
    emit('4:whatsapp', { action: 'update', whatsapp: channelFixture(3) });
    expect(list().map((c) => c.id)).toEqual([1, 2, 3]);
    emit('4:whatsapp', { action: 'delete', whatsappId: 1 });
    expect(list().map((c) => c.id)).toEqual([2, 3]);
    // A payload that is not a channel changes nothing.
    emit('4:whatsapp', { action: 'update', whatsapp: { id: 2 } });
    expect(list()[0]?.name).toBe('Vendas');
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('leaves an unloaded list alone and stops listening when stopped', () => {
    const queryClient = new QueryClient();
    const { socket, emit, handlers } = fakeSocket();
    const stop = startRealtimeSync(socket, queryClient, 4);
    expect(handlers.has('4:whatsapp')).toBe(true);
    expect(handlers.has('4:whatsappSession')).toBe(true);
    emit('4:whatsappSession', { action: 'update', session: session(1) });
    expect(queryClient.getQueryData(queryKeys.channels)).toBeUndefined();
    stop();
    expect(handlers.has('4:whatsapp')).toBe(false);
    expect(handlers.has('4:whatsappSession')).toBe(false);
  });
});
