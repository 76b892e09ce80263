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

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

const birthday = () => screen.getByTestId('contact-form-birthday');

/** Retypes the birthday as a person does: empties the field, types, leaves it. */
function retype(text: string) {
  fireEvent.focus(birthday());
  typeInto('contact-form-birthday', '');
  typeInto('contact-form-birthday', text);
  fireEvent.blur(birthday());
}

describe('contact form birthday', () => {
  it("a mistyped birthday (31/02/1990) says 'Data inválida' and never erases the stored one", async () => {
    const contact = contactFixture(4, { name: 'João', birthdayDate: '1980-02-01' });
    const onClose = vi.fn();
    renderWithProviders(<ContactFormModal opened onClose={onClose} contact={contact} canListUsers={false} />);
    expect(birthday()).toHaveValue('01/02/1980');
    retype('31/02/1990');
    expect(await screen.findByText('Data inválida')).toBeInTheDocument();
    expect(birthday()).toHaveValue('31/02/1990');
    fireEvent.click(screen.getByTestId('contact-form-submit'));
    await waitFor(() => expect(screen.getByText('Data inválida')).toBeInTheDocument());
    expect(fetchMock).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('typed over the stored date (no emptying first): the text stays, refused, nothing sent', async () => {
    const contact = contactFixture(7, { name: 'Caio', birthdayDate: '1980-02-01' });
    renderWithProviders(<ContactFormModal opened onClose={vi.fn()} contact={contact} canListUsers={false} />);
    fireEvent.focus(birthday());
    typeInto('contact-form-birthday', '31/02/1990');
    fireEvent.blur(birthday());
    expect(await screen.findByText('Data inválida')).toBeInTheDocument();
    expect(birthday()).toHaveValue('31/02/1990');
    fireEvent.click(screen.getByTestId('contact-form-submit'));
    await waitFor(() => expect(screen.getByText('Data inválida')).toBeInTheDocument());
    expect(birthday()).toHaveValue('31/02/1990');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a future date is refused the same way; fixing it clears the error and saves the new date', async () => {
    const contact = contactFixture(5, { name: 'Ana', birthdayDate: '1980-02-01' });
    fetchMock.mockResolvedValueOnce(jsonResponse({ ...contact, birthdayDate: '1990-02-28' }));
    const onClose = vi.fn();
    renderWithProviders(<ContactFormModal opened onClose={onClose} contact={contact} canListUsers={false} />);
    retype('01/01/2999');
    expect(await screen.findByText('Data inválida')).toBeInTheDocument();
    retype('28/02/1990');
    await waitFor(() => expect(screen.queryByText('Data inválida')).toBeNull());
    fireEvent.click(screen.getByTestId('contact-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requestBody(fetchMock, 0)).toMatchObject({ birthdayDate: '1990-02-28' });
  });

  it('an emptied field clears the birthday on purpose', async () => {
    const contact = contactFixture(6, { name: 'Bia', birthdayDate: '1980-02-01' });
    fetchMock.mockResolvedValueOnce(jsonResponse({ ...contact, birthdayDate: null }));
    const onClose = vi.fn();
    renderWithProviders(<ContactFormModal opened onClose={onClose} contact={contact} canListUsers={false} />);
    fireEvent.focus(birthday());
    typeInto('contact-form-birthday', '');
    fireEvent.blur(birthday());
    fireEvent.click(screen.getByTestId('contact-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requestBody(fetchMock, 0)).toMatchObject({ birthdayDate: null });
  });
});
