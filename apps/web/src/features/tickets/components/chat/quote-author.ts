/**
 * Who wrote a quoted (or replied-to) message. The server names a quote's sender only in groups (`contact`), so in a
 * private chat the customer's quotes take the ticket's contact name (never the bare word "Contato" when the name is
 * known); our own messages read "Você", or the colleague's name when another agent wrote it (from the loaded
 * history). ChatPanel provides what it knows; without a provider the generic words stand.
 */
import { createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';

type Agent = { id: number; name: string } | null | undefined;

export interface QuoteAuthorSource {
  /** The private chat's contact; null in groups (a participant's quote names its sender itself). */
  contactName: string | null;
  meId: number;
  /** The agent of a loaded message (an own quote carries no agent of its own). */
  agentOf: (messageId: number) => Agent;
}

export const QuoteAuthorContext = createContext<QuoteAuthorSource>({
  contactName: null,
  meId: 0,
  agentOf: () => null,
});

export interface QuotedAuthor {
  id: number;
  fromMe: boolean;
  /** The sender the message itself names (groups). */
  contact: { name: string } | null | undefined;
  /** The agent the message itself names, when it carries one. */
  user?: Agent;
}

export function quoteAuthorName(
  message: QuotedAuthor,
  source: QuoteAuthorSource,
  words: { you: string; contact: string },
): string {
  if (message.fromMe) {
    const agent = message.user ?? source.agentOf(message.id);
    return agent && agent.id !== source.meId && agent.name ? agent.name : words.you;
  }
  return message.contact?.name || source.contactName || words.contact;
}

/** The author's name for a quote or a reply banner, in the chat around it. */
export function useQuoteAuthor(message: QuotedAuthor): string {
  const { t } = useTranslation();
  const source = useContext(QuoteAuthorContext);
  return quoteAuthorName(message, source, { you: t('chat.quote.you'), contact: t('chat.quote.contact') });
}
