/**
 * Attempt limits for the public auth paths (login, password-reset requests, sign-up): a sliding window per key.
 *
 * The store is in memory, so with several server nodes each node counts its own attempts (a client spread over N
 * nodes gets up to N times the limit). The RateLimiter interface is async so a Redis-backed store (a sorted set per
 * key: ZADD now, ZREMRANGEBYSCORE older than the window, ZCARD) can replace it without touching the callers.
 */
export interface RateLimiter {
  /** Records one attempt for `key`; false when the attempts in the window, this one included, exceed the limit. */
  hit(key: string): Promise<boolean>;
  /** Forgets the attempts of `key` (a successful login clears its e-mail). */
  reset(key: string): Promise<void>;
}

export interface RateLimitPolicy {
  max: number;
  windowMs: number;
}

/** Keys are swept lazily, once every this many hits, so memory stays bounded without a timer. */
const SWEEP_EVERY = 1_000;

export function createMemoryRateLimiter(policy: RateLimitPolicy, now: () => number = Date.now): RateLimiter {
  const attempts = new Map<string, number[]>();
  let hitsSinceSweep = 0;

  const sweep = (at: number) => {
    for (const [key, times] of attempts) {
      if ((times.at(-1) ?? 0) <= at - policy.windowMs) attempts.delete(key);
    }
  };

  return {
    async hit(key) {
      const at = now();
      hitsSinceSweep += 1;
      if (hitsSinceSweep >= SWEEP_EVERY) {
        hitsSinceSweep = 0;
        sweep(at);
      }
      const recent = (attempts.get(key) ?? []).filter((time) => time > at - policy.windowMs);
      recent.push(at);
      // Only "more than max" matters: keeping max + 1 timestamps bounds the memory of a hammered key.
      if (recent.length > policy.max + 1) recent.splice(0, recent.length - policy.max - 1);
      attempts.set(key, recent);
      return recent.length <= policy.max;
    },
    async reset(key) {
      attempts.delete(key);
    },
  };
}
