/**
 * Resolving a ticket (issue 14): closing messages (client-contract §15 `/farewellPrivateMessage`), reasons (§8
 * `/reasons`), ratings (§15 `/ticketEvaluations`, §10 `/tenantsRatingData/{id}`).
 */
import { z } from 'zod';

const optionalId = z.union([z.coerce.number().int().positive(), z.null(), z.literal('').transform(() => null)]);

// Closing messages
export const FAREWELL_MESSAGE_MAX = 1000;
export const farewellDtoSchema = z.object({
  id: z.number(),
  message: z.string(),
  userId: z.number().nullable(),
  createdAt: z.string(),
});
export type FarewellDto = z.infer<typeof farewellDtoSchema>;
export const farewellListResponseSchema = z.object({ farewellPrivateMessage: z.array(farewellDtoSchema) });
export const farewellInputSchema = z.object({ message: z.string().trim().min(1).max(FAREWELL_MESSAGE_MAX) });
export type FarewellInput = z.input<typeof farewellInputSchema>;

// Reasons
export const REASON_NAME_MAX = 120;
export const reasonDtoSchema = z.object({ id: z.number(), name: z.string() });
export type ReasonDto = z.infer<typeof reasonDtoSchema>;
export const reasonListResponseSchema = z.object({ reasons: z.array(reasonDtoSchema) });
export const reasonInputSchema = z.object({ name: z.string().trim().min(1).max(REASON_NAME_MAX) });
export type ReasonInput = z.input<typeof reasonInputSchema>;

// Ratings
export const EVALUATION_STATUSES = ['waiting', 'rated', 'failed'] as const;
export type EvaluationStatusName = (typeof EVALUATION_STATUSES)[number];
/** How many invalid answers end a rating conversation (tenant preference `ratingAttempts`). */
export const DEFAULT_RATING_ATTEMPTS = 3;
export const ratingAttemptsSchema = z.coerce.number().int().min(1).max(10);

export const evaluationTicketSchema = z.object({
  id: z.number(),
  status: z.string(),
  contactId: z.number(),
  contact: z.object({ id: z.number(), name: z.string() }),
});
export const evaluationDtoSchema = z.object({
  id: z.number(),
  /** The prompt while waiting, then the customer's answer text. */
  evaluation: z.string(),
  /** 0-5 once rated. */
  value: z.number().nullable(),
  status: z.enum(EVALUATION_STATUSES),
  attempts: z.number(),
  ticketId: z.number(),
  userId: z.number().nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  ticket: evaluationTicketSchema,
});
export type EvaluationDto = z.infer<typeof evaluationDtoSchema>;

export const evaluationListQuerySchema = z.object({
  dateStart: z.iso
    .date()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  dateEnd: z.iso
    .date()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  userId: optionalId.optional(),
  status: z
    .enum(EVALUATION_STATUSES)
    .optional()
    .or(z.literal('').transform(() => undefined)),
});
export type EvaluationListQuery = z.input<typeof evaluationListQuerySchema>;

/** POST /ticketEvaluations/ (the reference client, after sending the menu itself). */
export const evaluationCreateSchema = z.object({
  evaluation: z.string().max(4000).default(''),
  attempts: z.coerce.number().int().min(0).max(100).optional(),
  ticketId: z.coerce.number().int().positive(),
  userId: optionalId.optional(),
  tenantId: z.unknown().optional(),
});
/** PUT /ticketEvaluations/{id}. */
export const evaluationUpdateSchema = z.object({
  evaluation: z.string().max(4000).optional(),
  attempts: z.coerce.number().int().min(0).max(100).optional(),
  value: z.union([z.coerce.number().int().min(0).max(5), z.null()]).optional(),
});
/** POST /ticketEvaluations/send: our client's one call: farewell (optional), reason, the rating menu. */
export const evaluationSendSchema = z.object({
  ticketId: z.coerce.number().int().positive(),
  reasons: optionalId.optional(),
  /** A closing message sent before the rating menu. */
  farewellMessage: z.string().max(FAREWELL_MESSAGE_MAX).optional(),
  /** Without farewellMessage: send the channel's farewell before the menu (the dialog's default). */
  sendFarewell: z.boolean().optional(),
});
export const evaluationLogSchema = z.object({
  id: z.number(),
  evaluation: z.number().nullable(),
  createdAt: z.string(),
  user: z.object({ name: z.string() }).nullable(),
});

/** PUT /tenantsRatingData/{id} (client-contract §10). */
export const ratingDataInputSchema = z.object({
  rating: z.unknown().optional(),
  ratingStore: z.string().trim().min(1).max(1000).optional(),
  ratingStoreAttemp: z.string().trim().min(1).max(1000).optional(),
  ratingStoreError: z.string().trim().min(1).max(1000).optional(),
  ratingAttempts: ratingAttemptsSchema.optional(),
});
export type RatingDataInput = z.input<typeof ratingDataInputSchema>;

/** The rating menu sent to the customer, built from the tenant's labels. */
export function ratingMenuText(question: string, options: { rating: number; label: string }[]): string {
  const lines = [...options].sort((a, b) => a.rating - b.rating).map((o) => `${o.rating} - ${o.label}`);
  return [question, ...lines].join('\n');
}
export const RATING_QUESTION = 'Como você avalia nosso atendimento?';

/** The customer's answer: a number 0-5, or a label (case-insensitive); null when it is neither. */
export function parseRatingAnswer(text: string, options: { rating: number; label: string }[]): number | null {
  const answer = text.trim();
  if (/^[0-5]$/.test(answer)) return Number(answer);
  const folded = answer.toLocaleLowerCase();
  if (!folded) return null;
  const match = options.find((o) => o.label.trim().toLocaleLowerCase() === folded);
  return match ? match.rating : null;
}
