import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18next } from '../lib/i18n';
import { renderWithProviders, requestBody, typeInto } from '../test/render';
import { fakeScheduleSaves, restoreScheduleSaves } from '../test/schedules';
import { ScheduleFormModal } from './ScheduleFormModal';

const fetchMock = vi.fn<typeof fetch>();
const target = { contactId: 7, contactName: 'Maria', channelId: 3, ticketId: 11 };

beforeEach(() => fakeScheduleSaves(fetchMock, '2026-12-01 19:12'));
afterEach(async () => {
  restoreScheduleSaves();
  await act(() => i18next.changeLanguage('pt'));
});

describe('schedule form date and time', () => {
  it('never uses the browser’s native date/time inputs', () => {
    renderWithProviders(<ScheduleFormModal opened onClose={vi.fn()} target={target} initialBody="Olá" />);
    expect(screen.getByTestId('schedule-day')).not.toHaveAttribute('type', 'date');
    expect(screen.getByTestId('schedule-time')).not.toHaveAttribute('type', 'time');
    expect(document.querySelector('input[type="date"], input[type="time"], input[type="datetime-local"]')).toBeNull();
  });

  it('an English UI reads and writes dd/MM/yyyy and 24 h (never 12/01/2026 07:12 PM)', async () => {
    await act(() => i18next.changeLanguage('en-us'));
    renderWithProviders(<ScheduleFormModal opened onClose={vi.fn()} target={target} initialBody="Hi" />);
    expect(screen.getByTestId('schedule-day')).toHaveValue('26/11/2026');
    expect(screen.getByTestId('schedule-time')).toHaveValue('15:48');
    fireEvent.focus(screen.getByTestId('schedule-day'));
    typeInto('schedule-day', '01/12/2026');
    fireEvent.blur(screen.getByTestId('schedule-day'));
    typeInto('schedule-time', '19:12');
    fireEvent.blur(screen.getByTestId('schedule-time'));
    fireEvent.click(screen.getByTestId('schedule-save'));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    // 1 December (day first), 19:12.
    expect(requestBody(fetchMock, 0)).toMatchObject({ scheduleDate: new Date(2026, 11, 1, 19, 12).toISOString() });
  });

  it('a typed time is read in 24 h and tidied (9h05 -> 09:05); a 12-hour time is refused', async () => {
    renderWithProviders(<ScheduleFormModal opened onClose={vi.fn()} target={target} initialBody="Olá" />);
    typeInto('schedule-time', '7:12 PM');
    fireEvent.blur(screen.getByTestId('schedule-time'));
    expect(await screen.findByText('Hora é inválido.')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('schedule-save'));
    expect(fetchMock).not.toHaveBeenCalled();
    typeInto('schedule-time', '9h05');
    fireEvent.blur(screen.getByTestId('schedule-time'));
    expect(screen.getByTestId('schedule-time')).toHaveValue('09:05');
    typeInto('schedule-day', '27/11/2026');
    fireEvent.click(screen.getByTestId('schedule-save'));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(requestBody(fetchMock, 0)).toMatchObject({ scheduleDate: new Date(2026, 10, 27, 9, 5).toISOString() });
  });
});
