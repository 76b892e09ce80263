/**
 * The ticket panel's state and data: the filter (the period defaults to `today`), the grouping, the selection (only
 * tickets still listed count as chosen), and the mass action run in batches of 10, cancellable between batches.
 */
import { useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { describeError } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { applyToTicket, useMarkAllRead, usePanelTickets, type MassAction, type PanelFilter } from '../api/panel';
import { runInBatches, type BatchProgress } from './batch-runner';
import { groupTickets, type GroupBy } from './panel-groups';

export interface RunState extends BatchProgress {
  action: MassAction['kind'];
  running: boolean;
  cancelled: boolean;
  /** Cancel was asked: the running batch finishes, no other starts. */
  stopping: boolean;
}

export function useTicketPanel(today: string) {
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<PanelFilter>(() => ({
    dateStart: today,
    dateEnd: today,
    queuesIds: [],
    status: ['open', 'pending'],
  }));
  const [groupBy, setGroupBy] = useState<GroupBy>('queue');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [run, setRun] = useState<RunState | null>(null);
  const abort = useRef<AbortController | null>(null);
  const periodValid = Boolean(filter.dateStart && filter.dateEnd && filter.dateStart <= filter.dateEnd);
  const tickets = usePanelTickets(filter, periodValid);
  const markAll = useMarkAllRead();
  const groups = useMemo(() => groupTickets(tickets.data ?? [], groupBy), [tickets.data, groupBy]);
  const visibleIds = useMemo(() => new Set((tickets.data ?? []).map((ticket) => ticket.id)), [tickets.data]);
  const chosen = [...selected].filter((id) => visibleIds.has(id));
  const names = useMemo(
    () => new Map((tickets.data ?? []).map((ticket) => [ticket.id, ticket.contact?.name ?? ticket.name ?? ''])),
    [tickets.data],
  );

  const toggle = (ids: number[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  async function start(action: MassAction) {
    const ids = chosen;
    if (ids.length === 0) return;
    const controller = new AbortController();
    abort.current = controller;
    setRun({
      action: action.kind,
      running: true,
      cancelled: false,
      stopping: false,
      done: 0,
      total: ids.length,
      results: [],
    });
    const outcome = await runInBatches(ids, (id) => applyToTicket(id, action), {
      signal: controller.signal,
      describeError,
      onProgress: (progress) => setRun((current) => (current ? { ...current, ...progress } : current)),
    });
    setRun((current) => (current ? { ...current, ...outcome, running: false } : current));
    setSelected(new Set(outcome.results.filter((result) => !result.ok).map((result) => result.id)));
    void queryClient.invalidateQueries({ queryKey: queryKeys.ticketsAll });
  }

  /** Stops before the next batch; the one already sent finishes. */
  const cancelRun = () => {
    abort.current?.abort();
    setRun((current) => (current ? { ...current, stopping: true } : current));
  };

  const dismissRun = () => setRun(null);

  const running = run?.running ?? false;

  return {
    filter,
    setFilter,
    groupBy,
    setGroupBy,
    periodValid,
    tickets,
    markAll,
    groups,
    selected,
    chosen,
    names,
    toggle,
    run,
    running,
    start,
    cancelRun,
    dismissRun,
  };
}
