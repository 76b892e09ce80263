/**
 * Error texts (product-spec §8): the code is read from `error`, then `msg`, then `message`; a catalogue code shows its
 * text in the current language, an unknown code shows the raw string, no code shows the generic message.
 */
import { errorCatalogue, isErrorCode } from '@conversa/shared';
import { currentLocale, i18next } from './i18n';

export function readErrorCode(body: unknown): string | null {
  if (typeof body === 'string') return body.trim() || null;
  if (!body || typeof body !== 'object') return null;
  const record = body as Record<string, unknown>;
  for (const field of ['error', 'msg', 'message'] as const) {
    const value = record[field];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return null;
}

export function errorText(code: string | null | undefined): string {
  if (!code) return i18next.t('feedback.unidentifiedError');
  const key = `errors.${code}`;
  if (i18next.exists(key)) return i18next.t(key);
  if (isErrorCode(code)) {
    const locale = currentLocale();
    return locale === 'pt' || locale === 'pt-br' ? errorCatalogue[code].ptBR : errorCatalogue[code].en;
  }
  return code;
}
