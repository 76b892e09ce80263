/**
 * /api/campaigns/{id}/report and /api/campaigns/{id}/report/export (issue 25): the report's data (the web draws it and
 * prints it as PDF) and the whole recipient list as a CSV or XLSX attachment. Authenticated like every campaign route
 * (supervisors and above): the web downloads the export with its bearer token as a blob.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { campaignReportExportQuerySchema, campaignReportSchema, idParamsSchema } from '@conversa/shared';
import { requireProfile } from '../../platform/http/auth.js';
import { contentDisposition } from '../../platform/http/served-files.js';
import type { CampaignReportService } from './campaigns.report.js';
import { CAMPAIGN_MIN_PROFILE } from './campaigns.rules.js';

const tags = ['campaigns'];

export function campaignReportRoutes(service: CampaignReportService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/campaigns/:id/report',
      { schema: { tags, params: idParamsSchema, response: { 200: campaignReportSchema } } },
      async (request) => service.report(requireProfile(request, CAMPAIGN_MIN_PROFILE), request.params.id),
    );

    app.get(
      '/campaigns/:id/report/export',
      {
        schema: {
          tags,
          params: idParamsSchema,
          querystring: campaignReportExportQuerySchema,
          produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        },
      },
      async (request, reply) => {
        const ctx = requireProfile(request, CAMPAIGN_MIN_PROFILE);
        const file = await service.exportReport(ctx, request.params.id, request.query.format);
        return reply
          .type(file.contentType)
          .header('Content-Disposition', contentDisposition(false, file.filename))
          .header('X-Content-Type-Options', 'nosniff')
          .header('Cache-Control', 'no-store')
          .send(file.stream);
      },
    );
  };
}
