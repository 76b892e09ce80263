/** Contacts (product-spec §3 "Contact", client-contract §6 and §20.4): DTOs and inputs shared by server and web. */
import { z } from 'zod';
import { looseBoolean } from './schemas.js';

export const extraInfoItemSchema = z.object({ name: z.string().trim().min(1).max(120), value: z.string().max(2000) });

export const contactTagSchema = z.object({ id: z.number(), tag: z.string(), color: z.string() });
export const contactWalletSchema = z.object({ id: z.number(), name: z.string() });

/**
 * Who a contact is, as every `/contacts` row says (client-contract §20.4): the same fields wherever a contact is
 * embedded (a ticket's contact, a group message's sender), since clients match contacts by their provider ids.
 */
export const contactIdentitySchema = z.object({
  id: z.number(),
  name: z.string(),
  /** Digits with country code (E.164 without '+'); group ids for groups; null for channel-only contacts. */
  number: z.string().nullable(),
  email: z.string(),
  profilePicUrl: z.string().nullable(),
  pushname: z.string().nullable(),
  isGroup: z.boolean(),
  telegramId: z.string().nullable(),
  messengerId: z.string().nullable(),
  instagramPK: z.string().nullable(),
  hubWhatsapp: z.string().nullable(),
  blocked: z.boolean(),
  chatbotBlocked: z.boolean(),
});
export type ContactIdentity = z.infer<typeof contactIdentitySchema>;

export const contactDtoSchema = contactIdentitySchema.extend({
  cpf: z.string().nullable(),
  /** ISO date (YYYY-MM-DD) or null. */
  birthdayDate: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  businessName: z.string().nullable(),
  kanban: z.number().nullable(),
  extraInfo: z.array(extraInfoItemSchema),
  tags: z.array(contactTagSchema),
  wallets: z.array(contactWalletSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactDto = z.infer<typeof contactDtoSchema>;

export const contactListQuerySchema = z.object({
  searchParam: z.string().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  rowsPerPage: z.coerce.number().int().min(1).max(200).optional(),
  walletId: z.coerce.number().int().positive().optional(),
  tagId: z.coerce.number().int().positive().optional(),
});
export const contactListResponseSchema = z.object({
  contacts: z.array(contactDtoSchema),
  /** Matches, counted up to 10,000 (then `countCapped` is true). */
  count: z.number(),
  countCapped: z.boolean(),
  hasMore: z.boolean(),
});

/** Ids where the GET returned objects (client-contract §21.7). */
const idList = z
  .array(z.union([z.coerce.number().int().positive(), z.object({ id: z.coerce.number().int().positive() }).loose()]))
  .transform((items) => items.map((item) => (typeof item === 'number' ? item : item.id)));

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));

export const contactInputSchema = z.object({
  name: z.string().trim().min(1).max(200),
  number: optionalText(40),
  email: z.union([z.literal(''), z.string().trim().toLowerCase().pipe(z.email())]).optional(),
  cpf: optionalText(20),
  /** YYYY-MM-DD (the web converts DD/MM/YYYY). */
  birthdayDate: z.iso
    .date()
    .nullable()
    .optional()
    .or(z.literal('').transform(() => null)),
  firstName: optionalText(120),
  lastName: optionalText(120),
  businessName: optionalText(200),
  telegramId: optionalText(64),
  messengerId: optionalText(64),
  instagramPK: optionalText(64),
  hubWhatsapp: optionalText(64),
  blocked: looseBoolean.optional(),
  chatbotBlocked: looseBoolean.optional(),
  extraInfo: z.array(extraInfoItemSchema).max(50).optional(),
  /** The kanban lane's id, null for none (the boards' partial `PUT { number, kanban }`, client-contract §21.6). */
  kanban: z.coerce.number().int().positive().nullable().optional(),
  tags: idList.optional(),
  wallets: idList.optional(),
});
export type ContactInput = z.input<typeof contactInputSchema>;
/** PUT accepts the full contact or a partial body (client-contract §21.6). */
export const contactUpdateSchema = contactInputSchema.partial();

export const contactTagsInputSchema = z.object({ tags: idList });
export const contactWalletsInputSchema = z.object({ wallets: idList });

export const contactImportAcceptedSchema = z.object({ importId: z.string() });
export interface ContactImportRowError {
  row: number;
  reason: 'ERR_VALIDATION' | 'ERR_WAPP_INVALID_CONTACT' | 'ERR_DUPLICATED_CONTACT' | 'ERR_INVALID_CPF_CNPJ';
  value?: string;
}
/** `{T}:contactImport` socket payload: progress while running, then `done` with the bad rows (at most 200). */
export interface ContactImportProgress {
  action: 'progress' | 'done' | 'failed';
  importId: string;
  total: number;
  processed: number;
  created: number;
  updated: number;
  failed: number;
  errors?: ContactImportRowError[];
}

export const contactExportQuerySchema = z.object({ format: z.enum(['csv', 'xlsx']).optional().default('xlsx') });
export const contactExportResponseSchema = z.object({ downloadLink: z.string() });

export const contactDuplicatesResponseSchema = z.object({
  groups: z.array(z.object({ key: z.string(), contacts: z.array(contactDtoSchema) })),
});
export const contactMergeInputSchema = z.object({
  targetId: z.coerce.number().int().positive(),
  sourceIds: z.array(z.coerce.number().int().positive()).min(1).max(50),
});
