/** Business constants of product-spec §9 shared by server and web. */
export const PROFILES = ['user', 'super', 'admin', 'superadmin'] as const;
export type Profile = (typeof PROFILES)[number];

export const LOCALES = ['pt', 'pt-br', 'en-us', 'en-gb', 'es', 'es-419', 'de', 'fr', 'it', 'pl', 'ru'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'pt';
export const FALLBACK_LOCALE = 'en-us';

export const API_TIMEOUT_MS = 20_000;
export const IDLE_RELOAD_SECONDS = 7_200;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const LOADING_OVERLAY_AFTER_MS = 2_000;
export const LOADING_OVERLAY_HIDE_MS = 1_000;
export const LOGOUT_REDIRECT_MS = 2_000;
export const LOGIN_RATE_WINDOW_MS = 60_000;
export const LOGIN_RATE_MAX_ATTEMPTS = 5;
export const PROTECTED_TENANT_ID = 1;
export const USERS_PAGE_SIZE = 40;
export const SIGNUP_PASSWORD_MIN = 7;

export const TENANT_STATUSES = ['active', 'inactive'] as const;
export type TenantStatus = (typeof TENANT_STATUSES)[number];

export const isAdminProfile = (profile: Profile): boolean => profile === 'admin' || profile === 'superadmin';
