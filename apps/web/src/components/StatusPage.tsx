import type { ReactNode } from 'react';
import { Button, EmptyState } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageTitle } from './PageTitle';

/** A full-page status (not found, no access): title, explanation and a way back to the start page. */
export function StatusPage(props: {
  testId: string;
  icon: ReactNode;
  title: string;
  heading: string;
  description: string;
}) {
  const { t } = useTranslation();
  return (
    <div data-testid={props.testId}>
      <PageTitle title={props.title} />
      <EmptyState icon={props.icon} variant="light" title={props.heading} description={props.description}>
        <EmptyState.Actions>
          <Button component={Link} to="/">
            {t('notFound.back')}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </div>
  );
}
