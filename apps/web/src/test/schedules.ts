/** The ScheduleFormModal tests' set-up: a fixed clock and a fake API that answers each save with its schedule. */
import { vi, type Mock } from 'vitest';
import { jsonResponse } from './render';

/** The schedule the server answers to a save of these fields (text, instant, recurrence, repetitions echoed). */
export function savedSchedule(body: Record<string, unknown>, scheduleLocal: string) {
  return {
    id: 1,
    ticketId: 11,
    contactId: 7,
    contactName: 'Maria',
    channelId: 3,
    body: body.body,
    scheduleDate: body.scheduleDate,
    scheduleLocal,
    isDeleted: false,
    status: 'pending',
    mediaName: null,
    mediaType: null,
    recurrenceDays: body.recurrenceDays ?? null,
    repetitionsLeft: body.repetitions ?? 1,
    messageId: null,
    user: { id: 1, name: 'Ana' },
    createdAt: new Date().toISOString(),
  };
}

/**
 * For beforeEach: Date faked at Thursday 26/11/2026 15:17:42 (time runs on), and `fetchMock` stubbed as fetch,
 * answering each request with `savedSchedule` of its fields (JSON, or the text fields of a multipart body).
 */
export function fakeScheduleSaves(fetchMock: Mock<typeof fetch>, scheduleLocal: string) {
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 10, 26, 15, 17, 42));
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (_url, init) =>
    jsonResponse(
      savedSchedule(
        init?.body instanceof FormData
          ? Object.fromEntries([...init.body.entries()].filter(([, v]) => typeof v === 'string'))
          : (JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>),
        scheduleLocal,
      ),
    ),
  );
  vi.stubGlobal('fetch', fetchMock);
}

/** For afterEach: the real clock and fetch back. */
export function restoreScheduleSaves() {
  vi.useRealTimers();
  vi.unstubAllGlobals();
}
