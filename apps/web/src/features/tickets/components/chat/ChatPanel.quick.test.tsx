/** The `/` quick message picker of the chat input: filter, keyboard, pointer, variables, the file send and errors. */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QuickMessageDto, TicketDto } from '@conversa/shared';
import { jsonResponse } from '../../../../test/render';
import { fakeApi, logInAs, requestKey } from './chat-harness';
import { messageFixture, ticketFixture } from './chat-fixtures';

vi.mock('../../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError } = await import('../../../../lib/notify');

const quick = (id: number, key: string, message: string, extra: Partial<QuickMessageDto> = {}): QuickMessageDto => ({
  id,
  key,
  message,
  media: null,
  voice: 'disabled',
  mediaType: null,
  mediaUrl: null,
  isActive: true,
  ...extra,
});
const QUICK = [
  quick(1, 'ola', '{{greeting}}, {{firstName}}! Sou {{user}}.'),
  quick(2, 'oferta', 'Veja nossa oferta', {
    media: 'a1b2.png',
    mediaType: 'image/png',
    mediaUrl: 'http://x/api/public/1/a1b2.png',
  }),
  quick(3, 'protocolo', 'Seu protocolo é {{protocol}} (ticket {{ticket}})'),
  quick(4, 'antiga', 'não aparece', { isActive: false }),
];

const { fetchMock, reset, renderChatPanel } = fakeApi();
const bodiesOf = (key: string) =>
  fetchMock.mock.calls
    .filter(([url, init]) => requestKey(url, init) === key)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);

let ticket: TicketDto;
function setup() {
  ticket = ticketFixture(42);
  renderChatPanel(ticket, [messageFixture(1)], {
    'GET /fastreply/': () => jsonResponse(QUICK),
    [`POST /messages/${ticket.id}`]: () => jsonResponse(messageFixture(99, { fromMe: true })),
  });
}

beforeEach(() => {
  reset();
  vi.mocked(notifyError).mockClear();
  logInAs('user', 7, 'Ana');
});
/** 15:00 local time: the afternoon greeting. */
const atAfternoon = () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 10, 26, 15, 0));
};
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const input = () => screen.getByTestId('chat-input') as HTMLTextAreaElement;
const type = (value: string) => fireEvent.change(input(), { target: { value } });
const key = (k: string) => fireEvent.keyDown(input(), { key: k });
const optionKeys = () =>
  within(screen.getByRole('listbox'))
    .getAllByRole('option')
    .map((o) => o.dataset.testid?.replace('chat-quick-option-', '/'));

describe('the / quick message picker', () => {
  it('opens on / with the active quick messages, filters by what follows, and is a listbox the box points into', async () => {
    setup();
    await screen.findByTestId('chat-input');
    type('/');
    await waitFor(() => expect(optionKeys()).toHaveLength(3));
    expect(optionKeys()).toEqual(['/ola', '/oferta', '/protocolo']);
    type('/of');
    await waitFor(() => expect(optionKeys()).toHaveLength(1));
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(input()).toHaveAttribute('aria-controls', screen.getByRole('listbox').id);
    expect(input()).toHaveAttribute('aria-activedescendant', options[0]!.id);
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    type('/of x');
    expect(screen.queryByRole('listbox')).toBeNull();
    type('/zzz');
    expect(await screen.findByText('Nenhuma mensagem rápida encontrada.')).toBeInTheDocument();
  });

  it('arrows move, Enter picks: the box gets the message with its variables filled, nothing is sent', async () => {
    setup();
    await screen.findByTestId('chat-input');
    type('/');
    await waitFor(() => expect(optionKeys()).toHaveLength(3));
    key('ArrowDown');
    key('ArrowDown');
    const third = within(screen.getByRole('listbox')).getAllByRole('option')[2]!;
    expect(input()).toHaveAttribute('aria-activedescendant', third.id);
    key('ArrowDown'); // wraps to the first
    key('ArrowUp'); // and back to the last
    key('Enter');
    expect(input().value).toBe(`Seu protocolo é ${ticket.protocol} (ticket ${ticket.id})`);
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(bodiesOf(`POST /messages/${ticket.id}`)).toEqual([]);
  });

  it('Tab picks too; the greeting follows the local hour; Escape closes; the pointer picks', async () => {
    setup();
    await screen.findByTestId('chat-input');
    type('/ol');
    // Keys starting with the query first, then keys containing it.
    await waitFor(() => expect(optionKeys()).toEqual(['/ola', '/protocolo']));
    atAfternoon();
    key('Tab');
    expect(input().value).toBe('Boa tarde, Maria! Sou Ana.');
    type('/pro');
    await screen.findByRole('listbox');
    key('Escape');
    expect(screen.queryByRole('listbox')).toBeNull();
    type('/p');
    fireEvent.click(await screen.findByTestId('chat-quick-option-protocolo'));
    expect(input().value).toContain(ticket.protocol);
  });

  it('a quick message with a file is attached, and Send posts its id with the caption', async () => {
    setup();
    await screen.findByTestId('chat-input');
    type('/ofer');
    await waitFor(() => expect(optionKeys()).toHaveLength(1));
    key('Enter');
    expect(await screen.findByTestId('chat-quick-attachment')).toHaveTextContent('/oferta');
    expect(input().value).toBe('Veja nossa oferta');
    type('Veja nossa oferta, Maria');
    key('Enter');
    await waitFor(() => expect(bodiesOf(`POST /messages/${ticket.id}`)).toHaveLength(1));
    expect(bodiesOf(`POST /messages/${ticket.id}`)[0]).toMatchObject({
      quickMessageId: 2,
      body: 'Veja nossa oferta, Maria',
    });
    expect(input().value).toBe('');
    expect(screen.queryByTestId('chat-quick-attachment')).toBeNull();
  });

  it('sending /xyz with no match gives the error and sends nothing; /ola typed whole is picked, not sent', async () => {
    setup();
    await screen.findByTestId('chat-input');
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/fastreply'))).toBe(true));
    type('/xyz');
    await screen.findByText('Nenhuma mensagem rápida encontrada.');
    key('Enter');
    expect(notifyError).toHaveBeenCalledWith('Mensagem rápida /xyz não encontrada.');
    expect(input().value).toBe('/xyz');
    type('/antiga');
    key('Enter');
    expect(notifyError).toHaveBeenCalledWith('Mensagem rápida /antiga não encontrada.');
    atAfternoon();
    type('/ola');
    key('Escape');
    key('Enter');
    expect(input().value).toBe('Boa tarde, Maria! Sou Ana.');
    expect(bodiesOf(`POST /messages/${ticket.id}`)).toEqual([]);
  });
});
