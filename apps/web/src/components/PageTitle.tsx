import { useEffect } from 'react';
import { Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface PageTitleProps {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}

/** Every screen's heading (`page-title`); it also names the browser tab. */
export function PageTitle({ title, description, actions }: PageTitleProps) {
  useEffect(() => {
    document.title = `${title} · Conversa`;
  }, [title]);
  return (
    <Group justify="space-between" align="flex-start" mb="lg" wrap="wrap" gap="sm">
      <div>
        <Title order={1} size="h2" data-testid="page-title">
          {title}
        </Title>
        {description ? (
          <Text c="dimmed" size="sm" mt={4}>
            {description}
          </Text>
        ) : null}
      </div>
      {actions ? <Group gap="sm">{actions}</Group> : null}
    </Group>
  );
}
