/**
 * The campaign report's calls (issue 25): GET /campaigns/{id}/report (counts and each recipient's state) and the
 * export GET /campaigns/{id}/report/export?format=csv|xlsx. The export is an authenticated download: fetched with the
 * bearer token (one refresh-and-replay on 403, as the API client does), read as a blob and saved under the file name
 * the server's Content-Disposition gives.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { campaignReportSchema, type CampaignReportFormat } from '@conversa/shared';
import { api, ApiError, buildUrl, getFreshToken, handleUnauthorized, refreshToken } from '../../../lib/api';
import { readErrorCode } from '../../../lib/errors';
import { campaignKeys } from './campaigns';

/** Under campaignKeys.all: `{T}:campaign` (useCampaignsLive) reads the report again as the campaign moves. */
export const campaignReportKey = (id: number) => [...campaignKeys.all, 'report', id] as const;

/** A campaign's whole list may take a while to write: the contacts export's 120 s, not the client's 20 s. */
export const REPORT_EXPORT_TIMEOUT_MS = 120_000;

export const exportPath = (id: number) => `/campaigns/${id}/report/export`;

/** GET /campaigns/{id}/report. */
export const useCampaignReport = (id: number) =>
  useQuery({
    queryKey: campaignReportKey(id),
    queryFn: async () => campaignReportSchema.parse(await api.get(`/campaigns/${id}/report`, { background: true })),
  });

/** The file name of a Content-Disposition header: the RFC 5987 UTF-8 form first, else the quoted ASCII one. */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed encoding: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/i.exec(disposition);
  return (plain?.[1] ?? plain?.[2])?.trim() || null;
}

/** Saves a blob through a temporary link; the URL is revoked once the click has handed it to the download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function fetchExport(url: string, token: string | null): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REPORT_EXPORT_TIMEOUT_MS);
  try {
    const response = await fetch(url, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      credentials: 'include',
      signal: controller.signal,
    });
    // The body is read under the same timeout: a stalled stream ends as an error, not a button loading forever.
    return new Response(await response.blob(), { status: response.status, headers: response.headers });
  } finally {
    clearTimeout(timer);
  }
}

async function failure(response: Response, sentToken: string | null): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = JSON.parse(await response.text()) as unknown;
  } catch {
    // Not JSON: the generic message.
  }
  const error = new ApiError(response.status, readErrorCode(body), body);
  if (response.status === 401 && sentToken) {
    error.notified = true;
    handleUnauthorized(error.message);
  }
  return error;
}

/** Downloads the export and saves it; answers the saved file's name. */
export async function downloadCampaignReport(id: number, format: CampaignReportFormat): Promise<string> {
  const url = buildUrl(exportPath(id), { format });
  let token = await getFreshToken();
  let response = await fetchExport(url, token);
  if (response.status === 403) {
    const fresh = await refreshToken();
    if (fresh) {
      token = fresh;
      response = await fetchExport(url, token);
    }
  }
  if (!response.ok) throw await failure(response, token);
  const name = fileNameOf(response.headers.get('Content-Disposition')) ?? `campanha-${id}.${format}`;
  saveBlob(await response.blob(), name);
  return name;
}

/** The export buttons' mutation (its variables say which format is downloading); errors are shown by the screen. */
export const useDownloadCampaignReport = (id: number) =>
  useMutation({
    mutationFn: (format: CampaignReportFormat) => downloadCampaignReport(id, format),
    meta: { handlesErrors: true },
  });
