/**
 * The driver with the real library and the system chromium (no fake): a stored session is extracted by RemoteAuth
 * into the browser profile before chromium starts, the browser starts with the channel's proxy, and when WhatsApp Web
 * cannot load (the proxy is a closed local port, so this never reaches the internet) the session ends as `lost` with
 * the stored session kept and the scratch folder removed. Skipped where there is no chromium.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelCredentials } from '../../channels.adapter.js';
import type { AuthStateStore, SessionCloseReason } from '../../sessions/session-driver.js';
import { MANIFEST_KEY, createRemoteSessionStore } from './wwebjs.auth.js';
import { createWwebjsDriver } from './wwebjs.driver.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const require = createRequire(import.meta.url);

interface ZipArchive {
  pipe(out: NodeJS.WritableStream): void;
  directory(dir: string, dest: false): void;
  finalize(): Promise<void>;
}
const archiver = require('archiver') as (format: 'zip') => ZipArchive;

function memoryAuth(): AuthStateStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    read: async (keys) => new Map(keys.filter((k) => data.has(k)).map((k) => [k, data.get(k)!] as const)),
    write: async (entries) => {
      for (const [k, v] of entries) {
        if (v === null) data.delete(k);
        else data.set(k, v);
      }
    },
    clear: async () => data.clear(),
  };
}

let work: string;
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

describe.skipIf(!fs.existsSync(CHROMIUM))('wwebjs driver with the real library and chromium', () => {
  it('resumes the stored session into the profile; unreachable WhatsApp Web -> lost, session kept, scratch removed', async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'wwebjs-chromium-'));
    const session = 'RemoteAuth-channel-9';
    // A session zip as RemoteAuth makes one: the profile's Default folder.
    fs.mkdirSync(path.join(work, 'profile', 'Default', 'Local Storage'), { recursive: true });
    fs.writeFileSync(path.join(work, 'profile', 'Default', 'Local Storage', 'marker'), 'stored session');
    await new Promise<void>((resolve, reject) => {
      const out = fs.createWriteStream(path.join(work, `${session}.zip`));
      out.once('close', () => resolve());
      out.once('error', reject);
      const zip = archiver('zip');
      zip.pipe(out);
      zip.directory(path.join(work, 'profile'), false);
      void zip.finalize();
    });
    const auth = memoryAuth();
    await createRemoteSessionStore(auth, { dataPath: work, canDelete: () => false }).save({ session });

    const dataDir = path.join(work, 'data');
    let extracted = false;
    const poll = setInterval(() => {
      for (const dir of fs.existsSync(dataDir) ? fs.readdirSync(dataDir) : []) {
        if (fs.existsSync(path.join(dataDir, dir, session, 'Default', 'Local Storage', 'marker'))) extracted = true;
      }
    }, 10);
    const closed = new Promise<SessionCloseReason>((resolve) => {
      void createWwebjsDriver({ dataDir, chromiumPath: CHROMIUM }).open(
        {
          id: 9,
          tenantId: 1,
          type: 'whatsapp',
          name: 'x',
          number: null,
          tokenTelegram: null,
          tokenAPI: null,
          wabaId: null,
          bmToken: null,
          wabaVersion: '20.0',
          remotePath: null,
          webhookSecret: 's',
          providerState: {},
          proxy: { url: 'http://127.0.0.1:9', user: null, pass: null },
          routing: { queueId: null, userId: null },
        } satisfies ChannelCredentials,
        {
          auth,
          pairingNumber: null,
          logger: pino({ level: 'silent' }),
          emit: async () => undefined,
          closed: resolve,
          callPolicy: async () => ({ reject: false, message: '' }),
        },
      );
    });
    const reason = await closed;
    clearInterval(poll);
    expect(reason).toBe('lost');
    expect(extracted).toBe(true);
    expect(auth.data.has(MANIFEST_KEY)).toBe(true);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  }, 60_000);
});
