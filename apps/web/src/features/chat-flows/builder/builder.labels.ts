/** Texts derived from the flow: a condition's label (its words or its type) and a node's accessible name. */
import type { TFunction as I18nT } from 'i18next';
import type { ChatFlowCondition, ChatFlowNode } from '@conversa/shared';

export type TFunction = I18nT;

export function conditionLabel(t: TFunction, condition: Pick<ChatFlowCondition, 'type' | 'condition'>): string {
  const words = condition.condition.map((w) => w.trim()).filter(Boolean);
  if (condition.type === 'US' && words.length > 0) return words.join(', ');
  return t(`flowBuilder.conditionTypes.${condition.type}`);
}

/** "Etapa: Boas-vindas", "Início", "Configurações". */
export function nodeName(t: TFunction, node: ChatFlowNode): string {
  if (node.type === 'configurations') return t('flowBuilder.types.configurations');
  if (node.type === 'start') return t('flowBuilder.types.start');
  return node.name.trim() || t('flowBuilder.unnamedStep');
}

export function nodeAriaLabel(t: TFunction, node: ChatFlowNode): string {
  if (node.type !== 'node') return nodeName(t, node);
  return t('flowBuilder.canvas.stepLabel', { name: nodeName(t, node) });
}
