/**
 * The two sending forms' values, checks and bodies (product-spec §5 "Mass sending"): a valid pause with max > min, a
 * connection, numbers (or lines), and the chosen send option's fields (a message; a media URL with its description; an
 * .ogg voice-note URL; a file with its description). A server refusal goes to the field it names, else to a toast.
 */
import type { TFunction } from 'i18next';
import { MEDIA_MAX_BYTES } from '@conversa/shared';
import { ApiError, describeError } from '../../../lib/api-error';
import {
  BULK_INTERVAL_MAX_SECONDS,
  BULK_INTERVAL_MIN_SECONDS,
  BULK_MESSAGE_MAX,
  BULK_NUMBERS_MAX,
  type BulkFileDraft,
  type BulkSendBody,
  type BulkUrlMedia,
  type BulkVariableBody,
} from '../api/bulk';
import { highestColumnUsed, parseNumbers, parseVariableLines } from './mass-numbers';

export const SEND_OPTIONS = ['text', 'mediaUrl', 'voiceUrl', 'file'] as const;
export type SendOption = (typeof SEND_OPTIONS)[number];
/** The variables tab always sends its message; a URL attachment is optional. */
export const ATTACHMENTS = ['none', 'mediaUrl', 'voiceUrl'] as const;
export type Attachment = (typeof ATTACHMENTS)[number];

export const DEFAULT_MIN_SECONDS = 20;
export const DEFAULT_MAX_SECONDS = 40;

export interface PacingValues {
  whatsappId: string | null;
  min: number | string;
  max: number | string;
}

export interface UrlMediaValues {
  mediaUrl: string;
  mediaDescription: string;
  voiceUrl: string;
}

export interface TextSendValues extends PacingValues, UrlMediaValues {
  numbers: string;
  option: SendOption;
  message: string;
  file: File | null;
  fileDescription: string;
  voiceNote: boolean;
}

export interface VariableSendValues extends PacingValues, UrlMediaValues {
  lines: string;
  message: string;
  attachment: Attachment;
}

const pacingDefaults: PacingValues = { whatsappId: null, min: DEFAULT_MIN_SECONDS, max: DEFAULT_MAX_SECONDS };
const urlDefaults: UrlMediaValues = { mediaUrl: '', mediaDescription: '', voiceUrl: '' };

export const textSendDefaults = (): TextSendValues => ({
  ...pacingDefaults,
  ...urlDefaults,
  numbers: '',
  option: 'text',
  message: '',
  file: null,
  fileDescription: '',
  voiceNote: false,
});

export const variableSendDefaults = (): VariableSendValues => ({
  ...pacingDefaults,
  ...urlDefaults,
  lines: '',
  message: '',
  attachment: 'none',
});

/** An audio file may go as a voice note (the server converts it to .ogg). */
export const isAudioFile = (file: File | null): boolean =>
  !!file && (file.type.startsWith('audio/') || /\.(ogg|oga|opus|mp3|m4a|aac|wav)$/i.test(file.name));

