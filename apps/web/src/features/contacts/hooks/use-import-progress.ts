/**
 * The progress of one import as realtime-sync.ts records it from `{T}:contactImport` events (nothing is fetched):
 * undefined until the first event, then the latest counts, finally `done` (with the bad rows) or `failed`.
 */
import { useEffect, useRef } from 'react';
import { skipToken, useQuery } from '@tanstack/react-query';
import type { ContactImportProgress } from '@conversa/shared';
import { queryKeys } from '../../../lib/query-keys';

export function useImportProgress(importId: string | null): ContactImportProgress | undefined {
  const { data } = useQuery<ContactImportProgress>({
    queryKey: queryKeys.contactImport(importId ?? ''),
    queryFn: skipToken,
    enabled: importId !== null,
    staleTime: Infinity,
    gcTime: 30 * 60_000,
  });
  return importId === null ? undefined : data;
}

/** Percent of rows processed (0 while the total is unknown). */
export const importPercent = (progress: ContactImportProgress | undefined): number =>
  progress && progress.total > 0 ? Math.min(100, Math.round((progress.processed / progress.total) * 100)) : 0;

/** One toast when the import ends while the page is open (not again when its summary is opened later). */
export function useImportOutcomeToast(importId: string | null, onDone: () => void, onFailed: () => void): void {
  const action = useImportProgress(importId)?.action;
  const seen = useRef<{ importId: string | null; action: string | undefined }>({ importId, action });
  useEffect(() => {
    const before = seen.current;
    seen.current = { importId, action };
    if (before.importId !== importId || before.action === action) return;
    if (action === 'done') onDone();
    if (action === 'failed') onFailed();
  }, [importId, action, onDone, onFailed]);
}
