import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { MessageDto } from '@conversa/shared';
import { contactFixture } from '../../../../test/contacts';
import { renderWithProviders } from '../../../../test/render';
import { messageFixture } from './chat-fixtures';
import { MessageBubble, type BubbleHandlers } from './MessageBubble';

const handlers = (): BubbleHandlers => ({
  onReply: vi.fn(),
  onForward: vi.fn(),
  onReact: vi.fn(),
  onEdit: vi.fn(),
  onDelete: vi.fn(),
  onQuoteClick: vi.fn(),
  onToggleSelect: vi.fn(),
  onRetry: vi.fn(),
  onDiscard: vi.fn(),
  canRetry: () => true,
});

function bubble(message: MessageDto, { isGroup = false, offline = false } = {}) {
  renderWithProviders(
    <MessageBubble
      message={message}
      isGroup={isGroup}
      selectMode={false}
      selected={false}
      highlighted={false}
      offline={offline}
      handlers={handlers()}
    />,
  );
  return screen.getByTestId(`message-${message.id}`);
}

const media = (id: number, overrides: Partial<MessageDto>) =>
  messageFixture(id, { mediaStatus: 'ready', mediaUrl: `https://cdn.test/${id}`, ...overrides });

describe('message bubble', () => {
  it('renders text with line breaks and links', () => {
    const el = bubble(messageFixture(1, { body: 'Linha 1\nveja https://exemplo.com/a.' }));
    expect(el.querySelector('p')?.textContent).toBe('Linha 1\nveja https://exemplo.com/a.');
    expect(within(el).getByRole('link', { name: 'https://exemplo.com/a' })).toHaveAttribute(
      'href',
      'https://exemplo.com/a',
    );
  });

  it('shows an image thumbnail that opens a lightbox', async () => {
    const el = bubble(media(2, { mediaType: 'image', mediaName: 'foto.jpg', body: 'foto.jpg' }));
    within(el).getByRole('button', { name: 'Ampliar a imagem foto.jpg' }).click();
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(within(screen.getByRole('dialog')).getByRole('link', { name: 'Baixar' })).toHaveAttribute(
      'href',
      'https://cdn.test/2',
    );
  });

  it('plays video, audio and voice notes', () => {
    expect(bubble(media(3, { mediaType: 'video' })).querySelector('video')).toHaveAttribute(
      'src',
      'https://cdn.test/3',
    );
    expect(bubble(media(4, { mediaType: 'audio' })).querySelector('audio[controls]')).toHaveAttribute(
      'src',
      'https://cdn.test/4',
    );
    expect(bubble(media(5, { mediaType: 'ptt' })).querySelector('audio[controls]')).toBeInTheDocument();
  });

  it('shows a document card with name, size and download', () => {
    const el = bubble(media(6, { mediaType: 'application', mediaName: 'nota.pdf', body: 'nota.pdf', mediaSize: 2048 }));
    expect(within(el).getByText('nota.pdf')).toBeInTheDocument();
    expect(within(el).getByText('2.0 KB')).toBeInTheDocument();
    expect(within(el).getByRole('link', { name: 'Baixar nota.pdf' })).toHaveAttribute('href', 'https://cdn.test/6');
  });

  it('shows stickers, locations with an OpenStreetMap link and vCards', () => {
    expect(
      within(bubble(media(7, { mediaType: 'sticker' }))).getByRole('img', { name: 'Figurinha' }),
    ).toBeInTheDocument();
    const location = bubble(
      messageFixture(8, { mediaType: 'location', meta: JSON.stringify({ latitude: -23.5, longitude: -46.6 }) }),
    );
    expect(within(location).getByText('-23.5, -46.6')).toBeInTheDocument();
    expect(
      within(location)
        .getByRole('link', { name: /OpenStreetMap/ })
        .getAttribute('href'),
    ).toContain('mlat=-23.5&mlon=-46.6');
    const card = bubble(
      messageFixture(9, {
        mediaType: 'vcard',
        body: 'BEGIN:VCARD\nVERSION:3.0\nFN:João Lima\nTEL;type=CELL;waid=5511999990000:+55 11 99999-0000\nEND:VCARD',
      }),
    );
    expect(within(card).getByText('João Lima')).toBeInTheDocument();
    expect(within(card).getByText('5511999990000')).toBeInTheDocument();
  });

  it('shows media still downloading and media that failed', () => {
    expect(
      within(bubble(messageFixture(10, { mediaType: 'image', mediaStatus: 'pending' }))).getByText('Baixando mídia…'),
    ).toBeInTheDocument();
    expect(
      within(bubble(messageFixture(11, { mediaType: 'video', mediaStatus: 'failed' }))).getByText('Mídia indisponível'),
    ).toBeInTheDocument();
  });

  it('shows the edition instead of the body, with the edited marker', () => {
    const el = bubble(messageFixture(12, { body: 'antes', edition: 'depois', editedAt: '2025-03-01T10:05:00.000Z' }));
    expect(within(el).getByText('depois')).toBeInTheDocument();
    expect(within(el).queryByText('antes')).not.toBeInTheDocument();
    expect(within(el).getByText(/editada/)).toBeInTheDocument();
  });

  it('shows the deleted marker with its date and offers no actions', () => {
    const el = bubble(messageFixture(13, { isDeleted: true, deletedAt: '2025-03-02T15:04:00' }));
    expect(within(el).getByText('Mensagem apagada em 02/03/2025 15:04:00')).toBeInTheDocument();
    expect(within(el).queryByRole('button', { name: 'Ações da mensagem' })).not.toBeInTheDocument();
  });

  it('labels the ack ticks, and shows offline messages as pending', () => {
    const label = (ack: number) =>
      within(bubble(messageFixture(20 + ack, { fromMe: true, ack })))
        .getByRole('img')
        .getAttribute('aria-label');
    expect([0, 1, 2, 3, 4].map(label)).toEqual(['Pendente', 'Enviada', 'Entregue', 'Lida', 'Reproduzida']);
    expect(
      within(bubble(messageFixture(30, { fromMe: true, ack: 2 }), { offline: true })).getByRole('img'),
    ).toHaveAttribute('aria-label', 'Pendente');
  });

  it('marks undelivered messages in red', () => {
    expect(
      within(bubble(messageFixture(31, { fromMe: true, isDelayed: true }))).getByText('Mensagem não entregue.'),
    ).toBeInTheDocument();
  });

  it('names the sender in groups and the agent on outgoing messages, with reactions and the quote', () => {
    const group = bubble(
      messageFixture(32, {
        contact: contactFixture(3, { name: 'Pedro', number: null }),
        reaction: '👍',
        quotedMsg: {
          id: 1,
          messageId: null,
          body: 'pergunta',
          mediaType: 'chat',
          mediaUrl: null,
          mediaName: null,
          fromMe: true,
          isDeleted: false,
          contact: null,
        },
      }),
      { isGroup: true },
    );
    expect(within(group).getByText('Pedro')).toBeInTheDocument();
    expect(within(group).getByLabelText('Reação do contato: 👍')).toBeInTheDocument();
    expect(within(group).getByRole('button', { name: 'Você pergunta' })).toHaveAccessibleDescription(
      'Ir para a mensagem citada de Você',
    );
    const out = bubble(messageFixture(33, { fromMe: true, user: { id: 7, name: 'Ana' } }));
    expect(within(out).getByText('Ana')).toBeInTheDocument();
  });

  it('offers no actions on notes, transcriptions and transfer notices', () => {
    for (const [id, mediaType] of [
      [40, 'notes'],
      [41, 'transcription'],
      [42, 'transfer'],
    ] as const) {
      expect(
        within(bubble(messageFixture(id, { mediaType }))).queryByRole('button', { name: 'Ações da mensagem' }),
      ).toBeNull();
    }
    expect(within(bubble(messageFixture(43))).getByRole('button', { name: 'Ações da mensagem' })).toBeInTheDocument();
  });
});
