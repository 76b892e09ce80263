/**
 * The seam where the Baileys socket is created: the subset of baileys' WASocket the driver uses, the factory type, and
 * `loadBaileysSocketFactory`, which selects a replacement module (the test fake) by configuration. Production uses the
 * library's own `makeWASocket`.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  AnyMessageContent,
  BaileysEventMap,
  Contact,
  GroupMetadata,
  MiscMessageGenerationOptions,
  UserFacingSocketConfig,
  WAMessage,
  WAMessageKey,
} from 'baileys';
import type { Config } from '../../../../config.js';

/** What the driver calls on a socket; baileys' WASocket satisfies it (checked in baileys.driver.ts). */
export interface BaileysSocket {
  ev: {
    on<T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void): void;
    removeAllListeners<T extends keyof BaileysEventMap>(event: T): void;
  };
  readonly user: Contact | undefined;
  sendMessage(
    jid: string,
    content: AnyMessageContent,
    options?: MiscMessageGenerationOptions,
  ): Promise<WAMessage | undefined>;
  readMessages(keys: WAMessageKey[]): Promise<void>;
  rejectCall(callId: string, callFrom: string): Promise<void>;
  onWhatsApp(...phoneNumber: string[]): Promise<{ jid: string; exists: boolean }[] | undefined>;
  profilePictureUrl(jid: string, type?: 'preview' | 'image', timeoutMs?: number): Promise<string | undefined>;
  groupMetadata(jid: string): Promise<GroupMetadata>;
  groupFetchAllParticipating(): Promise<{ [jid: string]: GroupMetadata }>;
  /** Asks the phone for `count` messages older than the given one; they arrive as messaging-history.set (ON_DEMAND). */
  fetchMessageHistory(count: number, oldestMsgKey: WAMessageKey, oldestMsgTimestamp: number): Promise<string>;
  requestPairingCode(phoneNumber: string, customPairingCode?: string): Promise<string>;
  /** Unlinks the device, then ends the socket with DisconnectReason.loggedOut. */
  logout(msg?: string): Promise<void>;
  /** Ends the socket (a `connection.update` close with this error follows). */
  end(error: Error | undefined): Promise<void>;
  signalRepository: { lidMapping: { getPNForLID(lid: string): Promise<string | null> } };
}

/** Which channel a socket is for: the real library ignores it; the fake tells the simulator. */
export interface SocketHint {
  channelId: number;
}

export type MakeBaileysSocket = (config: UserFacingSocketConfig, hint: SocketHint) => BaileysSocket;

/** What a replacement module (BAILEYS_SOCKET_MODULE) exports: baileys' makeWASocket, plus where to find its server. */
export interface BaileysSocketModule {
  makeWASocket(config: UserFacingSocketConfig & { channelId: number; simulatorUrl?: string }): BaileysSocket;
}

/**
 * The socket factory the configuration asks for: undefined (the driver then uses baileys' makeWASocket) unless
 * BAILEYS_SOCKET_MODULE names a module to load instead (a test hook: the fake socket in the built server), which gets
 * the channel id and BAILEYS_SIMULATOR_URL with every socket config.
 */
export async function loadBaileysSocketFactory(
  config: Pick<Config, 'baileysSocketModule' | 'baileysSimulatorUrl'>,
): Promise<MakeBaileysSocket | undefined> {
  if (!config.baileysSocketModule) return undefined;
  const loaded = (await import(
    pathToFileURL(path.resolve(config.baileysSocketModule)).href
  )) as Partial<BaileysSocketModule>;
  const make = loaded.makeWASocket;
  if (typeof make !== 'function') {
    throw new Error(`BAILEYS_SOCKET_MODULE ${config.baileysSocketModule} does not export makeWASocket`);
  }
  const simulatorUrl = config.baileysSimulatorUrl;
  return (socketConfig, hint) => make({ ...socketConfig, channelId: hint.channelId, simulatorUrl });
}
