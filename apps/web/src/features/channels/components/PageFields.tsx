/**
 * The credentials of a Messenger or Instagram channel: the page (or Instagram account) id, the page access token
 * and the app secret typed by hand, or the page found from Facebook login data (POST /fb/register-pages) once the
 * channel is saved; "Disconnect page" (POST /fb/logout-pages) forgets the token.
 */
import { useState, type KeyboardEvent } from 'react';
import {
  Alert,
  Button,
  Divider,
  Group,
  List,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconAlertTriangle, IconBrandFacebook, IconCircleCheck, IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ChannelDto } from '@conversa/shared';
import { describeError } from '../../../lib/api';
import { notifySuccess } from '../../../lib/notify';
import { useLogoutPages, useRegisterPages, type PageDetails } from '../api/meta';
import { hasSecret, type ChannelFormValues } from '../hooks/channel-form';
import { notifyFailure } from '../hooks/notify-failure';
import { MetaSecretInput } from './MetaSecretInput';

type Form = UseFormReturnType<ChannelFormValues>;
type PageType = 'messenger' | 'instagram';

export function PageFields({ form, channel }: { form: Form; channel?: ChannelDto }) {
  const { t } = useTranslation();
  const type = form.getValues().type as PageType;
  const saved = channel?.type === type ? channel : undefined;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t(`channels.meta.${type}.intro`)}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label={t(`channels.meta.${type}.wabaId`)}
          description={t(`channels.meta.${type}.wabaIdHint`)}
          inputMode="numeric"
          autoComplete="off"
          maxLength={200}
          data-testid="channel-form-meta-id"
          {...form.getInputProps('wabaId')}
        />
        <MetaSecretInput
          form={form}
          field="tokenAPI"
          kept={hasSecret(saved, 'tokenAPI')}
          label={t('channels.meta.pageToken')}
          hint={t('channels.meta.pageTokenHint')}
          testId="channel-form-meta-token"
        />
        <MetaSecretInput
          form={form}
          field="metaAppSecret"
          kept={hasSecret(saved, 'metaAppSecret')}
          label={t('channels.meta.appSecret')}
          hint={t('channels.meta.appSecretHint')}
          testId="channel-form-meta-app-secret"
        />
      </SimpleGrid>
      <Divider my="xs" />
      {saved ? (
        <FacebookLogin form={form} channel={saved} />
      ) : (
        <Text size="sm" c="dimmed" data-testid="channel-form-fb-save-first">
          {t('channels.meta.fb.saveFirst')}
        </Text>
      )}
    </Stack>
  );
}

/** The Facebook-login connection of a saved channel: user id and user token in, the page found out. */
function FacebookLogin({ form, channel }: { form: Form; channel: ChannelDto }) {
  const { t } = useTranslation();
  const register = useRegisterPages();
  const logout = useLogoutPages();
  const [accountId, setAccountId] = useState('');
  const [userToken, setUserToken] = useState('');
  const [errors, setErrors] = useState<{ accountId?: string; userToken?: string }>({});
  const [pages, setPages] = useState<PageDetails[] | null>(null);
  const connected = pages !== null || hasSecret(channel, 'tokenAPI');

  const connect = () => {
    const id = accountId.trim();
    const token = userToken.trim();
    const found = {
      ...(id ? {} : { accountId: t('validation.required', { attribute: t('channels.meta.fb.accountId') }) }),
      ...(token ? {} : { userToken: t('validation.required', { attribute: t('channels.meta.fb.userToken') }) }),
    };
    setErrors(found);
    if (found.accountId || found.userToken) return;
    register.mutate(
      { channelId: channel.id, accountId: id, userToken: token },
      {
        onSuccess: (answer) => {
          setPages(answer.page_details);
          setUserToken('');
          // The server stored the page: the id field shows it, so a later save sends it back unchanged.
          if (answer.channel.wabaId) form.setFieldValue('wabaId', answer.channel.wabaId);
          notifySuccess(t('channels.meta.fb.connected'));
        },
      },
    );
  };

  const disconnect = () =>
    logout.mutate(channel.id, {
      onSuccess: () => {
        setPages(null);
        notifySuccess(t('channels.meta.fb.disconnected'));
      },
      onError: (error) => notifyFailure(error, t('channels.meta.fb.disconnectError')),
    });

  // These fields live inside the channel form: Enter connects instead of saving the channel.
  const onEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    connect();
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="channel-fb-login">
      <Title order={3} size="h5" id="channel-fb-login">
        {t('channels.meta.fb.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('channels.meta.fb.intro')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label={t('channels.meta.fb.accountId')}
          description={t('channels.meta.fb.accountIdHint')}
          value={accountId}
          onChange={(event) => setAccountId(event.currentTarget.value)}
          onKeyDown={onEnter}
          error={errors.accountId}
          inputMode="numeric"
          autoComplete="off"
          maxLength={100}
          data-testid="channel-form-fb-account"
        />
        <PasswordInput
          label={t('channels.meta.fb.userToken')}
          description={t('channels.meta.fb.userTokenHint')}
          value={userToken}
          onChange={(event) => setUserToken(event.currentTarget.value)}
          onKeyDown={onEnter}
          error={errors.userToken}
          autoComplete="new-password"
          maxLength={1000}
          data-testid="channel-form-fb-token"
        />
      </SimpleGrid>
      <Group gap="sm">
        <Button
          variant="light"
          leftSection={<IconBrandFacebook size={16} aria-hidden />}
          loading={register.isPending}
          disabled={logout.isPending}
          onClick={connect}
          data-testid="channel-form-fb-connect"
        >
          {t('channels.meta.fb.connect')}
        </Button>
        {connected ? (
          <Button
            variant="subtle"
            color="red"
            leftSection={<IconPlugConnectedX size={16} aria-hidden />}
            loading={logout.isPending}
            disabled={register.isPending}
            onClick={disconnect}
            data-testid="channel-form-fb-disconnect"
          >
            {t('channels.meta.fb.disconnect')}
          </Button>
        ) : null}
      </Group>
      <div aria-live="polite">
        {register.isError ? (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle aria-hidden />}
            role="alert"
            data-testid="channel-form-fb-error"
          >
            {describeError(register.error)}
          </Alert>
        ) : pages ? (
          <PagesFound pages={pages} />
        ) : null}
      </div>
    </Stack>
  );
}

function PagesFound({ pages }: { pages: PageDetails[] }) {
  const { t } = useTranslation();
  if (!pages.length) {
    return (
      <Alert color="yellow" variant="light" data-testid="channel-form-fb-no-pages">
        {t('channels.meta.fb.noPages')}
      </Alert>
    );
  }
  return (
    <Alert
      color="teal"
      variant="light"
      icon={<IconCircleCheck aria-hidden />}
      title={t('channels.meta.fb.pagesTitle')}
      data-testid="channel-form-fb-pages"
    >
      <List size="sm" spacing={2}>
        {pages.map((page) => (
          <List.Item key={page.id}>
            {page.instagramId
              ? t('channels.meta.fb.pageWithInstagram', { name: page.name, id: page.id, instagramId: page.instagramId })
              : t('channels.meta.fb.page', { name: page.name, id: page.id })}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
