/**
 * Static /tenants/... paths of the reference client (client-contract §15, §18) and its public colours. Reads for
 * every user of the tenant, writes for its admins. Shapes are the client's: one-element arrays for the business hours
 * and rating reads, the object itself for the business-hours writes (the client reads `businessHours` /
 * `messageBusinessHours` of the answer), a bare array of colour objects.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  businessHoursInputSchema,
  idParamsSchema,
  businessHoursResponseSchema,
  messageBusinessHoursInputSchema,
  ratingDataInputSchema,
  ratingInputSchema,
  ratingResponseSchema,
  systemColorsInputSchema,
  systemColorsResponseSchema,
  tenantDueDateResponseSchema,
  tenantEvolutionHostInputSchema,
  tenantGatewaysResponseSchema,
  tenantWuzapiHostInputSchema,
} from '@conversa/shared';
import { actor, requireProfile } from '../../platform/http/auth.js';
import type { TenantPreferencesService } from './settings.preferences.js';

const tags = ['tenants'];
/** What the business-hours writes answer: the one object the read wraps in an array. */
const savedBusinessHoursSchema = businessHoursResponseSchema.element;

export function tenantPreferencesRoutes(service: TenantPreferencesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/tenants/date', { schema: { tags, response: { 200: tenantDueDateResponseSchema } } }, async (request) =>
      service.getDueDate(actor(request)),
    );

    app.get(
      '/tenants/business-hours',
      { schema: { tags, response: { 200: businessHoursResponseSchema } } },
      async (request) => [await service.getBusinessHours(actor(request))],
    );
    app.put(
      '/tenants/business-hours',
      { schema: { tags, body: businessHoursInputSchema, response: { 200: savedBusinessHoursSchema } } },
      async (request) => service.saveBusinessHours(requireProfile(request, 'admin'), request.body),
    );
    app.put(
      '/tenants/message-business-hours',
      { schema: { tags, body: messageBusinessHoursInputSchema, response: { 200: savedBusinessHoursSchema } } },
      async (request) =>
        service.saveMessageBusinessHours(requireProfile(request, 'admin'), request.body.messageBusinessHours),
    );

    app.get('/tenants/rating', { schema: { tags, response: { 200: ratingResponseSchema } } }, async (request) => [
      await service.getRating(actor(request)),
    ]);
    app.put(
      '/tenants/rating',
      { schema: { tags, body: ratingInputSchema, response: { 200: ratingResponseSchema } } },
      async (request) => [await service.saveRating(requireProfile(request, 'super'), request.body)],
    );

    app.put(
      '/tenantsRatingData/:id',
      {
        schema: { tags, params: idParamsSchema, body: ratingDataInputSchema, response: { 200: ratingResponseSchema } },
      },
      async (request) => [
        await service.saveRatingData(requireProfile(request, 'super'), request.params.id, request.body),
      ],
    );

    app.get(
      '/tenants/systemColors',
      { schema: { tags, response: { 200: systemColorsResponseSchema } } },
      async (request) => service.getSystemColors(actor(request)),
    );
    app.put(
      '/tenants/systemColors',
      { schema: { tags, body: systemColorsInputSchema, response: { 200: systemColorsResponseSchema } } },
      async (request) => service.saveSystemColors(requireProfile(request, 'admin'), request.body),
    );
    // Gateway defaults (client-contract §10): the id names the tenant; only its admins or the superadmin write it.
    const gateways = { tags, params: idParamsSchema, response: { 200: tenantGatewaysResponseSchema } };
    app.put('/tenantsWuzapiHost/:id', { schema: { ...gateways, body: tenantWuzapiHostInputSchema } }, async (request) =>
      service.saveGatewayDefaults(requireProfile(request, 'admin'), request.params.id, request.body),
    );
    app.put(
      '/tenantsEvolutionHost/:id',
      { schema: { ...gateways, body: tenantEvolutionHostInputSchema } },
      async (request) => service.saveGatewayDefaults(requireProfile(request, 'admin'), request.params.id, request.body),
    );

    app.get(
      '/publicSystemColors',
      { config: { public: true }, schema: { tags, response: { 200: systemColorsResponseSchema } } },
      async () => service.getPublicSystemColors(),
    );
  };
}
