/** The business-hours screen: the week as stored, its checks, the exact bodies sent, and supervisors read-only. */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_BUSINESS_HOURS, type BusinessHoursDay } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderWithProviders, typeInto } from '../../../test/render';
import { tenantFixture } from '../../../test/tenants';
import { BusinessHoursPage } from './BusinessHoursPage';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError, notifySuccess } = await import('../../../lib/notify');

const fetchMock = vi.fn<typeof fetch>();
const keyOf = (url: unknown, init?: RequestInit) => `${init?.method ?? 'GET'} ${String(url).replace(/^\/api/, '')}`;
const bodiesOf = (key: string) =>
  fetchMock.mock.calls
    .filter(([url, init]) => keyOf(url, init) === key)
    .map(([, init]) => JSON.parse(String(init?.body)) as unknown);

/** Sunday closed, Monday 08:00-12:00 only, Tuesday 08:00-12:00 and 13:00-17:00, Friday 22:00-02:00, others open. */
const stored: BusinessHoursDay[] = DEFAULT_BUSINESS_HOURS.map((day) => {
  if (day.day === 0) return { ...day, type: 'C' };
  if (day.day === 1) return { ...day, type: 'H', hr3: '00:00', hr4: '00:00' };
  if (day.day === 2) return { ...day, type: 'H', hr3: '13:00', hr4: '17:00' };
  if (day.day === 5) return { ...day, type: 'H', hr1: '22:00', hr2: '02:00', hr3: '00:00', hr4: '00:00' };
  return day;
});
let current = { businessHours: stored, messageBusinessHours: 'Estamos fechados.' };
/** The own tenant's zone; null answers GET /tenants/undefined with an empty array (the tenant unknown). */
let tenantZone: string | null = null;

function login(profile: string) {
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', profile);
  localStorage.setItem('userId', '1');
}

