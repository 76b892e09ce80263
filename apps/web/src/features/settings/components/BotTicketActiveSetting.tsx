/**
 * The flow new tickets get (setting botTicketActive, client-contract §9): a flow's id as text, '' for none. The engine
 * runs it only while the flow is active (decisions §C), so inactive flows say so in their label.
 */
import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SettingDto } from '@conversa/shared';
import { useChatFlowOptions } from '../api/chat-flows';

/** The option for no flow (a Select's clear button is not reachable by keyboard; an option is). */
const NONE = 'none';

export function BotTicketActiveSetting({ value, onSave }: { value: string; onSave: (setting: SettingDto) => void }) {
  const { t } = useTranslation();
  const flows = useChatFlowOptions();
  const options = [
    { value: NONE, label: t('settings.botTicketActive.none') },
    ...(flows.data ?? []).map((flow) => ({
      value: String(flow.id),
      label: flow.isActive ? flow.name : t('settings.botTicketActive.inactive', { name: flow.name }),
    })),
  ];
  // A stored id the list does not have (a flow deleted elsewhere) still shows, so it can be replaced knowingly.
  if (value && flows.isSuccess && !options.some((option) => option.value === value)) {
    options.push({ value, label: t('settings.botTicketActive.missing', { id: value }) });
  }
  return (
    <Select
      label={t('settings.keys.botTicketActive.label')}
      description={t('settings.keys.botTicketActive.description')}
      placeholder={flows.isPending ? t('common.loading') : undefined}
      data={options}
      value={value || NONE}
      allowDeselect={false}
      searchable
      nothingFoundMessage={t('settings.botTicketActive.noFlows')}
      error={flows.isError ? t('settings.botTicketActive.loadError') : undefined}
      onChange={(id) => {
        const next = !id || id === NONE ? '' : id;
        if (next !== value) onSave({ key: 'botTicketActive', value: next });
      }}
      data-testid="setting-botTicketActive"
      comboboxProps={{ withinPortal: true }}
    />
  );
}
