import { describe, expect, it } from 'vitest';
import { customerWindowAt, customerWroteAt, remainingParts, windowChannelOf, windowUntil } from './customer-window';

const H = 3600_000;
const base = Date.UTC(2025, 2, 1, 12, 0, 0);

describe('customer window', () => {
  it('applies to waba, messenger and instagram only', () => {
    expect(['waba', 'messenger', 'instagram', 'whatsapp', 'telegram', undefined].map(windowChannelOf)).toEqual([
      'waba',
      'messenger',
      'instagram',
      null,
      null,
      null,
    ]);
  });

  it("ends 24 h after the newest known customer message, or at the server's until when that is later", () => {
    expect(windowUntil({ serverUntil: null, lastMessageReceived: null, lastIncomingAt: null })).toBeNull();
    expect(windowUntil({ serverUntil: null, lastMessageReceived: base, lastIncomingAt: null })).toBe(base + 24 * H);
    // A customer message newer than the server's answer (realtime) moves it forward.
    expect(
      windowUntil({
        serverUntil: new Date(base + 2 * H).toISOString(),
        lastMessageReceived: base - 30 * H,
        lastIncomingAt: new Date(base + 5 * H).toISOString(),
      }),
    ).toBe(base + 29 * H);
    // The server's until (from the contact's other ticket on the channel) wins when later.
    expect(
      windowUntil({
        serverUntil: new Date(base + 20 * H).toISOString(),
        lastMessageReceived: null,
        lastIncomingAt: null,
      }),
    ).toBe(base + 20 * H);
  });

  it('counts a received message from when the customer wrote it, never after it arrived', () => {
    const arrived = new Date(base).toISOString();
    expect(customerWroteAt({ timestamp: base - 48 * H, createdAt: arrived })).toBe(
      new Date(base - 48 * H).toISOString(),
    );
    expect(customerWroteAt({ timestamp: base + H, createdAt: arrived })).toBe(arrived);
    expect(customerWroteAt({ timestamp: null, createdAt: arrived })).toBe(arrived);
  });

  it('is open before until, expiring in its last hour, closed from until on', () => {
    expect(customerWindowAt('waba', base, base - 2 * H)).toMatchObject({ open: true, expiring: false, left: 2 * H });
    expect(customerWindowAt('waba', base, base - 59 * 60_000)).toMatchObject({ open: true, expiring: true });
    expect(customerWindowAt('waba', base, base)).toMatchObject({ open: false, expiring: false, left: 0 });
    expect(customerWindowAt('messenger', null, base)).toMatchObject({ open: false, until: null });
    expect(remainingParts(5 * H + 12 * 60_000 + 59_000)).toEqual({ hours: 5, minutes: 12 });
  });
});
