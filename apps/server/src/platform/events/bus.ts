/**
 * The in-process domain event bus. Services publish after their transaction commits; listeners (realtime, later
 * webhooks) subscribe by name. Typed by the DomainEvents map each module extends.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DomainEvents {}

type Listener<K extends keyof DomainEvents> = (payload: DomainEvents[K]) => void | Promise<void>;

export interface EventBus {
  publish<K extends keyof DomainEvents>(name: K, payload: DomainEvents[K]): void;
  subscribe<K extends keyof DomainEvents>(name: K, listener: Listener<K>): () => void;
}

export function createEventBus(onError: (error: unknown, name: string) => void): EventBus {
  const listeners = new Map<string, Set<Listener<never>>>();
  return {
    publish(name, payload) {
      for (const listener of listeners.get(name as string) ?? []) {
        Promise.resolve()
          .then(() => (listener as Listener<typeof name>)(payload))
          .catch((error: unknown) => onError(error, name as string));
      }
    },
    subscribe(name, listener) {
      const set = listeners.get(name as string) ?? new Set();
      set.add(listener as Listener<never>);
      listeners.set(name as string, set);
      return () => set.delete(listener as Listener<never>);
    },
  };
}
