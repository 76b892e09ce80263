/**
 * The chat's contact drawer edits with the contacts screen's form rules (lib/contact-form.ts): the same checks before
 * any request, and an unchanged number left out of the body, so a group contact (whose id is no phone number) saves.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../../lib/api';
import { i18next } from '../../../../lib/i18n';
import { contactFixture } from '../../../../test/contacts';
import { jsonResponse, renderWithProviders, requestBody, typeInto } from '../../../../test/render';
import { ContactDrawer } from './ContactDrawer';

vi.mock('../../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifySuccess } = await import('../../../../lib/notify');

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifySuccess).mockClear();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

const openEditor = (contact = contactFixture(4, { name: 'Maria' })) => {
  renderWithProviders(<ContactDrawer contact={contact} ticketId={7} opened onClose={vi.fn()} />);
  fireEvent.click(screen.getByTestId('chat-contact-edit'));
};

describe('chat contact drawer edit', () => {
  it('refuses an invalid CPF/CNPJ, number and e-mail without calling the server', async () => {
    openEditor();
    typeInto('contact-form-name', ' ');
    typeInto('contact-form-number', '123');
    typeInto('contact-form-email', 'not-an-email');
    typeInto('contact-form-cpf', '11111111111');
    fireEvent.click(screen.getByTestId('contact-form-submit'));
    expect(await screen.findByText('Nome é obrigatório')).toBeInTheDocument();
    expect(screen.getByText('CPF ou CNPJ inválido.')).toBeInTheDocument();
    expect(screen.getByText('E-mail é inválido.')).toBeInTheDocument();
    expect(screen.getByTestId('contact-form-number')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses each rule on its own: a number too short, then a CPF with a wrong check digit', async () => {
    openEditor();
    typeInto('contact-form-number', '+55 11 12');
    fireEvent.click(screen.getByTestId('contact-form-submit'));
    expect(await screen.findByText(i18next.t('contacts.form.numberInvalid'))).toBeInTheDocument();
    typeInto('contact-form-number', '+55 11 91234-5678');
    typeInto('contact-form-cpf', '52998224724');
    fireEvent.click(screen.getByTestId('contact-form-submit'));
    expect(await screen.findByText('CPF ou CNPJ inválido.')).toBeInTheDocument();
    expect(screen.queryByText(i18next.t('contacts.form.numberInvalid'))).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('saves a group contact without sending its unchanged id as a number', async () => {
    const group = contactFixture(5, { name: 'Equipe', number: '120363025246125486', isGroup: true });
    fetchMock.mockResolvedValueOnce(jsonResponse({ ...group, name: 'Equipe Vendas' }));
    openEditor(group);
    typeInto('contact-form-name', 'Equipe Vendas');
    typeInto('contact-form-cpf', '52998224725');
    fireEvent.click(screen.getByTestId('contact-form-submit'));
    await waitFor(() => expect(notifySuccess).toHaveBeenCalled());
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/contacts/5');
    const body = requestBody(fetchMock, 0);
    expect(body).toMatchObject({ name: 'Equipe Vendas', cpf: '529.982.247-25' });
    expect(body).not.toHaveProperty('number');
  });
});
