import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { registerRealtimeHandler, startRegisteredHandlers } from './realtime-registry';
import type { AppSocket } from './socket';

const socket = {} as AppSocket;
const queryClient = new QueryClient();

describe('realtime registry', () => {
  it('starts a handler registered before the session when it starts, and stops it with the session', () => {
    const stop = vi.fn();
    const handler = vi.fn(() => stop);
    const unregister = registerRealtimeHandler(handler);
    expect(handler).not.toHaveBeenCalled();
    const end = startRegisteredHandlers(socket, queryClient, 7);
    expect(handler).toHaveBeenCalledWith(socket, queryClient, 7);
    end();
    expect(stop).toHaveBeenCalledTimes(1);
    unregister();
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('starts a handler registered during the session at once; unregistering stops it and it never restarts', () => {
    const end = startRegisteredHandlers(socket, queryClient, 3);
    const stop = vi.fn();
    const handler = vi.fn(() => stop);
    const unregister = registerRealtimeHandler(handler);
    expect(handler).toHaveBeenCalledWith(socket, queryClient, 3);
    unregister();
    expect(stop).toHaveBeenCalledTimes(1);
    end();
    startRegisteredHandlers(socket, queryClient, 3)();
    expect(handler).toHaveBeenCalledTimes(1);
    expect(stop).toHaveBeenCalledTimes(1);
  });
});
