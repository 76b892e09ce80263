/**
 * Gives one browser context its own client address. The server limits login attempts per e-mail and per client IP
 * (a budget a minute); a suite that logs in from one address would depend on how many logins all its files make.
 * Real users come from different addresses, so each test does too: a TCP forwarder on 127.0.0.1:<port> connects to the server from a random
 * loopback address (127.x.y.z, all of 127/8 is local on Linux), which the server sees as the client IP.
 */
import crypto from 'node:crypto';
import net from 'node:net';

export interface ClientAddress {
  /** The address the server sees for this client. */
  ip: string;
  /** Base URL that reaches the server through the forwarder (use it for the browser's navigation). */
  baseUrl: string;
  close(): Promise<void>;
}

const randomLoopbackIp = (): string =>
  `127.${crypto.randomInt(1, 255)}.${crypto.randomInt(1, 255)}.${crypto.randomInt(1, 255)}`;

export async function openClientAddress(serverPort: number): Promise<ClientAddress> {
  const ip = randomLoopbackIp();
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const forwarder = net.createServer((inbound) => {
    const outbound = net.connect({ host: '127.0.0.1', port: serverPort, localAddress: ip });
    track(inbound);
    track(outbound);
    inbound.on('error', () => outbound.destroy());
    outbound.on('error', () => inbound.destroy());
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  await new Promise<void>((resolve, reject) => {
    forwarder.once('error', reject);
    forwarder.listen(0, '127.0.0.1', () => resolve());
  });
  const address = forwarder.address();
  if (address === null || typeof address === 'string') throw new Error('forwarder has no port');
  return {
    ip,
    baseUrl: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        forwarder.close(() => resolve());
      }),
  };
}
