/**
 * The end of the list loads the next page by itself (product-spec §9): as soon as the sentinel is visible, then every
 * 3 s while it stays visible and there is more to load.
 */
import { useEffect, useEffectEvent, useState, type RefObject } from 'react';

export const AUTO_LOAD_INTERVAL_MS = 3000;

export function useAutoLoadMore(target: RefObject<Element | null>, hasMore: boolean, loadMore: () => void): void {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const element = target.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => setVisible(entries.some((entry) => entry.isIntersecting)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [target, hasMore]);
  const load = useEffectEvent(loadMore);
  useEffect(() => {
    if (!visible || !hasMore) return;
    load();
    const timer = setInterval(() => load(), AUTO_LOAD_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [visible, hasMore]);
}
