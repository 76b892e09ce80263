/**
 * The 24-hour customer-service window of an official channel (waba, messenger, instagram; decisions of issue 15):
 * open until 24 h after the customer's last message on that channel. The server's `customerWindow.until` covers the
 * contact's earlier tickets on the channel; realtime updates of the ticket do not carry it, so the chat also counts
 * from the newest customer message it knows (`lastMessageReceived`, the newest received bubble) and keeps the latest
 * of them. A timer closes the window by itself when `until` passes.
 */
import { useEffect, useState } from 'react';
import { CUSTOMER_WINDOW_MS, META_CHANNEL_TYPES, type TicketDto } from '@conversa/shared';

export type WindowChannel = (typeof META_CHANNEL_TYPES)[number];

/** Under this much time left the indicator warns that the window is about to close. */
export const WINDOW_EXPIRING_MS = 60 * 60 * 1000;

export interface CustomerWindow {
  channel: WindowChannel;
  /** Epoch ms; null when the customer never wrote. */
  until: number | null;
  open: boolean;
  /** Time left (ms), 0 when closed. */
  left: number;
  expiring: boolean;
}

export const windowChannelOf = (type: string | null | undefined): WindowChannel | null =>
  (META_CHANNEL_TYPES as readonly string[]).includes(type ?? '') ? (type as WindowChannel) : null;

const epochOf = (iso: string | null | undefined): number | null => {
  if (!iso) return null;
  const value = Date.parse(iso);
  return Number.isFinite(value) ? value : null;
};

/**
 * When the customer wrote a received message (ISO): the provider's time (`timestamp`), never after its arrival
 * (`createdAt`), as the server counts the window: a message delivered late does not reopen it.
 */
export function customerWroteAt(message: { timestamp: number | null; createdAt: string }): string {
  const arrived = Date.parse(message.createdAt);
  if (message.timestamp === null || !Number.isFinite(arrived)) return message.createdAt;
  return new Date(Math.min(message.timestamp, arrived)).toISOString();
}

export interface WindowSources {
  /** `customerWindow.until` of the last `GET /tickets/{id}` answer that carried one (ISO). */
  serverUntil: string | null;
  /** `ticket.lastMessageReceived` (epoch ms of the customer's last message). */
  lastMessageReceived: number | null;
  /** When the customer wrote the newest message received in the chat (ISO, customerWroteAt), if any. */
  lastIncomingAt: string | null;
}

/** The window's end: the latest of the server's `until` and 24 h after each known customer message. */
export function windowUntil({ serverUntil, lastMessageReceived, lastIncomingAt }: WindowSources): number | null {
  const incoming = epochOf(lastIncomingAt);
  const candidates = [
    epochOf(serverUntil),
    lastMessageReceived ? lastMessageReceived + CUSTOMER_WINDOW_MS : null,
    incoming === null ? null : incoming + CUSTOMER_WINDOW_MS,
  ].filter((value): value is number => value !== null);
  return candidates.length > 0 ? Math.max(...candidates) : null;
}

export function customerWindowAt(channel: WindowChannel, until: number | null, now: number): CustomerWindow {
  const left = until === null ? 0 : Math.max(0, until - now);
  return { channel, until, open: left > 0, left, expiring: left > 0 && left <= WINDOW_EXPIRING_MS };
}

/** "5 h 12 min" / "12 min" / "< 1 min" parts of the time left. */
export function remainingParts(ms: number): { hours: number; minutes: number } {
  const totalMinutes = Math.floor(ms / 60_000);
  return { hours: Math.floor(totalMinutes / 60), minutes: totalMinutes % 60 };
}

/** How often the clock of the indicator moves (a minute is the precision shown). */
const TICK_MS = 30_000;

/**
 * The window of the ticket, live: the clock moves every half minute and exactly when `until` passes, so the indicator
 * closes by itself. Null for tickets of other channel types.
 */
export function useCustomerWindow(ticket: TicketDto | undefined, lastIncomingAt: string | null): CustomerWindow | null {
  const channel = windowChannelOf(ticket?.whatsapp?.type);
  // The server's `until` outlives realtime replacements of the cached ticket (their payload has no customerWindow).
  const [known, setKnown] = useState<{ ticketId: number; until: string | null }>({ ticketId: 0, until: null });
  const fresh = ticket?.customerWindow?.until ?? null;
  if (ticket && (known.ticketId !== ticket.id || (fresh !== null && fresh !== known.until))) {
    setKnown({ ticketId: ticket.id, until: fresh ?? (known.ticketId === ticket.id ? known.until : null) });
  }
  const serverUntil = ticket && known.ticketId === ticket.id ? known.until : fresh;
  const until = channel
    ? windowUntil({ serverUntil, lastMessageReceived: ticket?.lastMessageReceived ?? null, lastIncomingAt })
    : null;

  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!channel) return;
    const tick = () => setNow(Date.now());
    const interval = setInterval(tick, TICK_MS);
    // And exactly when `until` passes (at once when it already has: the shown clock may be up to a tick behind).
    const exact = until === null ? undefined : setTimeout(tick, Math.max(0, until - Date.now()));
    return () => {
      clearInterval(interval);
      clearTimeout(exact);
    };
  }, [channel, until]);

  return channel ? customerWindowAt(channel, until, now) : null;
}
