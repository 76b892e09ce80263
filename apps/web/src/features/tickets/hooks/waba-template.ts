/**
 * WhatsApp Cloud API message templates in the chat's template picker: reading a cached template's Graph components
 * (HEADER, BODY, FOOTER, BUTTONS), the variables an agent must fill (`{{1}}`..`{{n}}`, or named `{{name}}`), the
 * preview text, validation, and the `components` of the send in Graph's shape (client-contract §7.2).
 */
import { z } from 'zod';

export const HEADER_MEDIA_FORMATS = ['IMAGE', 'VIDEO', 'DOCUMENT'] as const;
export type HeaderMediaFormat = (typeof HEADER_MEDIA_FORMATS)[number];

const upper = z.string().transform((value) => value.toUpperCase());
const componentSchema = z
  .object({
    type: upper,
    format: upper.optional(),
    text: z.string().optional(),
    buttons: z
      .array(
        z
          .object({
            type: upper.optional(),
            text: z.string().optional(),
            url: z.string().optional(),
            phone_number: z.string().optional(),
          })
          .loose(),
      )
      .optional(),
  })
  .loose();

export interface TemplateButton {
  /** Graph's button type (QUICK_REPLY, URL, PHONE_NUMBER, COPY_CODE, ...). */
  type: string;
  text: string;
  /** URL buttons: the URL, possibly with one `{{1}}` suffix variable. */
  url: string | null;
}

export interface ParsedTemplate {
  header: { format: string; text: string | null } | null;
  body: string;
  footer: string | null;
  buttons: TemplateButton[];
}

/** The parts of a template; components it cannot read are left out rather than failing the whole picker. */
export function parseTemplate(components: unknown[]): ParsedTemplate {
  const parsed: ParsedTemplate = { header: null, body: '', footer: null, buttons: [] };
  for (const raw of components) {
    const component = componentSchema.safeParse(raw);
    if (!component.success) continue;
    const { type, format, text, buttons } = component.data;
    if (type === 'HEADER') parsed.header = { format: format ?? 'TEXT', text: text ?? null };
    else if (type === 'BODY') parsed.body = text ?? '';
    else if (type === 'FOOTER') parsed.footer = text ?? null;
    else if (type === 'BUTTONS')
      parsed.buttons = (buttons ?? []).map((button) => ({
        type: button.type ?? 'QUICK_REPLY',
        text: button.text ?? '',
        url: button.url ?? null,
      }));
  }
  return parsed;
}

const VARIABLE = /{{\s*([\w]+)\s*}}/g;

/** The distinct variables of a text, in order of first use. */
export const variablesOf = (text: string | null | undefined): string[] => [
  ...new Set([...(text ?? '').matchAll(VARIABLE)].map((match) => match[1] ?? '')),
];

/** The text with its variables filled; an empty value keeps its `{{n}}` so the preview shows what is missing. */
export const fillText = (text: string, values: Record<string, string>): string =>
  text.replace(VARIABLE, (whole, key: string) => values[key]?.trim() || whole);

export const headerMediaFormat = (template: ParsedTemplate): HeaderMediaFormat | null =>
  (HEADER_MEDIA_FORMATS as readonly string[]).includes(template.header?.format ?? '')
    ? (template.header?.format as HeaderMediaFormat)
    : null;

/** What the agent fills: header text variables or the header media URL, body variables, URL-button suffixes. */
export interface TemplateValues {
  header: Record<string, string>;
  headerMediaUrl: string;
  body: Record<string, string>;
  /** By button index. */
  buttons: Record<number, string>;
}

export const emptyTemplateValues = (): TemplateValues => ({ header: {}, headerMediaUrl: '', body: {}, buttons: {} });

/** The fields to fill, each with a stable id (used for inputs and errors). */
export interface TemplateField {
  id: string;
  part: 'header' | 'headerMedia' | 'body' | 'button';
  /** Variable key (header, body, button) or media format (headerMedia). */
  key: string;
  /** Button index (button fields). */
  index?: number;
}

export function templateFields(template: ParsedTemplate): TemplateField[] {
  const fields: TemplateField[] = [];
  const media = headerMediaFormat(template);
  if (media) fields.push({ id: 'header-media', part: 'headerMedia', key: media });
  else if (template.header?.format === 'TEXT')
    for (const key of variablesOf(template.header.text)) fields.push({ id: `header-${key}`, part: 'header', key });
  for (const key of variablesOf(template.body)) fields.push({ id: `body-${key}`, part: 'body', key });
  template.buttons.forEach((button, index) => {
    if (button.type === 'URL')
      for (const key of variablesOf(button.url))
        fields.push({ id: `button-${index}-${key}`, part: 'button', key, index });
  });
  return fields;
}

export const fieldValue = (values: TemplateValues, field: TemplateField): string => {
  if (field.part === 'headerMedia') return values.headerMediaUrl;
  if (field.part === 'header') return values.header[field.key] ?? '';
  if (field.part === 'body') return values.body[field.key] ?? '';
  return values.buttons[field.index ?? 0] ?? '';
};

export const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

export type FieldError = 'required' | 'url';

/** Every variable is required; a header media must be an http(s) URL Meta can fetch. */
export function validateTemplate(template: ParsedTemplate, values: TemplateValues): Record<string, FieldError> {
  const errors: Record<string, FieldError> = {};
  for (const field of templateFields(template)) {
    const value = fieldValue(values, field).trim();
    if (!value) errors[field.id] = 'required';
    else if (field.part === 'headerMedia' && !isHttpUrl(value)) errors[field.id] = 'url';
  }
  return errors;
}

/** Positional variables go as plain text parameters; named ones (Graph's NAMED format) also carry their name. */
const textParameter = (key: string, text: string) =>
  /^\d+$/.test(key) ? { type: 'text', text } : { type: 'text', parameter_name: key, text };

/** The `components` of `POST /wabametaTemplateComponents`, in Graph's send shape; parts without variables are omitted. */
export type SendComponent = { type: string; [key: string]: unknown };

export function buildComponents(template: ParsedTemplate, values: TemplateValues): SendComponent[] {
  const components: SendComponent[] = [];
  const media = headerMediaFormat(template);
  if (media) {
    const kind = media.toLowerCase();
    components.push({ type: 'header', parameters: [{ type: kind, [kind]: { link: values.headerMediaUrl.trim() } }] });
  } else if (template.header?.format === 'TEXT') {
    const keys = variablesOf(template.header.text);
    if (keys.length > 0)
      components.push({
        type: 'header',
        parameters: keys.map((key) => textParameter(key, (values.header[key] ?? '').trim())),
      });
  }
  const bodyKeys = variablesOf(template.body);
  if (bodyKeys.length > 0)
    components.push({
      type: 'body',
      parameters: bodyKeys.map((key) => textParameter(key, (values.body[key] ?? '').trim())),
    });
  template.buttons.forEach((button, index) => {
    if (button.type !== 'URL' || variablesOf(button.url).length === 0) return;
    components.push({
      type: 'button',
      sub_type: 'url',
      index: String(index),
      parameters: [{ type: 'text', text: (values.buttons[index] ?? '').trim() }],
    });
  });
  return components;
}
