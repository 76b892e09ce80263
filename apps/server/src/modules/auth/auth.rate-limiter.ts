/**
 * Attempt limits for the public auth paths (login, password-reset requests, sign-up): a sliding window per key, and
 * a growing refusal per key for failures (the login's e-mail + IP pair).
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

/**
 * Failures of one key (a login's e-mail + IP pair) with a growing refusal: the `threshold`-th failure refuses the key
 * for `baseMs`, and each further failure (possible only once a refusal ended) doubles it (1, 2, 4 ... minutes), at
 * most `maxMs`. Refused attempts are not checked, so they add nothing; a success resets the key. A key unused for
 * `forgetMs` is forgotten, and at most `maxKeys` are kept (the oldest go first), so memory stays bounded. In memory,
 * per node, like the limiter above (the same interface can be backed by Redis).
 */
export interface FailureBackoff {
  /** Milliseconds until the key may try again; 0 when it may now. */
  refusedFor(key: string): Promise<number>;
  /** Records a failure of the key. */
  fail(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

export interface BackoffPolicy {
  threshold: number;
  baseMs: number;
  maxMs: number;
  forgetMs: number;
  maxKeys: number;
}

export function createMemoryBackoff(policy: BackoffPolicy, now: () => number = Date.now): FailureBackoff {
  const keys = new Map<string, { failures: number; until: number; last: number }>();
  let opsSinceSweep = 0;

  const sweep = (at: number) => {
    for (const [key, entry] of keys) if (entry.last <= at - policy.forgetMs && entry.until <= at) keys.delete(key);
  };
  const current = (key: string, at: number) => {
    const entry = keys.get(key);
    if (entry && entry.last <= at - policy.forgetMs && entry.until <= at) {
      keys.delete(key);
      return undefined;
    }
    return entry;
  };

  return {
    async refusedFor(key) {
      const at = now();
      return Math.max(0, (current(key, at)?.until ?? 0) - at);
    },
    async fail(key) {
      const at = now();
      if (++opsSinceSweep >= SWEEP_EVERY) {
        opsSinceSweep = 0;
        sweep(at);
      }
      const entry = current(key, at) ?? { failures: 0, until: 0, last: at };
      entry.failures += 1;
      entry.last = at;
      const over = entry.failures - policy.threshold;
      if (over >= 0) entry.until = at + Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(over, 30));
      // Re-inserted at the end: the Map's order is then the order of last use, and the oldest go first.
      keys.delete(key);
      keys.set(key, entry);
      while (keys.size > policy.maxKeys) keys.delete(keys.keys().next().value!);
    },
    async reset(key) {
      keys.delete(key);
    },
  };
}
