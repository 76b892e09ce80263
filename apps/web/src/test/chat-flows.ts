/** Chat flows for tests, in the shape of GET /chat-flow's items (shared chatFlowDtoSchema). */
import { chatFlowDtoSchema, defaultChatFlow, type ChatFlowDto } from '@conversa/shared';

export function chatFlowFixture(id: number, name: string, isActive: boolean): ChatFlowDto {
  // Parsed, so a fixture that drifts from the contract fails here rather than passing silently.
  return chatFlowDtoSchema.parse({
    id,
    name,
    isActive,
    celularTeste: null,
    userId: 1,
    flow: defaultChatFlow(name),
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  });
}
