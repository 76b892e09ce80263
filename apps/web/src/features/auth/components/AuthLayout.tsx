import type { ReactNode } from 'react';
import { Box, Center, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMessages } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../../../components/LanguageSelect';
import { SkipLink } from '../../../components/SkipLink';
import { PageTitle } from '../../../components/PageTitle';

interface AuthLayoutProps {
  title: string;
  subtitle?: string;
  width?: number;
  children: ReactNode;
  footer?: ReactNode;
}

/** The frame of the public screens: brand, language choice, one card. */
export function AuthLayout({ title, subtitle, width = 440, children, footer }: AuthLayoutProps) {
  const { t } = useTranslation();
  return (
    <Box mih="100vh" bg="var(--mantine-color-body)" className="auth-background">
      <SkipLink targetId="main" />
      <Group justify="space-between" p="md">
        <Group gap="xs">
          <ThemeIcon size="lg" radius="md" variant="filled" aria-hidden>
            <IconMessages size={20} />
          </ThemeIcon>
          <Text fw={700} size="lg">
            {t('app.name')}
          </Text>
        </Group>
        <LanguageSelect w={210} size="xs" data-testid="auth-language-select" />
      </Group>
      <Center component="main" id="main" tabIndex={-1} px="md" pb="xl">
        <Stack w="100%" maw={width} gap="md">
          <Paper withBorder shadow="sm" radius="md" p={{ base: 'lg', sm: 'xl' }}>
            <PageTitle title={title} description={subtitle} />
            {children}
          </Paper>
          {footer ? (
            <Text ta="center" size="sm" c="dimmed">
              {footer}
            </Text>
          ) : null}
          <Title order={2} className="visually-hidden">
            {t('app.tagline')}
          </Title>
        </Stack>
      </Center>
    </Box>
  );
}
