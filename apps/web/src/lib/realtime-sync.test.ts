import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { queryKeys } from './query-keys';
import { startRealtimeSync, type OnlineTeamResponse } from './realtime-sync';
import type { AppSocket } from './socket';

function fakeSocket() {
  const handlers = new Map<string, (...args: unknown[]) => void>();
  const socket = {
    on: (event: string, handler: (...args: unknown[]) => void) => handlers.set(event, handler),
    off: (event: string) => handlers.delete(event),
  };
  return {
    socket: socket as unknown as AppSocket,
    emit: (event: string, ...args: unknown[]) => handlers.get(event)?.(...args),
    handlers,
  };
}

const member = (id: number, isOnline: boolean) => ({
  id,
  name: `User ${id}`,
  profile: 'user' as const,
  isOnline,
  count: 0,
  text: null,
  timestamp: null,
  read: null,
  senderId: null,
});

describe('realtime sync', () => {
  it('patches presence in the cached team without re-fetching', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData<OnlineTeamResponse>(queryKeys.onlineTeam, { users: [member(1, false), member(2, true)] });
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const { socket, emit } = fakeSocket();
    startRealtimeSync(socket, queryClient, 3);
    emit('3:user-online', { action: 'update', data: { userId: 1, isOnline: true, name: 'User 1' } });
    // The server's follow-up updateStatusUser brings nothing new: no re-fetch.
    emit('3:updateStatusUser');
    const team = queryClient.getQueryData<OnlineTeamResponse>(queryKeys.onlineTeam);
    expect(team?.users.map((u) => u.isOnline)).toEqual([true, true]);
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('re-reads the team on updateStatusUser and updates settings in place', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(queryKeys.settings, [{ key: 'signed', value: 'disabled' }]);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const { socket, emit, handlers } = fakeSocket();
    const stop = startRealtimeSync(socket, queryClient, 3);
    emit('3:updateStatusUser');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.onlineTeam, exact: true });
    emit('3:settings', { action: 'update', setting: { key: 'signed', value: 'enabled' } });
    expect(queryClient.getQueryData(queryKeys.settings)).toEqual([{ key: 'signed', value: 'enabled' }]);
    stop();
    expect(handlers.size).toBe(0);
  });
});
