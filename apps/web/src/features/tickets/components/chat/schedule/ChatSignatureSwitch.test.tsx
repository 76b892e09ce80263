import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LoginResponse } from '@conversa/shared';
import { clearSession, getStoredLogin, storeLogin } from '../../../../../lib/storage';
import { jsonResponse, renderWithProviders, requestBody } from '../../../../../test/render';
import { ChatSignatureSwitch } from './ChatSignatureSwitch';

const fetchMock = vi.fn<typeof fetch>();
let settings: { key: string; value: string }[] = [];

function login(configs: Record<string, unknown>) {
  storeLogin({
    token: 'x',
    username: 'Ana',
    email: 'ana@x.test',
    profile: 'user',
    userId: 5,
    tenantId: 1,
    configs,
  } as unknown as LoginResponse);
}

beforeEach(() => {
  settings = [
    { key: 'signed', value: 'disabled' },
    { key: 'userDisableSignature', value: 'disabled' },
  ];
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url) =>
    String(url).includes('/settings') ? jsonResponse(settings) : jsonResponse({ signature: true }),
  );
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
});

describe('ChatSignatureSwitch', () => {
  it("is off until the user turns it on, and saves the change in the user's configs", async () => {
    login({ isDark: true });
    renderWithProviders(<ChatSignatureSwitch />);
    const toggle = screen.getByTestId('chat-signature');
    expect(toggle).not.toBeChecked();
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    fireEvent.click(toggle);
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/users/5/configs'))).toBe(true),
    );
    const call = fetchMock.mock.calls.findIndex(([url]) => String(url).includes('/users/5/configs'));
    expect(requestBody(fetchMock, call)).toEqual({ isDark: true, signature: true });
    await waitFor(() => expect(getStoredLogin()?.configs).toEqual({ isDark: true, signature: true }));
    expect(toggle).toBeChecked();
  });

  it('is not offered when the tenant turns agents’ signatures off', async () => {
    settings = [{ key: 'agentSignature', value: 'disabled' }];
    login({ signature: true });
    renderWithProviders(<ChatSignatureSwitch />);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await waitFor(() => expect(screen.queryByTestId('chat-signature')).toBeNull());
  });

  it('is on and cannot be turned off when the tenant forces the signature', async () => {
    settings = [{ key: 'signed', value: 'enabled' }];
    login({ signature: false });
    renderWithProviders(<ChatSignatureSwitch />);
    // Once the settings arrive the switch is re-rendered inside its tooltip: read it again.
    await waitFor(() => expect(screen.getByTestId('chat-signature')).toBeChecked());
    expect(screen.getByTestId('chat-signature')).toBeDisabled();
  });
});
