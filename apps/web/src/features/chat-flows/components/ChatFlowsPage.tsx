import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/PageTitle';

/** /chat-flow: the tenant's chat flows (supervisors and up). */
export function ChatFlowsPage() {
  const { t } = useTranslation();
  return <PageTitle title={t('chatFlows.title')} />;
}
