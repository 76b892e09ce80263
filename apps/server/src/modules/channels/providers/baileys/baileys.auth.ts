/**
 * Baileys' AuthenticationState over the session's AuthStateStore (encrypted rows per channel; never a local folder).
 * Values are JSON with the library's BufferJSON (keys and Uint8Arrays survive); keys are `creds` and `<type>-<id>` for
 * the signal key store. Writes issued in the same turn of the event loop (a `creds.update` and the key sets of one
 * library transaction) go to the store as one write, in order: a later batch never overtakes an earlier one.
 */
import { BufferJSON, initAuthCreds, proto, type AuthenticationCreds, type AuthenticationState } from 'baileys';
import type { SignalDataTypeMap } from 'baileys';
import type { AuthStateStore } from '../../sessions/session-driver.js';

export const CREDS_KEY = 'creds';

export interface BaileysAuth {
  state: AuthenticationState;
  /** Persists the current creds (call on every `creds.update`, after the library merged it). */
  saveCreds(): Promise<void>;
  /** Resolves when every write issued so far is stored. */
  flush(): Promise<void>;
}

const serialize = (value: unknown) => JSON.stringify(value, BufferJSON.replacer);
const parse = (text: string): unknown => JSON.parse(text, BufferJSON.reviver) as unknown;

/** Coalesces the writes of one event-loop turn into one store write; batches are written one after another. */
function writeBatcher(store: AuthStateStore) {
  let pending = new Map<string, string | null>();
  let scheduled: Promise<void> | null = null;
  let tail: Promise<void> = Promise.resolve();
  return {
    write(entries: Map<string, string | null>): Promise<void> {
      for (const [key, value] of entries) pending.set(key, value);
      if (!scheduled) {
        const batch = tail
          .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
          .then(() => {
            const entriesNow = pending;
            pending = new Map();
            scheduled = null;
            return store.write(entriesNow);
          });
        scheduled = batch;
        tail = batch.catch(() => undefined);
      }
      return scheduled;
    },
    flush: () => tail,
  };
}

export async function loadBaileysAuth(store: AuthStateStore): Promise<BaileysAuth> {
  const stored = (await store.read([CREDS_KEY])).get(CREDS_KEY);
  const creds = stored ? (parse(stored) as AuthenticationCreds) : initAuthCreds();
  const batcher = writeBatcher(store);

  const state: AuthenticationState = {
    creds,
    keys: {
      async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
        const found = await store.read(ids.map((id) => `${type}-${id}`));
        const result: { [id: string]: SignalDataTypeMap[T] } = {};
        for (const id of ids) {
          const text = found.get(`${type}-${id}`);
          if (text === undefined) continue;
          let value = parse(text);
          if (type === 'app-state-sync-key' && value) {
            value = proto.Message.AppStateSyncKeyData.fromObject(value as Record<string, unknown>);
          }
          result[id] = value as SignalDataTypeMap[T];
        }
        return result;
      },
      async set(data) {
        const entries = new Map<string, string | null>();
        for (const [type, values] of Object.entries(data)) {
          for (const [id, value] of Object.entries(values ?? {})) {
            entries.set(`${type}-${id}`, value === null || value === undefined ? null : serialize(value));
          }
        }
        if (entries.size) await batcher.write(entries);
      },
      async clear() {
        await batcher.flush();
        await store.clear();
      },
    },
  };

  return {
    state,
    saveCreds: () => batcher.write(new Map([[CREDS_KEY, serialize(state.creds)]])),
    flush: () => batcher.flush(),
  };
}
