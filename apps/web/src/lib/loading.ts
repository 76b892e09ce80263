/**
 * The global loading overlay rule (product-spec §9): the overlay appears only when more than 2000 ms have passed since
 * the last request started and requests are still pending; it disappears 1000 ms after the last response.
 */
import { useSyncExternalStore } from 'react';
import { LOADING_OVERLAY_AFTER_MS, LOADING_OVERLAY_HIDE_MS } from '@conversa/shared';

export interface LoadingStore {
  requestStarted(): void;
  requestEnded(): void;
  isVisible(): boolean;
  subscribe(listener: () => void): () => void;
  reset(): void;
}

export function createLoadingStore(showAfterMs = LOADING_OVERLAY_AFTER_MS, hideAfterMs = LOADING_OVERLAY_HIDE_MS) {
  let pending = 0;
  let visible = false;
  let showTimer: ReturnType<typeof setTimeout> | undefined;
  let hideTimer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();

  const setVisible = (next: boolean) => {
    if (visible === next) return;
    visible = next;
    for (const listener of listeners) listener();
  };
  const clear = (timer: ReturnType<typeof setTimeout> | undefined) => {
    if (timer !== undefined) clearTimeout(timer);
  };

  const store: LoadingStore = {
    requestStarted() {
      pending += 1;
      clear(hideTimer);
      hideTimer = undefined;
      // "since the last request started": every start restarts the count.
      clear(showTimer);
      showTimer = setTimeout(() => {
        showTimer = undefined;
        if (pending > 0) setVisible(true);
      }, showAfterMs);
    },
    requestEnded() {
      pending = Math.max(0, pending - 1);
      if (pending > 0) return;
      clear(showTimer);
      showTimer = undefined;
      if (!visible) return;
      clear(hideTimer);
      hideTimer = setTimeout(() => {
        hideTimer = undefined;
        if (pending === 0) setVisible(false);
      }, hideAfterMs);
    },
    isVisible: () => visible,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reset() {
      clear(showTimer);
      clear(hideTimer);
      showTimer = hideTimer = undefined;
      pending = 0;
      setVisible(false);
    },
  };
  return store;
}

export const loadingStore = createLoadingStore();

export function useGlobalLoading(store: LoadingStore = loadingStore): boolean {
  return useSyncExternalStore(store.subscribe, store.isVisible, store.isVisible);
}
