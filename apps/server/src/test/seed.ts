export const SEED_EMAIL = 'superadmin@test.local';
export const SEED_PASSWORD = 'Super#Secret1';

export function templateDatabaseUrl(base: string): string {
  const url = new URL(base);
  url.pathname = `/${url.pathname.slice(1) || 'conversa_test'}_template`;
  return url.toString();
}

/** Administrative connection (CREATE/DROP DATABASE) on the server of TEST_DATABASE_URL. */
export function adminDatabaseUrl(base: string): string {
  const url = new URL(base);
  url.pathname = '/postgres';
  return url.toString();
}
