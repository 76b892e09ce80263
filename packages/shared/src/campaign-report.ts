/**
 * The campaign report (issue 25; client-contract §12 `GET /campaigns/{id}/report`, "report object, PDF built
 * client-side"): the campaign as the list shows it, its counts, each recipient's state, and the export of every
 * recipient as CSV or XLSX (`GET /campaigns/{id}/report/export?format=`).
 */
import { z } from 'zod';
import { CAMPAIGN_DELIVERY_STATES, campaignDtoSchema } from './campaigns.js';

/**
 * A recipient's state in the report: the delivery states, and `skipped` apart from `failed` as the list's counts keep
 * them (a skipped recipient was never sent: opted out, blocked, unreachable; a failed one was sent and refused).
 */
export const CAMPAIGN_REPORT_STATES = [...CAMPAIGN_DELIVERY_STATES, 'skipped'] as const;
export type CampaignReportState = (typeof CAMPAIGN_REPORT_STATES)[number];

/** The JSON report lists at most this many recipients (the export has them all). */
export const CAMPAIGN_REPORT_MAX_RECIPIENTS = 5_000;

export const CAMPAIGN_REPORT_FORMATS = ['csv', 'xlsx'] as const;
export type CampaignReportFormat = (typeof CAMPAIGN_REPORT_FORMATS)[number];

export const campaignReportCountsSchema = z.object({
  contactsCount: z.number(),
  pendentesEnvio: z.number(),
  pendentesEntrega: z.number(),
  /** Delivered, read included. */
  recebidas: z.number(),
  lidas: z.number(),
  failed: z.number(),
  skipped: z.number(),
});
export type CampaignReportCounts = z.infer<typeof campaignReportCountsSchema>;

export const campaignReportRecipientSchema = z.object({
  contactId: z.number(),
  name: z.string(),
  number: z.string().nullable(),
  state: z.enum(CAMPAIGN_REPORT_STATES),
  /** Why it was skipped or failed: a catalogue code, a send-error code, or the provider's own text. */
  reason: z.string().nullable(),
  /** Which of the campaign's messages (1-3) it received. */
  messageRandom: z.number().int().min(1).max(3).nullable(),
  sentAt: z.string().nullable(),
});
export type CampaignReportRecipient = z.infer<typeof campaignReportRecipientSchema>;

export const campaignReportSchema = z.object({
  campaign: campaignDtoSchema,
  counts: campaignReportCountsSchema,
  /** In the order they were added, at most CAMPAIGN_REPORT_MAX_RECIPIENTS. */
  recipients: z.array(campaignReportRecipientSchema),
  /** True when the campaign has more recipients than the report lists. */
  truncated: z.boolean(),
  generatedAt: z.string(),
});
export type CampaignReport = z.infer<typeof campaignReportSchema>;

export const campaignReportExportQuerySchema = z.object({ format: z.enum(CAMPAIGN_REPORT_FORMATS) });
export type CampaignReportExportQuery = z.infer<typeof campaignReportExportQuerySchema>;
