import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, requestBody, typeInto } from '../test/render';
import { fakeScheduleSaves, restoreScheduleSaves } from '../test/schedules';
import { ScheduleFormModal } from './ScheduleFormModal';

const fetchMock = vi.fn<typeof fetch>();
const target = { contactId: 7, contactName: 'Maria', channelId: 3, ticketId: 11 };

beforeEach(() => fakeScheduleSaves(fetchMock, '2026-11-27 09:00'));
afterEach(restoreScheduleSaves);

describe('ScheduleFormModal', () => {
  it('starts in 30 minutes; the shortcuts fill date and time; submit sends the instant, recurrence and repetitions', async () => {
    const onClose = vi.fn();
    renderWithProviders(<ScheduleFormModal opened onClose={onClose} target={target} initialBody="Olá" />);
    expect(screen.getByTestId('schedule-day')).toHaveValue('26/11/2026');
    expect(screen.getByTestId('schedule-time')).toHaveValue('15:48');
    fireEvent.click(screen.getByTestId('schedule-shortcut-tomorrow'));
    expect(screen.getByTestId('schedule-day')).toHaveValue('27/11/2026');
    expect(screen.getByTestId('schedule-time')).toHaveValue('09:00');
    fireEvent.click(screen.getByTestId('schedule-shortcut-nextWeek'));
    expect(screen.getByTestId('schedule-day')).toHaveValue('03/12/2026');
    fireEvent.click(screen.getByTestId('schedule-shortcut-tomorrow'));
    fireEvent.click(screen.getByTestId('schedule-recurrence'));
    fireEvent.click(await screen.findByRole('option', { name: 'A cada 10 dias', hidden: true }));
    typeInto('schedule-repetitions', '3');
    fireEvent.click(screen.getByTestId('schedule-save'));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(String(fetchMock.mock.calls[0]![0])).toMatch(/\/messagesSchedule\/$/);
    expect(requestBody(fetchMock, 0)).toMatchObject({
      contactId: 7,
      channelId: 3,
      ticketId: 11,
      body: 'Olá',
      scheduleDate: new Date(2026, 10, 27, 9, 0).toISOString(),
      recurrenceDays: 10,
      repetitions: 3,
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('refuses an empty text and a past time with the spec texts, and sends nothing', async () => {
    renderWithProviders(<ScheduleFormModal opened onClose={vi.fn()} target={target} />);
    typeInto('schedule-day', '26/11/2026');
    typeInto('schedule-time', '10:00');
    fireEvent.click(screen.getByTestId('schedule-save'));
    expect(await screen.findByText('Mensagem é obrigatório')).toBeInTheDocument();
    expect(screen.getByText('A data e hora devem estar no futuro.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends a file as multipart: medias plus the fields, the text may be empty', async () => {
    renderWithProviders(<ScheduleFormModal opened onClose={vi.fn()} target={target} />);
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'foto.png', { type: 'image/png' });
    const input = document.querySelector('input[type="file"]')!;
    fireEvent.change(input, { target: { files: [file] } });
    fireEvent.click(screen.getByTestId('schedule-save'));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const body = fetchMock.mock.calls[0]![1]!.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect((body.get('medias') as File).name).toBe('foto.png');
    expect(body.get('body')).toBe('foto.png');
    expect(body.get('contactId')).toBe('7');
    expect(body.get('ticketId')).toBe('11');
    expect(body.get('scheduleDate')).toBe(new Date(2026, 10, 26, 15, 48).toISOString());
    expect(body.has('recurrenceDays')).toBe(false);
  });
});
