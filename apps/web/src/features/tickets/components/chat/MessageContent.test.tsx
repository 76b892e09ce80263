/** Message text as the chat draws it: links and WhatsApp's formatting. */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../../test/render';
import { RichText } from './MessageContent';

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
});
