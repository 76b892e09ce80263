/**
 * A failed channel action: the screen's own text as the title, with the catalogue text of the server's code when
 * there is one (ERR_CONNECTION_LIMIT, ERR_CHANNEL_PROVIDER, ...). Nothing when the API client already showed a toast.
 */
import { ApiError, describeError } from '../../../lib/api';
import { notifyError } from '../../../lib/notify';

export function notifyFailure(error: unknown, text: string): void {
  if (error instanceof ApiError && error.notified) return;
  if (error instanceof ApiError && error.code) notifyError(describeError(error), text);
  else notifyError(text);
}
