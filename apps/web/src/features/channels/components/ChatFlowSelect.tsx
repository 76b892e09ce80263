/** The channel's chatbot: every flow of the tenant, an inactive one marked (only active flows answer). */
import { Select, type SelectProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useChatFlowOptions } from '../api/routing';

export function ChatFlowSelect({ testId, ...props }: SelectProps & { testId: string }) {
  const { t } = useTranslation();
  const flows = useChatFlowOptions();
  const options = (flows.data ?? []).map((flow) => ({
    value: String(flow.id),
    label: flow.isActive ? flow.name : t('channels.form.chatFlowInactive', { name: flow.name }),
  }));
  return (
    <Select
      placeholder={t('channels.form.none')}
      data={options}
      searchable
      clearable
      nothingFoundMessage={t('channels.form.nothingFound')}
      disabled={flows.isPending && !flows.isError}
      data-testid={testId}
      {...props}
      // After the form's props: their `error` is undefined while the field has none.
      error={props.error ?? (flows.isError ? t('channels.form.chatFlowsError') : undefined)}
    />
  );
}