beforeEach(() => {
  resetApiState();
  current = { businessHours: stored, messageBusinessHours: 'Estamos fechados.' };
  tenantZone = null;
  fetchMock.mockReset();
  vi.mocked(notifyError).mockClear();
  vi.mocked(notifySuccess).mockClear();
  fetchMock.mockImplementation(async (url, init) => {
    const key = keyOf(url, init);
    if (key === 'GET /tenants/business-hours/') return jsonResponse([current]);
    if (key === 'GET /tenants/undefined')
      return jsonResponse(tenantZone ? [tenantFixture({ timezone: tenantZone })] : []);
    if (key === 'PUT /tenants/business-hours/') {
      current = { ...current, businessHours: JSON.parse(String(init?.body)) as BusinessHoursDay[] };
      // The writes answer the object, the read a one-element array (client-contract §15).
      return jsonResponse(current);
    }
    if (key === 'PUT /tenants/message-business-hours/') {
      current = { ...current, ...(JSON.parse(String(init?.body)) as { messageBusinessHours: string }) };
      return jsonResponse(current);
    }
    return jsonResponse({ error: 'ERR_NOT_MOCKED' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  login('admin');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const loaded = () => screen.findByTestId('bh-type-6');

describe('BusinessHoursPage', { timeout: 40_000 }, () => {
  it('shows one row per weekday, Sunday first, with translated names, and times only for H days', async () => {
    renderWithProviders(<BusinessHoursPage />);
    await loaded();
    // Each day's select is named by its (translated) weekday, in order.
    const weekdays = ['Domingo', 'Segunda-feira', 'Terça-feira', 'Quarta-feira', 'Quinta-feira', 'Sexta-feira'];
    weekdays.push('Sábado');
    weekdays.forEach((name, day) =>
      expect(screen.getByRole('combobox', { name })).toBe(screen.getByTestId(`bh-type-${day}`)),
    );
    expect(screen.getByTestId('bh-type-0')).toHaveValue('Fechado');
    expect(screen.getByTestId('bh-type-3')).toHaveValue('Aberto o dia todo');
    expect(screen.getByTestId('bh-type-1')).toHaveValue('Horário');
    expect(screen.queryByTestId('bh-hr1-0')).toBeNull();
    expect(screen.queryByTestId('bh-hr1-3')).toBeNull();
    expect(screen.getByTestId('bh-hr1-1')).toHaveValue('08:00');
    expect(screen.getByTestId('bh-hr2-1')).toHaveValue('12:00');
    // A stored hr3 = hr4 is "no second interval": shown empty.
    expect(screen.getByTestId('bh-hr3-1')).toHaveValue('');
    expect(screen.getByTestId('bh-hr4-1')).toHaveValue('');
    expect(screen.getByTestId('bh-hr3-2')).toHaveValue('13:00');
    // 22:00-02:00 ends the next day, and says so under its end.
    const friday = screen.getByTestId('bh-day-5');
    expect(within(friday).getByText('Termina no dia seguinte')).toBeInTheDocument();
    expect(within(screen.getByTestId('bh-day-1')).queryByText('Termina no dia seguinte')).toBeNull();
    expect(screen.getByTestId('bh-message')).toHaveValue('Estamos fechados.');
    expect(screen.queryByTestId('bh-read-only')).toBeNull();
  });

  it('refuses missing, malformed and partial times with clear messages and sends nothing', async () => {
    renderWithProviders(<BusinessHoursPage />);
    await loaded();
    typeInto('bh-hr1-1', '');
    typeInto('bh-hr2-2', '25:00');
    typeInto('bh-hr3-1', '14:00');
    typeInto('bh-hr2-5', '22:00');
    fireEvent.click(screen.getByTestId('bh-save'));
    expect(await screen.findByText('Informe o horário.')).toBeInTheDocument();
    expect(screen.getByText('Use o formato HH:mm (24 horas), por exemplo 08:30.')).toBeInTheDocument();
    expect(
      screen.getByText('Preencha o início e o fim do segundo intervalo, ou deixe os dois em branco.'),
    ).toBeInTheDocument();
    expect(screen.getByText('O fim precisa ser diferente do início.')).toBeInTheDocument();
    expect(screen.getByTestId('bh-hr1-1')).toHaveAttribute('aria-invalid', 'true');
    expect(bodiesOf('PUT /tenants/business-hours/')).toEqual([]);
  });

  it('sends the bare array of 7 days with their stored labels; an emptied second interval goes as 00:00-00:00', async () => {
    renderWithProviders(<BusinessHoursPage />);
    await loaded();
    // Tuesday loses its afternoon; Monday's start is typed loosely and read as 07:30.
    typeInto('bh-hr3-2', '');
    typeInto('bh-hr4-2', '');
    typeInto('bh-hr1-1', '730');
    fireEvent.blur(screen.getByTestId('bh-hr1-1'));
    expect(screen.getByTestId('bh-hr1-1')).toHaveValue('07:30');
    fireEvent.click(screen.getByTestId('bh-save'));
    await waitFor(() => expect(bodiesOf('PUT /tenants/business-hours/')).toHaveLength(1));
    const expected = stored.map((day) => ({ ...day }));
    expected[1] = { ...expected[1]!, hr1: '07:30' };
    expected[2] = { ...expected[2]!, hr3: '00:00', hr4: '00:00' };
    expect(bodiesOf('PUT /tenants/business-hours/')[0]).toEqual(expected);
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Horário de atendimento salvo.'));
    expect(bodiesOf('PUT /tenants/message-business-hours/')).toEqual([]);
  });

  it('turns a closed day into hours: its intervals appear and are sent', async () => {
    renderWithProviders(<BusinessHoursPage />);
    await loaded();
    fireEvent.click(screen.getByTestId('bh-type-0'));
    fireEvent.click(await findOption('bh-type-0', 'Horário'));
    expect(await screen.findByTestId('bh-hr1-0')).toHaveValue('08:00');
    typeInto('bh-hr2-0', '11:00');
    typeInto('bh-hr3-0', '');
    typeInto('bh-hr4-0', '');
    fireEvent.click(screen.getByTestId('bh-save'));
    await waitFor(() => expect(bodiesOf('PUT /tenants/business-hours/')).toHaveLength(1));
    expect((bodiesOf('PUT /tenants/business-hours/')[0] as BusinessHoursDay[])[0]).toEqual({
      day: 0,
      label: 'Domingo',
      type: 'H',
      hr1: '08:00',
      hr2: '11:00',
      hr3: '00:00',
      hr4: '00:00',
    });
  });

  it('saves the absence message on its own', async () => {
    renderWithProviders(<BusinessHoursPage />);
    await loaded();
    typeInto('bh-message', '  Voltamos às 8h.  ');
    fireEvent.click(screen.getByTestId('bh-message-save'));
    await waitFor(() => expect(bodiesOf('PUT /tenants/message-business-hours/')).toHaveLength(1));
    expect(bodiesOf('PUT /tenants/message-business-hours/')[0]).toEqual({ messageBusinessHours: 'Voltamos às 8h.' });
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Mensagem de ausência salva.'));
    expect(bodiesOf('PUT /tenants/business-hours/')).toEqual([]);
  });

  it('shows a refused save with the catalogue text', async () => {
    fetchMock.mockImplementation(async (url, init) =>
      keyOf(url, init) === 'GET /tenants/business-hours/'
        ? jsonResponse([current])
        : jsonResponse({ error: 'ERR_NO_PERMISSION' }, 403),
    );
    renderWithProviders(<BusinessHoursPage />);
    await loaded();
    fireEvent.click(screen.getByTestId('bh-message-save'));
    await waitFor(() => expect(notifyError).toHaveBeenCalled());
    expect(notifySuccess).not.toHaveBeenCalled();
  });

  it('is read-only for supervisors: a notice, no save buttons, fields that cannot be changed', async () => {
    login('super');
    renderWithProviders(<BusinessHoursPage />);
    await loaded();
    expect(screen.getByTestId('bh-read-only')).toHaveTextContent('Somente administradores');
    expect(screen.queryByTestId('bh-save')).toBeNull();
    expect(screen.queryByTestId('bh-message-save')).toBeNull();
    expect(screen.getByTestId('bh-hr1-1')).toHaveAttribute('readonly');
    expect(screen.getByTestId('bh-type-0')).toHaveAttribute('readonly');
    expect(screen.getByTestId('bh-message')).toHaveAttribute('readonly');
  });

  it('says whether the saved week is open now (browser time zone)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // Monday 10:00 and 13:00 on this machine's clock: inside, then outside 08:00-12:00.
    vi.setSystemTime(new Date(2026, 0, 5, 10, 0));
    const first = renderWithProviders(<BusinessHoursPage />);
    await loaded();
    expect(screen.getByTestId('bh-now-state')).toHaveTextContent('Aberto');
    first.unmount();
    vi.setSystemTime(new Date(2026, 0, 5, 13, 0));
    renderWithProviders(<BusinessHoursPage />);
    await loaded();
    expect(screen.getByTestId('bh-now-state')).toHaveTextContent('Fechado');
  });

  it('says whether the week is open now in the tenant’s time zone once the tenant is known, and names it', async () => {
    tenantZone = 'Asia/Tokyo';
    vi.useFakeTimers({ toFake: ['Date'] });
    // Monday 2026-01-05 01:00 UTC is 10:00 in Tokyo (inside 08:00-12:00), and before 08:00 in any zone west of UTC+7.
    vi.setSystemTime(new Date(Date.UTC(2026, 0, 5, 1, 0)));
    renderWithProviders(<BusinessHoursPage />);
    await loaded();
    await waitFor(() => expect(screen.getByTestId('bh-now')).toHaveTextContent('Asia/Tokyo'));
    expect(screen.getByTestId('bh-now-state')).toHaveTextContent('Aberto');
  });
});

async function findOption(testId: string, name: string): Promise<HTMLElement> {
  const listbox = await waitFor(() => {
    const id = screen.getByTestId(testId).getAttribute('aria-controls');
    const element = id ? document.getElementById(id) : null;
    if (!element) throw new Error(`${testId} has no open listbox`);
    return element;
  });
  const option = within(listbox)
    .getAllByRole('option', { hidden: true })
    .find((item) => item.textContent === name);
  if (!option) throw new Error(`no option ${name}`);
  return option;
}
