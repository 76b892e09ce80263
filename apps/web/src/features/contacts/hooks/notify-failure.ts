/**
 * A failed contacts action (product-spec §8 'Erro ao deletar contato.', 'Erro ao importar contatos.'): the screen's
 * own text as the title, with the catalogue text of the server's code when there is one. Nothing when the API client
 * already showed a toast (401, 5xx).
 */
import { ApiError, describeError } from '../../../lib/api';
import { notifyError } from '../../../lib/notify';

export function notifyFailure(error: unknown, text: string): void {
  if (error instanceof ApiError && error.notified) return;
  if (error instanceof ApiError && error.code) notifyError(describeError(error), text);
  else notifyError(text);
}
