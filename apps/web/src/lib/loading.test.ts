import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLoadingStore } from './loading';

describe('loading overlay timing', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('stays hidden for requests answered within 2000 ms', () => {
    const store = createLoadingStore();
    store.requestStarted();
    vi.advanceTimersByTime(1999);
    store.requestEnded();
    vi.advanceTimersByTime(5000);
    expect(store.isVisible()).toBe(false);
  });

  it('shows after 2000 ms and hides 1000 ms after the response', () => {
    const store = createLoadingStore();
    const listener = vi.fn();
    store.subscribe(listener);
    store.requestStarted();
    vi.advanceTimersByTime(2000);
    expect(store.isVisible()).toBe(true);
    store.requestEnded();
    vi.advanceTimersByTime(999);
    expect(store.isVisible()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(store.isVisible()).toBe(false);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('counts from the last request started', () => {
    const store = createLoadingStore();
    store.requestStarted();
    vi.advanceTimersByTime(1500);
    store.requestStarted();
    vi.advanceTimersByTime(1500);
    expect(store.isVisible()).toBe(false);
    vi.advanceTimersByTime(500);
    expect(store.isVisible()).toBe(true);
  });

  it('stays visible while another request is pending and cancels the hide when a new one starts', () => {
    const store = createLoadingStore();
    store.requestStarted();
    store.requestStarted();
    vi.advanceTimersByTime(2000);
    store.requestEnded();
    vi.advanceTimersByTime(3000);
    expect(store.isVisible()).toBe(true);
    store.requestEnded();
    vi.advanceTimersByTime(500);
    store.requestStarted();
    vi.advanceTimersByTime(1000);
    expect(store.isVisible()).toBe(true);
    store.requestEnded();
    vi.advanceTimersByTime(1000);
    expect(store.isVisible()).toBe(false);
  });
});
