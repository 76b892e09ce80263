/** A socket stand-in: records the handlers realtime-sync registers and lets a test emit server events into them. */
import type { AppSocket } from '../lib/socket';

type Handler = (...args: unknown[]) => void;

/** Several listeners may share an event (as on a real socket); `handlers` lists the events still listened to. */
export function fakeSocket() {
  const handlers = new Map<string, Set<Handler>>();
  const socket = {
    on: (event: string, handler: Handler) => {
      const set = handlers.get(event) ?? new Set<Handler>();
      set.add(handler);
      handlers.set(event, set);
    },
    off: (event: string, handler?: Handler) => {
      const set = handlers.get(event);
      if (!set) return;
      if (handler) set.delete(handler);
      else set.clear();
      if (set.size === 0) handlers.delete(event);
    },
  };
  return {
    socket: socket as unknown as AppSocket,
    emit: (event: string, ...args: unknown[]) => {
      for (const handler of [...(handlers.get(event) ?? [])]) handler(...args);
    },
    handlers,
  };
}
