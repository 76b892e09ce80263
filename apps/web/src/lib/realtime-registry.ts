/**
 * Socket handlers a feature registers for the events it owns (STYLE.md Drift 1): lib/ only dispatches, it imports no
 * feature. A handler registered while the session's socket is live starts at once; one registered before (a screen
 * mounted ahead of the shell's effect) starts when the live session does. The returned function stops it.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { AppSocket } from './socket';

/** Subscribes to the socket for tenant T; answers the function that unsubscribes. */
export type RealtimeHandler = (socket: AppSocket, queryClient: QueryClient, T: number) => () => void;

const handlers = new Map<RealtimeHandler, (() => void) | null>();
let live: { socket: AppSocket; queryClient: QueryClient; T: number } | null = null;

export function registerRealtimeHandler(handler: RealtimeHandler): () => void {
  handlers.set(handler, live ? handler(live.socket, live.queryClient, live.T) : null);
  return () => {
    handlers.get(handler)?.();
    handlers.delete(handler);
  };
}

/** Called by the live session (realtime-sync.ts): starts every registered handler until the returned stop. */
export function startRegisteredHandlers(socket: AppSocket, queryClient: QueryClient, T: number): () => void {
  live = { socket, queryClient, T };
  for (const handler of handlers.keys()) handlers.set(handler, handler(socket, queryClient, T));
  return () => {
    live = null;
    for (const [handler, stop] of handlers) {
      stop?.();
      handlers.set(handler, null);
    }
  };
}
