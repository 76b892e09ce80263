/**
 * Import and export of contacts (client-contract §6), with the 120 s timeout of client-contract §1. The import
 * answers 202 with an id; its progress then arrives over the socket (see realtime-sync.ts and useImportProgress).
 */
import { useMutation } from '@tanstack/react-query';
import { contactExportResponseSchema, contactImportAcceptedSchema } from '@conversa/shared';
import { api, API_BASE } from '../../../lib/api';

export const CONTACTS_TRANSFER_TIMEOUT_MS = 120_000;
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

export interface ImportContactsVariables {
  file: File;
  /** User ids. */
  wallets: number[];
  /** Tag ids given to every imported contact. */
  tags?: number[];
  validContact: boolean;
}

/** POST /contacts/upload (multipart: file, wallets as a comma list, validContact) -> 202 { importId }. */
export function useImportContacts() {
  return useMutation({
    mutationFn: async ({ file, wallets, tags = [], validContact }: ImportContactsVariables) => {
      const body = new FormData();
      body.append('file', file);
      if (wallets.length) body.append('wallets', wallets.join(','));
      if (tags.length) body.append('tags', tags.join(','));
      body.append('validContact', String(validContact));
      const answer = await api.post('/contacts/upload', body, { timeoutMs: CONTACTS_TRANSFER_TIMEOUT_MS });
      return contactImportAcceptedSchema.parse(answer).importId;
    },
    meta: { handlesErrors: true },
  });
}

export type ExportFormat = 'csv' | 'xlsx';

/** POST /contacts/export?format= -> { downloadLink }. */
export function useExportContacts() {
  return useMutation({
    mutationFn: async (format: ExportFormat) => {
      const answer = await api.post('/contacts/export', undefined, {
        query: { format },
        timeoutMs: CONTACTS_TRANSFER_TIMEOUT_MS,
      });
      return contactExportResponseSchema.parse(answer).downloadLink;
    },
  });
}

/**
 * The server answers a link under the API (`/api/...`), or one relative to it; both become an absolute URL on the
 * API's origin.
 */
export function resolveDownloadLink(link: string, apiBase = API_BASE, origin = window.location.origin): string {
  if (/^https?:\/\//i.test(link)) return link;
  const base = new URL(apiBase, origin);
  const basePath = base.pathname.replace(/\/$/, '');
  const path = link.startsWith('/') ? link : `/${link}`;
  return new URL(path.startsWith(`${basePath}/`) ? path : `${basePath}${path}`, base.origin).href;
}
