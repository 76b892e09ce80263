/**
 * Scheduled messages (client-contract §5.1 `/messagesSchedule`, `/scheduleMessages`): queries, mutations, the
 * `{T}:scheduleMessage` live refresh, and the date helpers of the schedule form (shortcuts of product-spec §9).
 * Shared by the schedules screen and the chat (features never import each other).
 *
 * Dates: the form works on the browser's wall clock and sends the chosen instant as ISO-8601 (the server also takes
 * the contract's `yyyy-MM-dd HH:mm` on the tenant's wall clock, which the reference client sends).
 */
import { useEffect } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import {
  scheduledMessageDtoSchema,
  scheduleListResponseSchema,
  type ScheduledMessageDto,
  type ScheduleStatus,
} from '@conversa/shared';
import { api } from './api';
import { formatDateTime } from './dates';
import { queryKeys } from './query-keys';
import { registerRealtimeHandler, type RealtimeHandler } from './realtime-registry';

export const SCHEDULES_PAGE_SIZE = 20;

export const schedulesKeys = {
  all: ['schedules'] as const,
  list: (filter: { page: number; rowsPerPage: number; ticketId?: number; status?: ScheduleStatus }) =>
    ['schedules', 'list', filter] as const,
};

/** GET /scheduleMessages/?page&rowsPerPage[&ticketId&status]. */
export const useSchedules = (filter: {
  page: number;
  rowsPerPage: number;
  ticketId?: number;
  status?: ScheduleStatus;
}) =>
  useQuery({
    queryKey: schedulesKeys.list(filter),
    queryFn: async () =>
      scheduleListResponseSchema.parse(await api.get('/scheduleMessages/', { query: filter, background: true })),
    placeholderData: keepPreviousData,
  });

export interface ScheduleCreateValues {
  contactId: number;
  channelId: number | null;
  ticketId: number | null;
  body: string;
  /** ISO instant. */
  scheduleDate: string;
  recurrenceDays: number | null;
  repetitions: number;
  idFront: string;
  /** A file to send (multipart `medias`); the text is then its caption. */
  file?: File | null;
}

export interface ScheduleEditValues {
  body: string;
  scheduleDate: string;
  recurrenceDays: number | null;
  repetitions: number;
}

function useInvalidateSchedules() {
  const queryClient = useQueryClient();
  return (ticketId?: number | null) => {
    void queryClient.invalidateQueries({ queryKey: schedulesKeys.all });
    if (ticketId) void queryClient.invalidateQueries({ queryKey: queryKeys.ticket(ticketId), exact: true });
  };
}

/** POST /messagesSchedule/. */
export function useCreateSchedule() {
  const invalidate = useInvalidateSchedules();
  return useMutation({
    mutationFn: async ({ file, ...values }: ScheduleCreateValues): Promise<ScheduledMessageDto> => {
      if (!file) return scheduledMessageDtoSchema.parse(await api.post('/messagesSchedule/', values));
      const form = new FormData();
      for (const [key, value] of Object.entries(values)) {
        if (value !== null && value !== undefined) form.append(key, String(value));
      }
      form.append('medias', file, file.name);
      return scheduledMessageDtoSchema.parse(await api.post('/messagesSchedule/', form));
    },
    onSuccess: (dto) => invalidate(dto.ticketId),
    meta: { handlesErrors: true },
  });
}

/** PUT /messagesSchedule/{id}: only while pending (409 ERR_SCHEDULE_NOT_PENDING otherwise). */
export function useUpdateSchedule() {
  const invalidate = useInvalidateSchedules();
  return useMutation({
    mutationFn: async ({ id, values }: { id: number; values: ScheduleEditValues }): Promise<ScheduledMessageDto> =>
      scheduledMessageDtoSchema.parse(await api.put(`/messagesSchedule/${id}`, values)),
    onSuccess: (dto) => invalidate(dto.ticketId),
    meta: { handlesErrors: true },
  });
}

/** DELETE /messagesSchedule/{id}: cancels (status canceled). */
export function useCancelSchedule() {
  const invalidate = useInvalidateSchedules();
  return useMutation({
    mutationFn: async (id: number): Promise<ScheduledMessageDto> =>
      scheduledMessageDtoSchema.parse(await api.delete(`/messagesSchedule/${id}`)),
    onSuccess: (dto) => invalidate(dto.ticketId),
    meta: { handlesErrors: true },
  });
}

const schedulesRealtime: RealtimeHandler = (socket, queryClient, T) => {
  const onChange = (event: { ticketId: number | null }) => {
    void queryClient.invalidateQueries({ queryKey: schedulesKeys.all });
    if (event.ticketId) void queryClient.invalidateQueries({ queryKey: queryKeys.ticket(event.ticketId), exact: true });
  };
  socket.on(`${T}:scheduleMessage`, onChange);
  return () => {
    socket.off(`${T}:scheduleMessage`, onChange);
  };
};

/** Keeps the scheduled-message queries live while a screen that shows them is mounted. */
export function useSchedulesLive(): void {
  useEffect(() => registerRealtimeHandler(schedulesRealtime), []);
}

// ---------- form dates ----------

export type ScheduleShortcut = 'in30' | 'tomorrow' | 'nextWeek';
export const SCHEDULE_SHORTCUTS: readonly ScheduleShortcut[] = ['in30', 'tomorrow', 'nextWeek'];
/** Tomorrow and next week are at the start of the working day, not at the current time of day. */
export const SHORTCUT_HOUR = 9;

/**
 * The time a shortcut names, on the browser's clock: in 30 minutes (to the minute above), tomorrow at 09:00, next
 * week (7 days from today) at 09:00.
 */
export function shortcutDate(shortcut: ScheduleShortcut, now: Date = new Date()): Date {
  const base = dayjs(now);
  if (shortcut === 'in30') {
    const later = base.add(30, 'minute');
    return (later.second() > 0 || later.millisecond() > 0 ? later.add(1, 'minute') : later)
      .second(0)
      .millisecond(0)
      .toDate();
  }
  const days = shortcut === 'tomorrow' ? 1 : 7;
  return base.add(days, 'day').hour(SHORTCUT_HOUR).minute(0).second(0).millisecond(0).toDate();
}

/** A date as the form's two inputs (native `date` and `time`). */
export function toDateInputs(date: Date): { day: string; time: string } {
  const value = dayjs(date);
  return { day: value.format('YYYY-MM-DD'), time: value.format('HH:mm') };
}

/** The form's two inputs as a date on the browser's clock; null when incomplete or invalid. */
export function fromDateInputs(day: string, time: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || !/^\d{2}:\d{2}$/.test(time)) return null;
  const value = dayjs(`${day}T${time}:00`);
  return value.isValid() && value.format('YYYY-MM-DD HH:mm') === `${day} ${time}` ? value.toDate() : null;
}

/** A schedule's instant on the browser's clock, as product-spec §1 displays date-times (dd/MM/yyyy HH:mm:ss). */
export const formatScheduleDate = (iso: string): string => formatDateTime(iso);
