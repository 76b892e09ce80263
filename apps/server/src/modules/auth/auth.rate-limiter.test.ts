import { describe, expect, it } from 'vitest';
import { createMemoryBackoff, createMemoryRateLimiter } from './auth.rate-limiter.js';

describe('memory rate limiter', () => {
  it('refuses attempts past the limit inside the window and forgets them after it', async () => {
    let now = 1_000_000;
    const limiter = createMemoryRateLimiter({ max: 3, windowMs: 60_000 }, () => now);
    expect([await limiter.hit('a'), await limiter.hit('a'), await limiter.hit('a')]).toEqual([true, true, true]);
    expect(await limiter.hit('a')).toBe(false);
    expect(await limiter.hit('b')).toBe(true);
    now += 60_001;
    expect(await limiter.hit('a')).toBe(true);
  });

  it('slides: a refused key stays refused while attempts keep coming', async () => {
    let now = 0;
    const limiter = createMemoryRateLimiter({ max: 2, windowMs: 10_000 }, () => now);
    await limiter.hit('k');
    now = 5_000;
    await limiter.hit('k');
    now = 9_000;
    expect(await limiter.hit('k')).toBe(false);
    now = 10_500; // the attempt at 0 left the window; those at 5 000 and 9 000 remain
    expect(await limiter.hit('k')).toBe(false);
    now = 25_000;
    expect(await limiter.hit('k')).toBe(true);
  });

  it('reset clears one key', async () => {
    const limiter = createMemoryRateLimiter({ max: 1, windowMs: 60_000 });
    await limiter.hit('x');
    expect(await limiter.hit('x')).toBe(false);
    await limiter.reset('x');
    expect(await limiter.hit('x')).toBe(true);
  });
});

describe('memory failure backoff', () => {
  const policy = { threshold: 3, baseMs: 60_000, maxMs: 8 * 60_000, forgetMs: 24 * 3_600_000, maxKeys: 3 };

  it('refuses a key from its threshold-th failure, for a time that doubles with each further failure, capped', async () => {
    let now = 0;
    const backoff = createMemoryBackoff(policy, () => now);
    await backoff.fail('k');
    await backoff.fail('k');
    expect(await backoff.refusedFor('k')).toBe(0);
    await backoff.fail('k');
    expect(await backoff.refusedFor('k')).toBe(60_000);
    expect(await backoff.refusedFor('other')).toBe(0);
    const refusals: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      now += await backoff.refusedFor('k');
      expect(await backoff.refusedFor('k')).toBe(0);
      await backoff.fail('k');
      refusals.push(await backoff.refusedFor('k'));
    }
    expect(refusals).toEqual([120_000, 240_000, 480_000, 480_000]);
  });

  it('reset clears a key; a key unused for forgetMs starts again; at most maxKeys are kept', async () => {
    let now = 0;
    const backoff = createMemoryBackoff(policy, () => now);
    for (let i = 0; i < 3; i += 1) await backoff.fail('a');
    await backoff.reset('a');
    expect(await backoff.refusedFor('a')).toBe(0);
    for (let i = 0; i < 2; i += 1) await backoff.fail('b');
    now += policy.forgetMs;
    await backoff.fail('b');
    expect(await backoff.refusedFor('b')).toBe(0);
    for (let i = 0; i < 3; i += 1) await backoff.fail('c');
    await backoff.fail('d');
    await backoff.fail('e');
    // Four keys were used (b, c, d, e): the least recently failed, b, is gone; c is still refused.
    expect(await backoff.refusedFor('c')).toBe(60_000);
    await backoff.fail('b');
    await backoff.fail('b');
    // b starts from 0 (2 failures, not 3 + 2); adding it pushed out c, now the oldest.
    expect(await backoff.refusedFor('b')).toBe(0);
    expect(await backoff.refusedFor('c')).toBe(0);
    expect(await backoff.refusedFor('e')).toBe(0);
  });
});
