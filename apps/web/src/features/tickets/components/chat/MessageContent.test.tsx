/** Message text as the chat draws it: links and WhatsApp's formatting. */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../../test/render';
import { messageFixture } from '../../../../test/tickets';
import { MessageContent, RichText } from './MessageContent';

describe('RichText', () => {
  it('draws the signature in bold, italic and strike-through, and keeps links', () => {
    renderWithProviders(<RichText text={'*Ana*:\n_veja_ ~isto~ https://example.com/a.'} />);
    expect(screen.getByText('Ana').tagName).toBe('STRONG');
    expect(screen.getByText('veja').tagName).toBe('EM');
    expect(screen.getByText('isto').tagName).toBe('S');
    expect(screen.getByRole('link', { name: 'https://example.com/a' })).toHaveAttribute(
      'href',
      'https://example.com/a',
    );
    expect(screen.queryByText(/\*Ana\*/)).toBeNull();
  });

  it("opens the customer's 60,000-character `~a ` message as the text it is, nothing struck", () => {
    const text = '~a '.repeat(20_000);
    const { container } = renderWithProviders(<RichText text={text} />);
    const paragraph = container.querySelector('p')!;
    expect(paragraph.textContent).toBe(text);
    expect(paragraph.querySelectorAll('*')).toHaveLength(0);
  });

  it('draws every span of a 60,000-character message of short lines, and a long line as typed', () => {
    const line = `~${'a'.repeat(46)}~ ~${'b'.repeat(46)}~ `; // 98 characters, two spans
    const lines = Array.from({ length: 610 }, () => line);
    const long = '*b* '.repeat(1100); // 4,400 characters: past the cut-off
    const text = [...lines, long].join('\n');
    expect(text.length).toBeGreaterThan(60_000);
    const { container } = renderWithProviders(<RichText text={text} />);
    expect(container.querySelectorAll('s')).toHaveLength(610 * 2);
    expect(container.querySelectorAll('strong')).toHaveLength(0);
    expect(container.querySelector('p')!.textContent).toBe(
      [...lines.map((l) => l.replaceAll('~', '')), long].join('\n'),
    );
  });

  it("never turns a customer's text into HTML", () => {
    const text = '<img src=x onerror="alert(1)"> *<b>negrito</b>* ```<script>x()</script>``` javascript:alert(1)';
    const { container } = renderWithProviders(<RichText text={text} />);
    expect(container.querySelector('img, b, script, a')).toBeNull();
    expect(container.querySelector('strong')!.textContent).toBe('<b>negrito</b>');
    expect(container.querySelector('code')!.textContent).toBe('<script>x()</script>');
  });
});

describe('MessageContent of a text past the server cap', () => {
  it('shows the stored part and links the whole text, its file', () => {
    const message = messageFixture(
      7,
      { id: 3, unreadMessages: 0 },
      {
        body: 'início',
        mediaType: 'chat',
        mediaUrl: 'https://chat.example.com/api/media/t0k3n',
        mediaName: 'mensagem-completa.txt',
        mediaStatus: 'ready',
      },
    );
    renderWithProviders(<MessageContent message={message} />);
    expect(screen.getByText('início')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /mensagem-completa\.txt/ })).toHaveAttribute(
      'href',
      'https://chat.example.com/api/media/t0k3n',
    );
  });

  it('a text message without a file has no link', () => {
    renderWithProviders(<MessageContent message={messageFixture(8, { id: 3, unreadMessages: 0 }, { body: 'oi' })} />);
    expect(screen.queryByRole('link')).toBeNull();
  });
});
