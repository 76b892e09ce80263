/** A socket stand-in: records the handlers realtime-sync registers and lets a test emit server events into them. */
import type { AppSocket } from '../lib/socket';

export function fakeSocket() {
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
