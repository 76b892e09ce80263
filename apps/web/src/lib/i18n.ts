/**
 * i18next with the spec's 11 locales (product-spec §1). The language names are the codes of `LOCALES`, kept lower
 * case. Default: the stored language, else the browser's Portuguese variety (pt-BR -> pt-br), else pt; fallback en-us. Locale files load lazily, one chunk each.
 */
import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, FALLBACK_LOCALE, LOCALES, type Locale } from '@conversa/shared';
import { getStoredLanguage, setStoredLanguage } from './storage';

export const LANGUAGE_LABELS: Record<Locale, string> = {
  pt: 'Português',
  'pt-br': 'Português (Brasil)',
  'en-us': 'English (US)',
  'en-gb': 'English (UK)',
  es: 'Español',
  'es-419': 'Español (Latinoamérica)',
  de: 'Deutsch',
  fr: 'Français',
  it: 'Italiano',
  pl: 'Polski',
  ru: 'Русский',
};

/** BCP 47 tags for `<html lang>` and Intl. */
export const LANGUAGE_TAGS: Record<Locale, string> = {
  pt: 'pt-BR',
  'pt-br': 'pt-BR',
  'en-us': 'en-US',
  'en-gb': 'en-GB',
  es: 'es',
  'es-419': 'es-419',
  de: 'de',
  fr: 'fr',
  it: 'it',
  pl: 'pl',
  ru: 'ru',
};

const loaders = import.meta.glob<{ default: ResourceKey }>('../locales/*.json');

const localeBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, _namespace, callback) {
    const load = loaders[`../locales/${language}.json`];
    if (!load) {
      callback(new Error(`unknown locale ${language}`), false);
      return;
    }
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Accepts stored or browser values like `pt-BR`, `en`, `es_419`. */
export function normalizeLocale(value: string | null | undefined): Locale | null {
  if (!value) return null;
  const code = value.trim().toLowerCase().replace('_', '-');
  if (isLocale(code)) return code;
  if (code === 'en') return 'en-us';
  if (code.startsWith('es-')) return 'es-419';
  const base = code.split('-')[0];
  return isLocale(base) ? base : null;
}

/**
 * The browser's Portuguese variety, for a first visit (nothing stored). The spec's default locale is pt, so the
 * browser only chooses between our Portuguese locales: the first Portuguese entry of `navigator.languages` decides
 * (pt-BR -> pt-br; pt, pt-PT and the other Portuguese regions -> pt). A browser without Portuguese gets the default.
 */
export function browserPortuguese(languages: readonly string[] | undefined): Locale | null {
  for (const language of languages ?? []) {
    const code = language.trim().toLowerCase().replace('_', '-');
    if (code === 'pt-br') return 'pt-br';
    if (code === 'pt' || code.startsWith('pt-')) return 'pt';
  }
  return null;
}

function navigatorLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  if (navigator.languages?.length) return navigator.languages;
  return navigator.language ? [navigator.language] : [];
}

/** The language to start in: the stored one, else the browser's Portuguese variety, else pt. */
export function startLocale(
  stored: string | null | undefined = getStoredLanguage(),
  languages: readonly string[] = navigatorLanguages(),
): Locale {
  return normalizeLocale(stored) ?? browserPortuguese(languages) ?? DEFAULT_LOCALE;
}

export const currentLocale = (): Locale =>
  normalizeLocale(i18next.resolvedLanguage ?? i18next.language) ?? DEFAULT_LOCALE;

export async function initI18n(language?: Locale): Promise<typeof i18next> {
  const lng = language ?? startLocale();
  if (!i18next.isInitialized) {
    await i18next
      .use(localeBackend)
      .use(initReactI18next)
      .init({
        lng,
        fallbackLng: FALLBACK_LOCALE,
        supportedLngs: [...LOCALES],
        lowerCaseLng: true,
        load: 'currentOnly',
        ns: ['translation'],
        defaultNS: 'translation',
        interpolation: { escapeValue: false },
        returnNull: false,
        react: { useSuspense: false },
        showSupportNotice: false,
      });
  } else if (i18next.language !== lng) {
    await i18next.changeLanguage(lng);
  }
  applyDocumentLanguage(lng);
  return i18next;
}

function applyDocumentLanguage(language: Locale): void {
  if (typeof document !== 'undefined') document.documentElement.lang = LANGUAGE_TAGS[language];
}

export async function changeLanguage(language: Locale): Promise<void> {
  setStoredLanguage(language);
  await i18next.changeLanguage(language);
  applyDocumentLanguage(language);
}

export const t = (key: string, options?: Record<string, unknown>): string => i18next.t(key, options);

export { i18next };
