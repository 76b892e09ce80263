/** An in-test SessionDriver: records opens, sends and actions; QR login when no creds are stored, then CONNECTED. */
import type { OutboundMessage } from '../channels.adapter.js';
import type { LiveSession, SessionContext, SessionDriver } from './session-driver.js';

export interface FakeLive extends LiveSession {
  channelId: number;
  context: SessionContext;
  /** Whether the open found stored creds (a resume, no QR). */
  resumed: boolean;
  sent: OutboundMessage[];
  actions: string[];
  closedByHost: boolean;
  loggedOut: boolean;
}

export function fakeDriver(name: string, options: { type?: SessionDriver['type']; mediaNeedsSession?: boolean } = {}) {
  const opened: FakeLive[] = [];
  let counter = 0;
  const driver: SessionDriver = {
    type: options.type ?? 'baileys',
    mediaNeedsSession: options.mediaNeedsSession ?? false,
    async open(channel, context) {
      const creds = (await context.auth.read(['creds'])).get('creds');
      if (!creds) {
        await context.emit([{ kind: 'session', status: 'qrcode', qrcode: `QR-${name}-${channel.id}` }]);
        await context.auth.write(new Map([['creds', `creds-of-${channel.id}`]]));
      }
      await context.emit([{ kind: 'session', status: 'CONNECTED', number: '5511988887777' }]);
      const live: FakeLive = {
        channelId: channel.id,
        context,
        resumed: Boolean(creds),
        sent: [],
        actions: [],
        closedByHost: false,
        loggedOut: false,
        async send(message) {
          live.sent.push(message);
          counter += 1;
          return { providerMessageId: `${name}-msg-${counter}`, ack: 1, timestamp: Date.now() };
        },
        async edit(to, id, body) {
          live.actions.push(`edit ${to} ${id} ${body}`);
        },
        async delete(to, id) {
          live.actions.push(`delete ${to} ${id}`);
        },
        async react(to, id, emoji) {
          live.actions.push(`react ${to} ${id} ${emoji}`);
        },
        async downloadMedia(ref) {
          live.actions.push(`download ${ref}`);
          return { data: Buffer.from('media'), mime: 'image/png', name: null };
        },
        async checkNumber(number) {
          live.actions.push(`check ${number}`);
          return { exists: true, number };
        },
        async logout() {
          live.loggedOut = true;
          await context.auth.clear();
        },
        async close() {
          live.closedByHost = true;
        },
      };
      opened.push(live);
      return live;
    },
    async downloadMedia(ref) {
      return { data: Buffer.from(`media:${ref}`), mime: 'image/jpeg', name: null };
    },
  };
  return { driver, opened };
}
