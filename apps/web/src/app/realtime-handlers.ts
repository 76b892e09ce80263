/**
 * The composition root of the live session: lib/realtime-sync.ts dispatches the events lib/ keeps and starts what the
 * features registered (lib/realtime-registry.ts); the handlers listed here are registered with the session itself,
 * so they are live whatever screen is mounted (the tickets feature's list rows, tab totals, badges, chat histories and
 * new-activity alerts). Screen-bound handlers (a board, a notes panel) are registered by their screens instead.
 */
import type { QueryClient } from '@tanstack/react-query';
import { ticketsRealtimeHandlers } from '../features/tickets/api/realtime';
import { registerRealtimeHandler, type RealtimeHandler } from '../lib/realtime-registry';
import { startRealtimeSync } from '../lib/realtime-sync';
import type { AppSocket } from '../lib/socket';

export const SESSION_REALTIME_HANDLERS: readonly RealtimeHandler[] = [...ticketsRealtimeHandlers];

/**
 * Registers the session's handlers, then starts the sync, which starts them with lib's own listeners in the same tick
 * as the socket is created (socket events arrive later, so none is missed). The returned function stops and
 * unregisters them.
 */
export function startLiveSync(socket: AppSocket, queryClient: QueryClient, T: number): () => void {
  const unregister = SESSION_REALTIME_HANDLERS.map((handler) => registerRealtimeHandler(handler));
  const stop = startRealtimeSync(socket, queryClient, T);
  return () => {
    stop();
    for (const off of unregister) off();
  };
}
