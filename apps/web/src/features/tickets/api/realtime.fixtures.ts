/**
 * Tests start the tickets feature's handlers as the app does (src/app/realtime-handlers.ts, whose own test checks that
 * the session registers `ticketsRealtimeHandlers`): registered, then the live session of lib/realtime-sync.ts.
 */
import type { QueryClient } from '@tanstack/react-query';
import { registerRealtimeHandler } from '../../../lib/realtime-registry';
import { startRealtimeSync } from '../../../lib/realtime-sync';
import type { AppSocket } from '../../../lib/socket';
import { ticketsRealtimeHandlers } from './realtime';

const running = new Set<() => void>();

export function startTicketsLive(socket: AppSocket, queryClient: QueryClient, T: number): () => void {
  const unregister = ticketsRealtimeHandlers.map((handler) => registerRealtimeHandler(handler));
  const stopSync = startRealtimeSync(socket, queryClient, T);
  const stop = () => {
    running.delete(stop);
    stopSync();
    for (const off of unregister) off();
  };
  running.add(stop);
  return stop;
}

/** For afterEach: a test that did not stop its session must not leave the registry live for the next one. */
export function stopTicketsLive(): void {
  for (const stop of [...running]) stop();
}
