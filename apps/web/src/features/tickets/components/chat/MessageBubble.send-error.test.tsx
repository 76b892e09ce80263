import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SEND_ERROR_CODES, type MessageDto } from '@conversa/shared';
import { i18next } from '../../../../lib/i18n';
import { renderWithProviders } from '../../../../test/render';
import { messageFixture } from './chat-fixtures';
import { MessageBubble, type BubbleHandlers } from './MessageBubble';
import { sendErrorText } from './send-error';

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

const reason = (id: number, sendError: string) => {
  const message: MessageDto = messageFixture(id, { fromMe: true, isDelayed: true, sendError, ack: 0 });
  renderWithProviders(
    <MessageBubble
      message={message}
      isGroup={false}
      selectMode={false}
      selected={false}
      highlighted={false}
      offline={false}
      handlers={handlers()}
    />,
  );
  return within(screen.getByTestId(`message-${id}`)).getByTestId(`message-send-error-${id}`);
};

afterEach(async () => {
  await act(() => i18next.changeLanguage('pt'));
});

describe('send failure reason', () => {
  it('a reason code reads translated in Portuguese, never the server text', () => {
    const el = reason(1, 'SEND_NO_CONTACT_ID');
    expect(el).toHaveTextContent('Motivo: O contato não tem identificação neste canal.');
    expect(el).not.toHaveTextContent(/SEND_|no id on this channel/);
  });

  it('and in English', async () => {
    await act(() => i18next.changeLanguage('en-us'));
    expect(reason(2, 'SEND_NO_CONTACT_ID')).toHaveTextContent('Reason: The contact has no id on this channel.');
  });

  it('a catalogue code shows its error text', () => {
    expect(reason(3, 'ERR_MEDIA_QUOTA_EXCEEDED')).toHaveTextContent(/^Motivo: Limite de armazenamento de mídia/);
  });

  it('an unknown provider text is the detail of a translated sentence', () => {
    expect(reason(4, '131047: Re-engagement message')).toHaveTextContent(
      'Motivo informado pelo canal: 131047: Re-engagement message',
    );
  });

  it('every code has its text in every locale', async () => {
    for (const code of ['pt', 'pt-br', 'en-us', 'en-gb', 'es', 'es-419', 'de', 'fr', 'it', 'pl', 'ru']) {
      await i18next.loadLanguages(code);
      const t = i18next.getFixedT(code);
      for (const sendError of SEND_ERROR_CODES) {
        expect(i18next.exists(`chat.sendErrors.${sendError}`, { lng: code }), `${code} ${sendError}`).toBe(true);
        expect(sendErrorText(t, sendError), `${code} ${sendError}`).not.toContain(sendError);
      }
    }
  });
});
