/**
 * A message's send failure in words (issue 23): the server stores a reason code (SEND_ERROR_CODES), a catalogue
 * code, or a provider's own text. Codes are translated; a provider's text is the detail of a translated sentence,
 * so the UI never reads "Motivo: the contact has no id on this channel".
 */
import { isErrorCode, isSendErrorCode } from '@conversa/shared';
import type { TFunction } from 'i18next';
import { errorText } from '../../../../lib/errors';

export function sendErrorText(t: TFunction, sendError: string): string {
  if (isSendErrorCode(sendError)) return t('chat.sendErrorReason', { reason: t(`chat.sendErrors.${sendError}`) });
  if (isErrorCode(sendError)) return t('chat.sendErrorReason', { reason: errorText(sendError) });
  return t('chat.sendErrorProvider', { detail: sendError });
}
