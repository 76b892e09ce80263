import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CaptchaChallenge, PlanDto } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderRoutes, typeInto } from '../../../test/render';
import { SignupPage } from './SignupPage';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError } = await import('../../../lib/notify');

const disabledCaptcha: CaptchaChallenge = {
  enabled: false,
  token: '',
  background: '',
  piece: '',
  width: 0,
  height: 0,
  pieceSize: 0,
  pieceY: 0,
};
const enabledCaptcha: CaptchaChallenge = {
  enabled: true,
  token: 'challenge-1',
  background: 'data:image/svg+xml,bg',
  piece: 'data:image/svg+xml,piece',
  width: 300,
  height: 150,
  pieceSize: 44,
  pieceY: 40,
};
const plan: PlanDto = { id: 3, name: 'Básico', value: 99, connections: 1, users: 3, trial: 'enabled', trialPeriod: 7 };

const routes = [
  { path: '/signup', element: <SignupPage /> },
  { path: '/login', element: <p>login form</p> },
];

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifyError).mockClear();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

function serve(captcha: CaptchaChallenge) {
  fetchMock.mockImplementation(async (url) => {
    const path = String(url);
    if (path.endsWith('/auth/captcha')) return jsonResponse(captcha);
    if (path.endsWith('/plan/')) return jsonResponse({ plan: [plan] });
    if (path.endsWith('/signup')) return jsonResponse({ status: 'confirmation_sent' }, 202);
    return jsonResponse({}, 404);
  });
}

const signupCalls = () => fetchMock.mock.calls.filter(([url]) => String(url) === '/api/signup');
const signupBody = () => JSON.parse(String(signupCalls()[0]?.[1]?.body)) as Record<string, unknown>;

async function fillForm() {
  fireEvent.click(await screen.findByTestId('signup-plan-3'));
  typeInto('signup-name', '  Loja da Ana ');
  typeInto('signup-cpfcnpj', '52998224725');
  typeInto('signup-email', ' ana@example.com ');
  typeInto('signup-phone', '11987654321');
  typeInto('signup-password', 'Secret#1');
}

describe('sign-up', () => {
  it('sends the form and shows the check-your-e-mail state after 202 confirmation_sent', async () => {
    serve(disabledCaptcha);
    renderRoutes(routes, '/signup');
    await waitFor(() => expect(screen.getByTestId('captcha')).toHaveAttribute('data-state', 'disabled'));
    await fillForm();
    fireEvent.click(screen.getByTestId('signup-submit'));
    expect(await screen.findByTestId('signup-check-email')).toHaveTextContent(
      'Enviamos um link de confirmação para ana@example.com.',
    );
    expect(screen.queryByTestId('signup-submit')).not.toBeInTheDocument();
    expect(signupCalls()).toHaveLength(1);
    expect(signupBody()).toEqual({
      name: 'Loja da Ana',
      cpfCnpj: '529.982.247-25',
      email: 'ana@example.com',
      mobilePhone: '11987654321',
      password: 'Secret#1',
      planId: 3,
    });
    expect(notifyError).not.toHaveBeenCalled();
  });

  it('refuses to send before the captcha is answered, then sends { token, x } with the form', async () => {
    serve(enabledCaptcha);
    renderRoutes(routes, '/signup');
    await waitFor(() => expect(screen.getByTestId('captcha')).toHaveAttribute('data-state', 'ready'));
    await fillForm();
    fireEvent.click(screen.getByTestId('signup-submit'));
    expect(await screen.findByText('Por favor, valide o CAPTCHA antes de continuar.')).toBeInTheDocument();
    expect(signupCalls()).toHaveLength(0);

    const slider = screen.getByTestId('captcha-slider');
    fireEvent.keyDown(slider, { key: 'PageUp' });
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    expect(screen.getByTestId('captcha')).toHaveAttribute('data-state', 'answered');
    fireEvent.click(screen.getByTestId('signup-submit'));
    expect(await screen.findByTestId('signup-check-email')).toBeInTheDocument();
    expect(signupCalls()).toHaveLength(1);
    expect(signupBody()).toMatchObject({
      email: 'ana@example.com',
      planId: 3,
      captcha: { token: 'challenge-1', x: 11 },
    });
  });
});
