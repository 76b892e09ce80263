import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { MessageDto } from '@conversa/shared';
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

function bubble(message: MessageDto, selectMode = false) {
  renderWithProviders(
    <MessageBubble
      message={message}
      isGroup={false}
      selectMode={selectMode}
      selected={false}
      highlighted={false}
      offline={false}
      handlers={handlers()}
    />,
  );
  return screen.getByTestId(`message-${message.id}`);
}

const openMenu = async (el: HTMLElement) => {
  fireEvent.click(within(el).getByRole('button', { name: 'Ações da mensagem' }));
  await screen.findByTestId('message-action-reply');
};

describe('bubbles of the official channels', () => {
  it('draws a sent template with its icon and label, and offers no actions (§20.3)', () => {
    const el = bubble(
      messageFixture(1, { fromMe: true, mediaType: 'templates', body: 'Pedido #981\n\nOlá Maria, seu pedido saiu.' }),
    );
    const template = within(el).getByTestId('message-template-1');
    expect(template).toHaveTextContent('Modelo (template)');
    expect(template).toHaveTextContent('Olá Maria, seu pedido saiu.');
    expect(within(el).queryByRole('button', { name: 'Ações da mensagem' })).toBeNull();
    expect(within(el).queryByRole('button', { name: 'Reagir' })).toBeNull();
  });

  it('shows the options of buttons as chips (from the stored body) and without forward', async () => {
    const el = bubble(messageFixture(2, { fromMe: true, mediaType: 'button', body: 'Quer continuar?\n\n[Sim] [Não]' }));
    const content = within(el).getByTestId('message-interactive-2');
    expect(content.querySelector('p')?.textContent).toBe('Quer continuar?');
    const options = within(content).getByRole('list', { name: 'Opções' });
    expect(
      within(options)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Sim', 'Não']);
    await openMenu(el);
    expect(screen.queryByTestId('message-action-forward')).toBeNull();
    expect(screen.queryByTestId('message-action-edit')).toBeNull();
  });

  it('shows list sections from meta, with the list button', () => {
    const meta = JSON.stringify({
      button: 'Ver planos',
      sections: [
        {
          title: 'Planos',
          rows: [
            { id: 'b', title: 'Básico' },
            { id: 'p', title: 'Pro' },
          ],
        },
      ],
    });
    const el = bubble(messageFixture(3, { fromMe: true, mediaType: 'list', body: 'Escolha um plano', meta }));
    expect(within(el).getByText('Ver planos')).toBeInTheDocument();
    const options = within(el).getByRole('list', { name: 'Planos' });
    expect(
      within(options)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Básico', 'Pro']);
  });

  it("styles the customer's choice as a reply to options, and a type the product cannot show as a muted notice", () => {
    const choice = bubble(messageFixture(4, { mediaType: 'button_reply', body: 'Falar com atendente' }));
    expect(within(choice).getByTestId('message-choice-4')).toHaveTextContent('Escolheu a opçãoFalar com atendente');
    const unsupported = bubble(messageFixture(5, { mediaType: 'unsupported', body: '[ephemeral]' }));
    expect(within(unsupported).getByTestId('message-unsupported-5')).toHaveTextContent(
      'Tipo de mensagem não suportado ([ephemeral])',
    );
  });

  it('keeps forward for ordinary messages', async () => {
    await openMenu(bubble(messageFixture(10)));
    expect(screen.getByTestId('message-action-forward')).toBeInTheDocument();
  });

  it('hides the forward checkbox of interactive kinds in select mode', () => {
    const interactive = bubble(messageFixture(6, { mediaType: 'button_reply', body: 'Sim' }), true);
    expect(within(interactive).queryByRole('checkbox')).toBeNull();
    const text = bubble(messageFixture(7), true);
    expect(within(text).getByRole('checkbox')).toBeInTheDocument();
  });

  it("shows the provider's failure reason next to the undelivered state, in words", () => {
    const el = bubble(
      messageFixture(8, { fromMe: true, isDelayed: true, sendError: '131047: Re-engagement message', ack: 0 }),
    );
    const failure = within(el).getByTestId('message-undelivered-8');
    expect(within(failure).getByText('Mensagem não entregue.')).toHaveAttribute('tabindex', '0');
    expect(within(failure).getByTestId('message-send-error-8')).toHaveTextContent(
      'Motivo informado pelo canal: 131047: Re-engagement message',
    );
    // Without a reason: the state alone.
    const plain = bubble(messageFixture(9, { fromMe: true, isDelayed: true }));
    expect(within(plain).getByText('Mensagem não entregue.')).toBeInTheDocument();
    expect(within(plain).queryByTestId('message-send-error-9')).toBeNull();
  });
});
