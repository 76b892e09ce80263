import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { contactFixture } from '../../../test/contacts';
import { jsonResponse, renderWithProviders, requestBody, typeInto } from '../../../test/render';
import { ContactFormModal } from './ContactFormModal';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError, notifySuccess } = await import('../../../lib/notify');

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifyError).mockClear();
  vi.mocked(notifySuccess).mockClear();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

describe('contact form', () => {
  it('requires the name and refuses an invalid CPF/CNPJ without calling the server', async () => {
    const onClose = vi.fn();
    renderWithProviders(<ContactFormModal opened onClose={onClose} canListUsers={false} />);
    typeInto('contact-form-cpf', '11111111111');
    expect(screen.getByTestId('contact-form-cpf')).toHaveValue('111.111.111-11');
    typeInto('contact-form-email', 'not-an-email');
    fireEvent.click(screen.getByTestId('contact-form-submit'));
    expect(await screen.findByText('Nome é obrigatório')).toBeInTheDocument();
    expect(screen.getByText('CPF ou CNPJ inválido.')).toBeInTheDocument();
    expect(screen.getByText('E-mail é inválido.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('shows the number hint', () => {
    renderWithProviders(<ContactFormModal opened onClose={vi.fn()} canListUsers={false} />);
    expect(screen.getByText('+código do país, DDD, número')).toBeInTheDocument();
  });

  it('creates: punctuated CPF, ISO birthday typed day first, extra info rows', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(contactFixture(9, { name: 'Maria' }), 201));
    const onClose = vi.fn();
    renderWithProviders(<ContactFormModal opened onClose={onClose} canListUsers={false} />);
    typeInto('contact-form-name', '  Maria  ');
    typeInto('contact-form-number', '+55 (11) 91234-5678');
    typeInto('contact-form-email', 'maria@example.com');
    typeInto('contact-form-cpf', '52998224725');
    typeInto('contact-form-birthday', '31/12/1990');
    fireEvent.click(screen.getByTestId('contact-form-extra-add'));
    typeInto('contact-form-extra-name-0', 'Plano');
    typeInto('contact-form-extra-value-0', 'Ouro');
    fireEvent.click(screen.getByTestId('contact-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/contacts');
    expect(requestBody(fetchMock, 0)).toMatchObject({
      name: 'Maria',
      number: '+55 (11) 91234-5678',
      email: 'maria@example.com',
      cpf: '529.982.247-25',
      birthdayDate: '1990-12-31',
      extraInfo: [{ name: 'Plano', value: 'Ouro' }],
      blocked: false,
      chatbotBlocked: false,
    });
    expect(notifySuccess).toHaveBeenCalledWith('Contato criado!');
  });

  it.each([
    ['ERR_DUPLICATED_CONTACT', 409, 'contact-form-number', 'Já existe um contato com este número.'],
    ['ERR_WAPP_INVALID_CONTACT', 400, 'contact-form-number', 'Este não é um número de WhatsApp válido.'],
    ['ERR_INVALID_CPF_CNPJ', 400, 'contact-form-cpf', 'CPF ou CNPJ inválido.'],
  ] as const)('puts %s under its field and in a toast', async (code, status, field, text) => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: code }, status));
    const onClose = vi.fn();
    renderWithProviders(<ContactFormModal opened onClose={onClose} canListUsers={false} />);
    typeInto('contact-form-name', 'Maria');
    typeInto('contact-form-number', '5511912345678');
    typeInto('contact-form-cpf', '52998224725');
    fireEvent.click(screen.getByTestId('contact-form-submit'));
    await waitFor(() => expect(notifyError).toHaveBeenCalledWith(text));
    expect(screen.getByTestId(field)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(text)).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('edits: the unchanged number stays out of the PUT body', async () => {
    const contact = contactFixture(4, { name: 'João', number: '5511912345678', birthdayDate: '1980-02-01' });
    fetchMock.mockResolvedValueOnce(jsonResponse({ ...contact, name: 'João Silva' }));
    const onClose = vi.fn();
    renderWithProviders(<ContactFormModal opened onClose={onClose} contact={contact} canListUsers={false} />);
    expect(screen.getByTestId('contact-form-number')).toHaveValue('+55 (11) 91234-5678');
    expect(screen.getByTestId('contact-form-birthday')).toHaveValue('01/02/1980');
    typeInto('contact-form-name', 'João Silva');
    fireEvent.click(screen.getByTestId('contact-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/contacts/4');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('PUT');
    expect(requestBody(fetchMock, 0)).not.toHaveProperty('number');
    expect(requestBody(fetchMock, 0)).toMatchObject({ name: 'João Silva', birthdayDate: '1980-02-01' });
  });
});
