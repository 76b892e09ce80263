import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from './auth.rate-limiter.js';

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
