/**
 * The socket (client-contract §19): same origin, path /socket.io, token read at each (re)connection, websocket then
 * polling. A server-initiated disconnect reconnects, unless the server said the token is invalid: then the user is
 * told and logged out after 1 s.
 */
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@conversa/shared';
import { getFreshToken } from './api';
import { i18next } from './i18n';
import { notifyError } from './notify';
import { logout } from './session';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const INVALID_TOKEN_LOGOUT_MS = 1000;

let current: { socket: AppSocket; tenantId: number } | null = null;

export function getSocket(): AppSocket | null {
  return current?.socket ?? null;
}

export function connectSocket(tenantId: number): AppSocket {
  if (current?.tenantId === tenantId) return current.socket;
  disconnectSocket();
  const socket: AppSocket = io(import.meta.env.VITE_SOCKET_URL ?? window.location.origin, {
    path: '/socket.io',
    transports: ['websocket', 'polling'],
    auth: (callback) => {
      void getFreshToken().then((token) => callback({ token }));
    },
  });
  let tokenInvalid = false;

  socket.on('connect', () => {
    socket.emit(`${tenantId}:setUserActive`);
  });
  socket.onAny((event: string) => {
    if (tokenInvalid) return;
    if (event !== 'tokenInvalid:undefined' && event !== `tokenInvalid:${socket.id}`) return;
    tokenInvalid = true;
    notifyError(i18next.t('session.invalidToken'));
    setTimeout(() => void logout(), INVALID_TOKEN_LOGOUT_MS);
  });
  socket.on('disconnect', (reason) => {
    // socket.io does not reconnect by itself after a server-side disconnect; the spec wants it to.
    if (reason === 'io server disconnect' && !tokenInvalid) socket.connect();
  });

  current = { socket, tenantId };
  return socket;
}

export function disconnectSocket(): void {
  if (!current) return;
  current.socket.removeAllListeners();
  current.socket.disconnect();
  current = null;
}
