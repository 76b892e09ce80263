/**
 * Message kinds of the official channels (issue 15) in the chat: interactive sends (buttons, lists), the customer's
 * choice of one of their options, templates and types the product cannot show; and which actions each one takes
 * (client-contract §20.3).
 */
import type { MessageDto, MessageMediaType } from '@conversa/shared';

export const INTERACTIVE_TYPES: MessageMediaType[] = ['button', 'list', 'interactive'];

/** The kinds drawn by OfficialContent instead of the generic text/media content. */
const OFFICIAL_KINDS: MessageMediaType[] = ['templates', ...INTERACTIVE_TYPES, 'button_reply', 'unsupported'];
export const isOfficialKind = (message: MessageDto): boolean => OFFICIAL_KINDS.includes(message.mediaType);

/**
 * Forward is hidden for the kinds whose content is not a text or a file another chat could receive as such: the
 * options of an interactive message, the customer's choice of one, and an unsupported type (nothing to forward).
 */
const NOT_FORWARDABLE: MessageMediaType[] = [...INTERACTIVE_TYPES, 'button_reply', 'unsupported'];
export const canForward = (message: MessageDto): boolean => !NOT_FORWARDABLE.includes(message.mediaType);

export interface OptionSection {
  title: string | null;
  options: string[];
}

const titleOf = (item: unknown): string | null => {
  if (typeof item === 'string') return item.trim() || null;
  if (!item || typeof item !== 'object') return null;
  const record = item as Record<string, unknown>;
  // Ours ({ id, title }), Meta's reply buttons ({ reply: { title } }) and older clients ({ text } / { body }).
  const nested = record.reply && typeof record.reply === 'object' ? (record.reply as Record<string, unknown>) : null;
  for (const value of [record.title, nested?.title, record.text, record.body]) {
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return null;
};

const titles = (items: unknown): string[] =>
  Array.isArray(items) ? items.map(titleOf).filter((title): title is string => title !== null) : [];

/**
 * The options of a button/list/interactive message, read from its `meta` (JSON): our payloads (`buttons`,
 * `sections[].rows`), Meta's interactive object (`action.buttons`, `action.sections`), or a plain `options` array.
 * Empty when there is nothing readable: the bubble then shows the text alone.
 */
export function interactiveOptions(meta: string | null): OptionSection[] {
  if (!meta) return [];
  let value: unknown;
  try {
    value = JSON.parse(meta);
  } catch {
    return [];
  }
  if (Array.isArray(value)) {
    const options = titles(value);
    return options.length ? [{ title: null, options }] : [];
  }
  if (!value || typeof value !== 'object') return [];
  const record = value as Record<string, unknown>;
  const source =
    record.action && typeof record.action === 'object' ? (record.action as Record<string, unknown>) : record;
  const buttons = titles(source.buttons ?? record.options);
  if (buttons.length) return [{ title: null, options: buttons }];
  if (Array.isArray(source.sections)) {
    return source.sections
      .map((section: unknown) => {
        const item = (section && typeof section === 'object' ? section : {}) as Record<string, unknown>;
        return { title: typeof item.title === 'string' && item.title ? item.title : null, options: titles(item.rows) };
      })
      .filter((section) => section.options.length > 0);
  }
  return [];
}

/** The label of a list's open button when the meta names it (`button` / `action.button`). */
export function listButtonLabel(meta: string | null): string | null {
  if (!meta) return null;
  try {
    const value = JSON.parse(meta) as Record<string, unknown> | null;
    const action = value?.action as Record<string, unknown> | undefined;
    const label = value?.button ?? action?.button;
    return typeof label === 'string' && label.trim() ? label.trim() : null;
  } catch {
    return null;
  }
}

const LABELS_LINE = /^(?:\[[^\]\n]+\]\s*)+$/;

/**
 * The server stores a button/list send's body as readable text ending with a paragraph of its labels in brackets
 * (`[Sim] [Não]`; a list: `[its button]`). That paragraph becomes chips; the rest is the text.
 */
export function splitLabels(body: string): { text: string; labels: string[] } {
  const cut = body.lastIndexOf('\n\n');
  const last = (cut >= 0 ? body.slice(cut + 2) : body).trim();
  if (!LABELS_LINE.test(last)) return { text: body, labels: [] };
  const labels = [...last.matchAll(/\[([^\]\n]+)\]/g)].map((match) => (match[1] ?? '').trim()).filter(Boolean);
  return { text: cut >= 0 ? body.slice(0, cut) : '', labels };
}

export interface InteractiveView {
  text: string;
  sections: OptionSection[];
  /** A list's open button. */
  listButton: string | null;
}

/** What a button/list/interactive bubble shows: the options from `meta` when it has them, else from the body. */
export function interactiveView(message: Pick<MessageDto, 'body' | 'edition' | 'meta' | 'mediaType'>): InteractiveView {
  const body = message.edition ?? message.body;
  const sections = interactiveOptions(message.meta);
  const listButton = message.mediaType === 'list' ? listButtonLabel(message.meta) : null;
  if (sections.length > 0 || listButton) return { text: body, sections, listButton };
  const { text, labels } = splitLabels(body);
  if (labels.length === 0) return { text: body, sections: [], listButton: null };
  if (message.mediaType === 'list') return { text, sections: [], listButton: labels[0] ?? null };
  return { text, sections: [{ title: null, options: labels }], listButton: null };
}