function isHttpUrl(text: string): URL | null {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

const isInterval = (value: number | string) => {
  const seconds = Number(value);
  return (
    value !== '' &&
    Number.isInteger(seconds) &&
    seconds >= BULK_INTERVAL_MIN_SECONDS &&
    seconds <= BULK_INTERVAL_MAX_SECONDS
  );
};

const required = (t: TFunction, field: string) =>
  t('validation.required', { attribute: t(`massSending.fields.${field}`) });

/** The checks both forms share: the connection, the pause, and the URL attachment when chosen. */
function sharedRules<V extends PacingValues & UrlMediaValues>(
  t: TFunction,
  urlKind: (values: V) => 'mediaUrl' | 'voiceUrl' | null,
) {
  const range = { min: BULK_INTERVAL_MIN_SECONDS, max: BULK_INTERVAL_MAX_SECONDS };
  return {
    whatsappId: (value: string | null) => (value ? null : required(t, 'whatsappId')),
    min: (value: number | string) => (isInterval(value) ? null : t('massSending.validation.interval', range)),
    max: (value: number | string, values: PacingValues) => {
      if (!isInterval(value)) return t('massSending.validation.interval', range);
      return isInterval(values.min) && Number(value) <= Number(values.min)
        ? t('massSending.validation.maxAfterMin')
        : null;
    },
    mediaUrl: (value: string, values: V) => {
      if (urlKind(values) !== 'mediaUrl') return null;
      if (!value.trim()) return required(t, 'mediaUrl');
      return isHttpUrl(value) ? null : t('massSending.validation.url');
    },
    mediaDescription: (value: string, values: V) =>
      urlKind(values) === 'mediaUrl' && !value.trim() ? required(t, 'mediaDescription') : null,
    voiceUrl: (value: string, values: V) => {
      if (urlKind(values) !== 'voiceUrl') return null;
      if (!value.trim()) return required(t, 'voiceUrl');
      const url = isHttpUrl(value);
      if (!url) return t('massSending.validation.url');
      return url.pathname.toLowerCase().endsWith('.ogg') ? null : t('massSending.validation.ogg');
    },
  };
}

const messageRule = (t: TFunction, value: string) => {
  if (!value.trim()) return required(t, 'message');
  return value.length > BULK_MESSAGE_MAX ? t('massSending.validation.messageTooLong', { max: BULK_MESSAGE_MAX }) : null;
};

export function textSendRules(t: TFunction) {
  const urlKind = ({ option }: TextSendValues) => (option === 'mediaUrl' || option === 'voiceUrl' ? option : null);
  return {
    ...sharedRules(t, urlKind),
    numbers: (value: string) => {
      const { numbers } = parseNumbers(value);
      if (numbers.length === 0) return t('massSending.validation.numbersRequired');
      return numbers.length > BULK_NUMBERS_MAX
        ? t('massSending.validation.numbersTooMany', { max: BULK_NUMBERS_MAX })
        : null;
    },
    message: (value: string, values: TextSendValues) => (values.option === 'text' ? messageRule(t, value) : null),
    file: (value: File | null, values: TextSendValues) => {
      if (values.option !== 'file') return null;
      if (!value) return required(t, 'file');
      return value.size > MEDIA_MAX_BYTES
        ? t('massSending.validation.fileTooLarge', { size: Math.round(MEDIA_MAX_BYTES / 1024 / 1024) })
        : null;
    },
    fileDescription: (value: string, values: TextSendValues) =>
      values.option === 'file' && !value.trim() ? required(t, 'fileDescription') : null,
  };
}

export function variableSendRules(t: TFunction) {
  const urlKind = ({ attachment }: VariableSendValues) => (attachment === 'none' ? null : attachment);
  return {
    ...sharedRules(t, urlKind),
    lines: (value: string) => {
      const parsed = parseVariableLines(value);
      if (parsed.lines.length === 0) return t('massSending.validation.linesRequired');
      if (parsed.firstInvalidLine !== null)
        return t('massSending.validation.lineInvalid', { line: parsed.firstInvalidLine });
      return parsed.lines.length > BULK_NUMBERS_MAX
        ? t('massSending.validation.numbersTooMany', { max: BULK_NUMBERS_MAX })
        : null;
    },
    message: (value: string, values: VariableSendValues) => {
      const problem = messageRule(t, value);
      if (problem) return problem;
      const used = highestColumnUsed(value);
      const { columns } = parseVariableLines(values.lines);
      return used > columns ? t('massSending.validation.columnMissing', { variable: `{{var${used}}}`, columns }) : null;
    },
  };
}

const pacing = (values: PacingValues) => ({
  whatsappId: Number(values.whatsappId),
  min: Number(values.min),
  max: Number(values.max),
});

function urlMedia(kind: 'mediaUrl' | 'voiceUrl' | null, values: UrlMediaValues): BulkUrlMedia {
  if (kind === 'mediaUrl')
    return { mediaUrl: values.mediaUrl.trim(), mediaDescription: values.mediaDescription.trim() };
  if (kind === 'voiceUrl') return { voiceUrl: values.voiceUrl.trim() };
  return {};
}

export type TextSendRequest = { kind: 'json'; body: BulkSendBody } | { kind: 'file'; draft: BulkFileDraft };

/** POST /bulk/ with exactly one send option, or POST /bulkClose/ when a file is attached. */
export function textSendRequest(values: TextSendValues): TextSendRequest {
  const arrayNumbers = parseNumbers(values.numbers).numbers;
  if (values.option === 'file' && values.file) {
    return {
      kind: 'file',
      draft: {
        ...pacing(values),
        arrayNumbers,
        file: values.file,
        description: values.fileDescription.trim(),
        voice: values.voiceNote && isAudioFile(values.file),
      },
    };
  }
  const option = values.option === 'mediaUrl' || values.option === 'voiceUrl' ? values.option : null;
  const body: BulkSendBody = { ...pacing(values), arrayNumbers, ...urlMedia(option, values) };
  if (values.option === 'text') body.message = values.message;
  return { kind: 'json', body };
}

/** POST /bulkVariable/: the non-empty lines, the message and an optional URL attachment. */
export function variableSendBody(values: VariableSendValues): BulkVariableBody {
  const attachment = values.attachment === 'none' ? null : values.attachment;
  return {
    ...pacing(values),
    number: parseVariableLines(values.lines).lines.join('\n'),
    message: values.message,
    ...urlMedia(attachment, values),
  };
}

/** The server's `field` names (400 ERR_VALIDATION) and the form field each one is shown on. */
export const TEXT_FIELD_OF: Record<string, keyof TextSendValues> = {
  whatsappId: 'whatsappId',
  arrayNumbers: 'numbers',
  min: 'min',
  max: 'max',
  message: 'message',
  mediaUrl: 'mediaUrl',
  mediaDescription: 'mediaDescription',
  voiceUrl: 'voiceUrl',
  medias: 'file',
  mediaLocalDescription: 'fileDescription',
};

export const VARIABLE_FIELD_OF: Record<string, keyof VariableSendValues> = {
  whatsappId: 'whatsappId',
  number: 'lines',
  min: 'min',
  max: 'max',
  message: 'message',
  mediaUrl: 'mediaUrl',
  mediaDescription: 'mediaDescription',
  voiceUrl: 'voiceUrl',
};

export interface SendFailure {
  /** The form field to mark, when the refusal names one the form shows now. */
  field?: string;
  message: string;
  /** Shown as a toast (nothing when the API client already showed one). */
  notify: boolean;
}

const PACING_FIELDS = ['whatsappId', 'min', 'max'] as const;
const URL_FIELDS = { mediaUrl: ['mediaUrl', 'mediaDescription'], voiceUrl: ['voiceUrl'] } as const;

/** The fields the text tab shows for its send option. */
export function textFieldsShown(option: SendOption): string[] {
  const chosen = option === 'text' ? ['message'] : option === 'file' ? ['file', 'fileDescription'] : URL_FIELDS[option];
  return [...PACING_FIELDS, 'numbers', ...chosen];
}

/** The fields the variables tab shows for its attachment. */
export function variableFieldsShown(attachment: Attachment): string[] {
  return [...PACING_FIELDS, 'lines', 'message', ...(attachment === 'none' ? [] : URL_FIELDS[attachment])];
}

/**
 * Where a refused send is shown: the named field (ERR_VALIDATION; the file for a 413) when the form shows it, else a
 * toast (saying which field, when one is named).
 */
export function sendFailure(
  error: unknown,
  fieldOf: Record<string, string>,
  shown: readonly string[],
  t: TFunction,
): SendFailure {
  if (!(error instanceof ApiError)) return { message: describeError(error), notify: true };
  const named = error.code === 'ERR_VALIDATION' && error.field ? fieldOf[error.field] : undefined;
  if (named) {
    const message = t('validation.invalid', { attribute: t(`massSending.fields.${named}`) });
    return shown.includes(named) ? { field: named, message, notify: false } : { message, notify: true };
  }
  if (error.code === 'ERR_PAYLOAD_TOO_LARGE' && fieldOf.medias && shown.includes(fieldOf.medias))
    return { field: fieldOf.medias, message: describeError(error), notify: false };
  return { message: describeError(error), notify: !error.notified };
}
