import { Button, Group, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { defaultChatFlow, type ChatFlowDto } from '@conversa/shared';
import { ApiError, describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSaveChatFlow } from '../api/chat-flows';

/** The test number's digits: what the server keeps (8 to 15 digits, or none). */
export const testNumberDigits = (value: string) => value.replace(/\D/g, '');
const validTestNumber = (value: string) => {
  const digits = testNumberDigits(value);
  return digits === '' || (digits.length >= 8 && digits.length <= 15);
};

interface ChatFlowFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The flow being edited; undefined creates one with the default graph. */
  flow?: ChatFlowDto;
  /** Called with a new flow once it exists (the page opens it in the builder). */
  onCreated?: (flow: ChatFlowDto) => void;
}

/** Name, active and test number of a flow; its graph is the builder's (an edit sends it back unchanged). */
export function ChatFlowFormModal({ opened, onClose, flow, onCreated }: ChatFlowFormModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={flow ? t('chatFlows.editTitle') : t('chatFlows.newTitle')} centered>
      {opened ? <ChatFlowForm key={flow?.id ?? 'new'} flow={flow} onDone={onClose} onCreated={onCreated} /> : null}
    </Modal>
  );
}

function ChatFlowForm({
  flow,
  onDone,
  onCreated,
}: {
  flow?: ChatFlowDto;
  onDone: () => void;
  onCreated?: (flow: ChatFlowDto) => void;
}) {
  const { t } = useTranslation();
  const save = useSaveChatFlow();
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      name: flow?.name ?? '',
      isActive: flow?.isActive ?? true,
      celularTeste: flow?.celularTeste ? `+${flow.celularTeste}` : '',
    },
    validate: {
      name: (v) => (v.trim() ? null : t('validation.required', { attribute: t('chatFlows.name') })),
      celularTeste: (v) => (validTestNumber(v) ? null : t('chatFlows.testNumberInvalid')),
    },
  });
  const submit = form.onSubmit((values) => {
    const name = values.name.trim();
    const celularTeste = testNumberDigits(values.celularTeste) || null;
    save.mutate(
      {
        id: flow?.id,
        input: { name, isActive: values.isActive, celularTeste, flow: flow?.flow ?? defaultChatFlow(name) },
      },
      {
        onSuccess: (saved) => {
          notifySuccess(flow ? t('chatFlows.saved') : t('chatFlows.created'));
          onDone();
          if (!flow) onCreated?.(saved);
        },
        onError: (error) => {
          if (error instanceof ApiError && (error.field === 'name' || error.field === 'celularTeste')) {
            form.setFieldError(error.field, describeError(error));
          }
          if (!(error instanceof ApiError && error.notified)) notifyError(describeError(error));
        },
      },
    );
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('chatFlows.name')}
          required
          data-autofocus
          autoComplete="off"
          maxLength={120}
          data-testid="chat-flow-form-name"
          {...form.getInputProps('name')}
        />
        <TextInput
          label={t('chatFlows.testNumber')}
          description={t('chatFlows.testNumberHint')}
          placeholder={t('chatFlows.testNumberPlaceholder')}
          type="tel"
          autoComplete="off"
          maxLength={40}
          data-testid="chat-flow-form-test-number"
          {...form.getInputProps('celularTeste')}
        />
        <Switch
          label={t('chatFlows.active')}
          description={t('chatFlows.activeHint')}
          data-testid="chat-flow-form-active"
          {...form.getInputProps('isActive', { type: 'checkbox' })}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="chat-flow-form-submit">
            {flow ? t('common.save') : t('chatFlows.createAndOpen')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
