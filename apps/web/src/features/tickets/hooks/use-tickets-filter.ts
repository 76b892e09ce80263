/** The user's attendance filter: restored from the login's configs, saved (PUT /users/{id}/configs) on every change. */
import { useCallback, useState } from 'react';
import { getStoredLogin } from '../../../lib/storage';
import { useSaveAttendanceFilter } from '../api/tickets';
import { normalizeFilter, parseStoredFilter, type TicketsFilter } from './attendance-filter';

export function useTicketsFilter(userId: number) {
  const [filter, setLocal] = useState<TicketsFilter>(() =>
    parseStoredFilter(getStoredLogin()?.configs.filtrosAtendimento),
  );
  const save = useSaveAttendanceFilter(userId);
  const { mutate } = save;
  const setFilter = useCallback(
    (next: Partial<TicketsFilter>) => {
      const normalized = normalizeFilter(next);
      setLocal(normalized);
      if (userId > 0) mutate(normalized);
    },
    [mutate, userId],
  );
  return { filter, setFilter, saving: save.isPending };
}
