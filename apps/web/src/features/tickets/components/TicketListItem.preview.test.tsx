import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCALES, MESSAGE_MEDIA_TYPES } from '@conversa/shared';
import { i18next } from '../../../lib/i18n';
import { renderWithProviders } from '../../../test/render';
import { messageFixture, ticketFixture } from '../../../test/tickets';
import { messagePatch } from '../hooks/ticket-list-cache';
import { TicketListItem } from './TicketListItem';
import { ticketPreview } from '../hooks/ticket-preview';

const row = (lastMessage: string | null) =>
  renderWithProviders(
    <ul>
      <TicketListItem
        ticket={ticketFixture(1, { lastMessage })}
        selected={false}
        tabbable
        accepting={false}
        onOpen={() => undefined}
        onAccept={() => undefined}
      />
    </ul>,
  );

const preview = () => screen.getByTestId('ticket-preview-1');

afterEach(async () => {
  await act(() => i18next.changeLanguage('pt'));
});

describe('ticket row preview', () => {
  it('shows a location, a sticker and a voice message translated, never the raw media type', () => {
    const { unmount } = row('location');
    expect(preview()).toHaveTextContent('📍 Localização');
    unmount();
    const sticker = row('sticker');
    expect(preview()).toHaveTextContent(/Figurinha$/);
    sticker.unmount();
    row('ptt');
    expect(preview()).toHaveTextContent(/Mensagem de voz$/);
    expect(preview()).not.toHaveTextContent('ptt');
  });

  it('translates in the UI language (English)', async () => {
    await act(() => i18next.changeLanguage('en-us'));
    row('location');
    expect(preview()).toHaveTextContent(/Location$/);
  });

  it('keeps a text (and a file name) as it is, "chat" included', () => {
    const { unmount } = row('Bom dia, tudo bem?');
    expect(preview()).toHaveTextContent(/^Bom dia, tudo bem\?$/);
    unmount();
    row('chat');
    expect(preview()).toHaveTextContent(/^chat$/);
  });

  it('the pictogram is hidden from screen readers', () => {
    row('location');
    expect(preview().querySelector('[aria-hidden]')).toHaveTextContent('📍');
  });

  it('every media type a preview can carry has a translated label in every locale', async () => {
    for (const code of LOCALES) {
      await i18next.loadLanguages(code);
      for (const type of MESSAGE_MEDIA_TYPES.filter((m) => m !== 'chat')) {
        const result = ticketPreview(type);
        expect(result.kind, type).toBe('media');
        if (result.kind !== 'media') continue;
        const label = i18next.getFixedT(code)(result.labelKey);
        expect(label, `${code} ${type}`).not.toBe(result.labelKey);
        expect(label, `${code} ${type}`).not.toBe(type);
      }
    }
  });

  it('a live location message (no text, no file name) previews as the server stores it: its media type', () => {
    const message = messageFixture(
      60,
      { id: 1, unreadMessages: 1 },
      { body: '', mediaName: null, mediaType: 'location' },
    );
    expect(messagePatch(ticketFixture(1), message).lastMessage).toBe('location');
  });
});
