/** The refresh cookie's SameSite: None only for a secure deployment with web clients on other origins. */
import { describe, expect, it } from 'vitest';
import { refreshCookieOptions } from './auth.routes.js';

describe('refresh cookie attributes', () => {
  it('is Lax and Secure on https without other origins', () => {
    expect(refreshCookieOptions({ publicUrl: 'https://api.example.com', corsOrigins: [] })).toMatchObject({
      sameSite: 'lax',
      secure: true,
      httpOnly: true,
      path: '/api/auth',
    });
  });

  it('is None (so another site gets it back) and Secure on https with CORS_ORIGINS', () => {
    expect(
      refreshCookieOptions({ publicUrl: 'https://api.example.com', corsOrigins: ['https://app.other.com'] }),
    ).toMatchObject({ sameSite: 'none', secure: true });
  });

  it('stays Lax on plain http, where browsers refuse SameSite=None', () => {
    expect(
      refreshCookieOptions({ publicUrl: 'http://10.0.0.5:3000', corsOrigins: ['http://10.0.0.6:8080'] }),
    ).toMatchObject({ sameSite: 'lax', secure: false });
  });
});
