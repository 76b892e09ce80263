/**
 * The variables of a quick message, filled in the browser when it is inserted in the chat: `{{name}}` (the
 * contact's name), `{{firstName}}`, `{{greeting}}` (good morning / afternoon / evening by the local hour, in the
 * user's language), `{{protocol}}` (the ticket's protocol), `{{user}}` (the agent's name) and `{{ticket}}` (its id).
 * Unknown variables stay as typed; a missing value becomes empty text.
 */
export const QUICK_MESSAGE_VARIABLES = ['name', 'firstName', 'greeting', 'protocol', 'user', 'ticket'] as const;
export type QuickMessageVariable = (typeof QUICK_MESSAGE_VARIABLES)[number];

export interface Greetings {
  morning: string;
  afternoon: string;
  evening: string;
}

export interface VariableContext {
  contactName?: string | null;
  protocol?: string | null;
  userName?: string | null;
  ticketId?: number | null;
  greetings: Greetings;
  now?: Date;
}

/** Morning from 05:00, afternoon from 12:00, evening from 18:00 until 04:59. */
export function greetingFor(hour: number, greetings: Greetings): string {
  if (hour >= 5 && hour < 12) return greetings.morning;
  if (hour >= 12 && hour < 18) return greetings.afternoon;
  return greetings.evening;
}

const PATTERN = /\{\{\s*([A-Za-z]+)\s*\}\}/g;

export function fillVariables(template: string, ctx: VariableContext): string {
  const name = ctx.contactName?.trim() ?? '';
  const values: Record<QuickMessageVariable, string> = {
    name,
    firstName: name.split(/\s+/)[0] ?? '',
    greeting: greetingFor((ctx.now ?? new Date()).getHours(), ctx.greetings),
    protocol: ctx.protocol ?? '',
    user: ctx.userName ?? '',
    ticket: ctx.ticketId ? String(ctx.ticketId) : '',
  };
  return template.replace(PATTERN, (whole, key: string) =>
    (QUICK_MESSAGE_VARIABLES as readonly string[]).includes(key) ? values[key as QuickMessageVariable] : whole,
  );
}
