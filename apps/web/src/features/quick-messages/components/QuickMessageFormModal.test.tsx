/** The quick message form: key rules, text optional with a file, the file as `medias`, removing the current file. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QuickMessageDto } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderWithProviders, typeInto } from '../../../test/render';
import { QuickMessageFormModal } from './QuickMessageFormModal';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError } = await import('../../../lib/notify');

const fetchMock = vi.fn<typeof fetch>();
const sentForm = (call = 0) => fetchMock.mock.calls[call]?.[1]?.body as FormData;
const dto = (extra: Partial<QuickMessageDto> = {}): QuickMessageDto => ({
  id: 9,
  key: 'tabela',
  message: 'Veja',
  media: 'abc.png',
  voice: 'disabled',
  mediaType: 'image/png',
  mediaUrl: 'http://x/api/public/1/abc.png',
  isActive: true,
  ...extra,
});
const dropzoneInput = () =>
  screen.getByTestId('quick-form-dropzone').querySelector('input[type="file"]') as HTMLInputElement;

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifyError).mockClear();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

describe('quick message form', () => {
  it('requires the key without spaces and the text when there is no file, before calling the server', async () => {
    renderWithProviders(<QuickMessageFormModal opened onClose={vi.fn()} />);
    fireEvent.click(screen.getByTestId('quick-form-submit'));
    expect(await screen.findByText('Chave é obrigatório')).toBeInTheDocument();
    typeInto('quick-form-key', 'duas palavras');
    fireEvent.click(screen.getByTestId('quick-form-submit'));
    expect(await screen.findByText('A chave não pode ter espaços.')).toBeInTheDocument();
    typeInto('quick-form-key', '/ola');
    fireEvent.click(screen.getByTestId('quick-form-submit'));
    expect(await screen.findByText('Mensagem é obrigatório')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('creates with a file and no text: multipart with the file as medias, the key without its /', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(dto({ message: '' }), 201));
    const onClose = vi.fn();
    renderWithProviders(<QuickMessageFormModal opened onClose={onClose} />);
    typeInto('quick-form-key', '/tabela');
    const file = new File(['png'], 'tabela.png', { type: 'image/png' });
    fireEvent.change(dropzoneInput(), { target: { files: [file] } });
    expect(await screen.findByTestId('quick-form-file')).toHaveTextContent('tabela.png');
    fireEvent.click(screen.getByTestId('quick-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/fastreply/');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('POST');
    const form = sentForm();
    expect(form.get('key')).toBe('tabela');
    expect(form.get('message')).toBe('');
    expect(form.get('voice')).toBe('disabled');
    expect((form.get('medias') as File).name).toBe('tabela.png');
    expect(form.get('removeMedia')).toBeNull();
  });

  it('refuses a file of a type the server does not take with the spec text', async () => {
    renderWithProviders(<QuickMessageFormModal opened onClose={vi.fn()} />);
    fireEvent.change(dropzoneInput(), { target: { files: [new File(['x'], 'x.woff2', { type: 'font/woff2' })] } });
    expect(await screen.findByTestId('quick-form-rejected')).toHaveTextContent(
      'Arquivo rejeitado devido ao tamanho ou tipo incompatível.',
    );
    expect(screen.queryByTestId('quick-form-file')).toBeNull();
  });

  it('an edit keeps the file unless removed; removing it sends removeMedia and needs the text', async () => {
    fetchMock.mockResolvedValue(jsonResponse(dto({ media: null, mediaUrl: null, mediaType: null })));
    const onClose = vi.fn();
    renderWithProviders(<QuickMessageFormModal opened onClose={onClose} quick={dto({ message: '' })} />);
    fireEvent.click(screen.getByTestId('quick-form-remove-file'));
    fireEvent.click(screen.getByTestId('quick-form-submit'));
    expect(await screen.findByText('Mensagem é obrigatório')).toBeInTheDocument();
    typeInto('quick-form-message', 'Agora só texto');
    fireEvent.click(screen.getByTestId('quick-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/fastreply/9');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('PUT');
    expect(sentForm().get('removeMedia')).toBe('true');
    expect(sentForm().get('medias')).toBeNull();
  });

  it('shows the duplicate key under the key field', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'ERR_FAST_REPLY_EXISTS' }, 409));
    renderWithProviders(<QuickMessageFormModal opened onClose={vi.fn()} />);
    typeInto('quick-form-key', 'ola');
    typeInto('quick-form-message', 'Olá');
    fireEvent.click(screen.getByTestId('quick-form-submit'));
    expect(await screen.findAllByText('Mensagem rápida já existe.')).not.toHaveLength(0);
    expect(notifyError).toHaveBeenCalledWith('Mensagem rápida já existe.');
  });
});
