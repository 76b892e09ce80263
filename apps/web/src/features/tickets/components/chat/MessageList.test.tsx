/** The history while it is drawn: a loader with a name, never an empty "Início da conversa". */
import { screen, waitFor } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../../test/render';
import { messageFixture } from './chat-fixtures';
import { MessageList } from './MessageList';

const props = {
  items: [messageFixture(1), messageFixture(2, { fromMe: true })],
  olderCount: 0,
  offlineIds: new Set<number>(),
  isGroup: false,
  isLoading: false,
  error: null,
  onRetryLoad: vi.fn(),
  hasOlder: false,
  loadingOlder: false,
  onLoadOlder: vi.fn(),
  selectMode: false,
  selectedIds: new Set<number>(),
  handlers: {
    onReply: vi.fn(),
    onForward: vi.fn(),
    onReact: vi.fn(),
    onEdit: vi.fn(),
    onDelete: vi.fn(),
    onToggleSelect: vi.fn(),
    onRetry: vi.fn(),
    onDiscard: vi.fn(),
    canRetry: () => true,
  },
};

describe('message history while it is drawn', () => {
  it('covers the history with a named loader until the first rows are drawn (no bare "Início da conversa")', () => {
    // Without a measured viewport (jsdom) Virtuoso draws no row: the state a browser is in before its first measure.
    renderWithProviders(<MessageList {...props} />);
    expect(screen.getByTestId('chat-drawing')).toHaveAccessibleName('Carregando…');
    expect(screen.getByRole('status', { name: 'Carregando…' })).toBeInTheDocument();
    expect(screen.queryByText('Início da conversa')).toBeNull();
    expect(screen.queryByTestId('chat-jump-bottom')).toBeNull();
  });

  it('shows the rows and the start of the conversation once drawn, without the loader', async () => {
    renderWithProviders(
      <VirtuosoMockContext.Provider value={{ viewportHeight: 3000, itemHeight: 60 }}>
        <MessageList {...props} />
      </VirtuosoMockContext.Provider>,
    );
    expect(await screen.findByTestId('message-2')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('chat-drawing')).toBeNull());
    expect(screen.getByText('Início da conversa')).toBeInTheDocument();
  });

  it('an empty history says so at once', () => {
    renderWithProviders(<MessageList {...props} items={[]} />);
    expect(screen.getByText('Nenhuma mensagem ainda.')).toBeInTheDocument();
    expect(screen.queryByTestId('chat-drawing')).toBeNull();
  });
});
