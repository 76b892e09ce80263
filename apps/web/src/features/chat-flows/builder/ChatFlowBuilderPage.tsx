/**
 * /chat-flow/builder?id=<id>: loads the flow (GET /chat-flow/{id}) and opens the builder; a missing or deleted flow
 * (404) or a bad id shows a not-found message with a link to the list.
 */
import { useEffect } from 'react';
import { Button, Center, EmptyState, Loader, VisuallyHidden } from '@mantine/core';
import { IconMapSearch } from '@tabler/icons-react';
import { ReactFlowProvider } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { ApiError } from '../../../lib/api-error';
import { useChatFlow } from '../api/chat-flows';
import { FLOW_LIST_PATH, FlowBuilder } from './FlowBuilder';

function readId(value: string | null): number | null {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : null;
}

export function ChatFlowBuilderPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = readId(params.get('id'));
  const flow = useChatFlow(id);

  if (id === null || (flow.error instanceof ApiError && flow.error.status === 404)) {
    return (
      <div data-testid="flow-not-found">
        <PageTitle title={t('flowBuilder.title')} />
        <EmptyState
          icon={<IconMapSearch size={32} aria-hidden />}
          variant="light"
          title={t('flowBuilder.notFound')}
          description={t('flowBuilder.notFoundHelp')}
        >
          <EmptyState.Actions>
            <Button component={Link} to={FLOW_LIST_PATH}>
              {t('flowBuilder.backToList')}
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      </div>
    );
  }
  if (flow.isError && !flow.data) {
    return (
      <>
        <PageTitle title={t('flowBuilder.title')} />
        <QueryError error={flow.error} onRetry={() => void flow.refetch()} />
      </>
    );
  }
  if (!flow.data) {
    return (
      <Center mih={240} role="status" aria-live="polite">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  return (
    <ReactFlowProvider>
      <BuilderHeading name={flow.data.name} />
      {/* A new id (another flow) starts a new builder with its own history. */}
      <FlowBuilder key={flow.data.id} flow={flow.data} />
    </ReactFlowProvider>
  );
}

/** The screen's heading for screen readers (the toolbar shows the name) and the browser tab's title. */
function BuilderHeading({ name }: { name: string }) {
  const { t } = useTranslation();
  const title = t('flowBuilder.heading', { name });
  useEffect(() => {
    document.title = `${title} · Conversa`;
  }, [title]);
  return (
    <VisuallyHidden>
      <h1 data-testid="page-title">{title}</h1>
    </VisuallyHidden>
  );
}
