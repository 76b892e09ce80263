/** One place that ends a session locally: storage is cleared and listeners (socket, query cache) drop their state. */
import { clearSession } from './storage';

const listeners = new Set<() => void>();

export function onSessionEnd(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function endSession(): void {
  clearSession();
  for (const listener of listeners) listener();
}
