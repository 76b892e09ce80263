/**
 * A flow's JSON file (decisions §B): export writes `{ name, isActive, celularTeste, flow }`; import takes such a
 * record or a bare graph (`{ nodeList, lineList }`) and sends it as it came (the server replaces the graph only).
 */
import { z } from 'zod';
import { chatFlowGraphSchema, type ChatFlowDto } from '@conversa/shared';

export type ImportCheck =
  { ok: true; imported: Record<string, unknown> } | { ok: false; reason: 'required' | 'invalid' };

const recordSchema = z.looseObject({ flow: chatFlowGraphSchema });

/** 'required' for an empty text; 'invalid' for text that is not JSON, or JSON that is neither a graph nor a record. */
export function checkImportedFlow(text: string): ImportCheck {
  if (!text.trim()) return { ok: false, reason: 'required' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false, reason: 'invalid' };
  const fits = chatFlowGraphSchema.safeParse(parsed).success || recordSchema.safeParse(parsed).success;
  return fits ? { ok: true, imported: parsed as Record<string, unknown> } : { ok: false, reason: 'invalid' };
}

/** What export downloads. */
export const exportedFlow = (flow: ChatFlowDto) => ({
  name: flow.name,
  isActive: flow.isActive,
  celularTeste: flow.celularTeste,
  flow: flow.flow,
});

/** A file name from the flow's name: characters file systems refuse become `_`. */
export const exportFileName = (name: string) => `${name.replace(/[\\/:*?"<>|]/g, '_').trim() || 'chat-flow'}.json`;

/** Downloads `<name>.json` through a temporary link. */
export function downloadFlow(flow: ChatFlowDto) {
  const blob = new Blob([JSON.stringify(exportedFlow(flow), null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = exportFileName(flow.name);
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked after the click has handed the blob to the download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
