/** The tag form: name required, colour as #rrggbb (typed or from a swatch), the server's duplicate under the name. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderWithProviders, requestBody, typeInto } from '../../../test/render';
import { TAG_SWATCHES, TagFormModal } from './TagFormModal';

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

describe('tag form', () => {
  it('requires the name and a #rrggbb colour before calling the server', async () => {
    renderWithProviders(<TagFormModal opened onClose={vi.fn()} />);
    typeInto('tag-form-color', 'vermelho');
    fireEvent.click(screen.getByTestId('tag-form-submit'));
    expect(await screen.findByText('Nome da etiqueta é obrigatório')).toBeInTheDocument();
    expect(screen.getByText('Cor inválida: use o formato #rrggbb.')).toBeInTheDocument();
    typeInto('tag-form-color', '');
    fireEvent.click(screen.getByTestId('tag-form-submit'));
    expect(await screen.findByText('Cor é obrigatório')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a mistyped colour is kept and refused on blur, never replaced by the previous one', async () => {
    renderWithProviders(
      <TagFormModal opened onClose={vi.fn()} tag={{ id: 5, tag: 'Lead', color: '#123456', isActive: true }} />,
    );
    const color = screen.getByTestId('tag-form-color');
    fireEvent.focus(color);
    typeInto('tag-form-color', '#12345');
    fireEvent.blur(color);
    expect(await screen.findByText('Cor inválida: use o formato #rrggbb.')).toBeInTheDocument();
    expect(color).toHaveValue('#12345');
    fireEvent.click(screen.getByTestId('tag-form-submit'));
    await waitFor(() => expect(screen.getByTestId('tag-form-color')).toHaveValue('#12345'));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the server's colour refusal under the field", async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse({ error: 'ERR_VALIDATION', field: 'color', message: 'color must be #rrggbb' }, 400),
    );
    renderWithProviders(<TagFormModal opened onClose={vi.fn()} />);
    typeInto('tag-form-name', 'VIP');
    typeInto('tag-form-color', '#ABCDEF');
    fireEvent.click(screen.getByTestId('tag-form-submit'));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(
      await screen.findByText('Cor inválida: use o formato #rrggbb.', { selector: '.mantine-InputWrapper-error' }),
    ).toBeInTheDocument();
  });

  it('creates with a colour picked from a swatch', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ id: 3, tag: 'VIP', color: TAG_SWATCHES[0], isActive: true }, 201));
    const onClose = vi.fn();
    renderWithProviders(<TagFormModal opened onClose={onClose} />);
    typeInto('tag-form-name', ' VIP ');
    fireEvent.focus(screen.getByTestId('tag-form-color'));
    fireEvent.click(screen.getByTestId('tag-form-color'));
    const swatch = await waitFor(() => {
      const element = document.querySelector(`[aria-label="${TAG_SWATCHES[0]}"]`);
      expect(element).not.toBeNull();
      return element!;
    });
    fireEvent.click(swatch);
    expect(screen.getByTestId('tag-form-color')).toHaveValue(TAG_SWATCHES[0]);
    fireEvent.click(screen.getByTestId('tag-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/tags/');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('POST');
    expect(requestBody(fetchMock, 0)).toEqual({ tag: 'VIP', color: TAG_SWATCHES[0], isActive: true });
    expect(notifySuccess).toHaveBeenCalledWith('Etiqueta criada.');
  });

  it('edits with PUT and shows ERR_TAG_EXISTS under the name', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'ERR_TAG_EXISTS' }, 409));
    const onClose = vi.fn();
    renderWithProviders(
      <TagFormModal opened onClose={onClose} tag={{ id: 5, tag: 'Lead', color: '#123456', isActive: false }} />,
    );
    expect(screen.getByTestId('tag-form-color')).toHaveValue('#123456');
    typeInto('tag-form-name', 'VIP');
    typeInto('tag-form-color', '#ABCDEF');
    fireEvent.click(screen.getByTestId('tag-form-submit'));
    await waitFor(() => expect(notifyError).toHaveBeenCalledWith('Já existe uma etiqueta com este nome.'));
    expect(screen.getByTestId('tag-form-name')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/tags/5');
    expect(requestBody(fetchMock, 0)).toEqual({ tag: 'VIP', color: '#ABCDEF', isActive: false });
    expect(onClose).not.toHaveBeenCalled();
  });
});
