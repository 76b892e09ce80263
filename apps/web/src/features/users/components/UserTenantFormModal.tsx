/**
 * The superadmin's user form across companies (`/userTenants`): the company is a field, a company without an admin
 * gets its admin first (the profile starts at admin and the form says why). Queues and channels are the company's
 * own to assign, from its admin's screen.
 */
import { useEffect } from 'react';
import { Alert, Button, Group, Modal, NativeSelect, PasswordInput, Select, Stack, Switch } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PROFILES, type Profile, type TenantDto } from '@conversa/shared';
import { ApiError, describeError } from '../../../lib/api';
import { companyOptions } from '../../../lib/companies';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useCompanyProfiles, useSaveUserTenant, type UserTenantDto } from '../api/user-tenants';
import { identityRules, UserIdentityFields } from './UserIdentityFields';

interface Props {
  opened: boolean;
  onClose: () => void;
  /** The user being edited; undefined creates one. */
  user?: UserTenantDto;
  companies: TenantDto[];
  /** The company a new user starts in (the list's filter). */
  defaultTenantId: number | null;
  currentUserId: number;
}

interface Values {
  tenantId: string;
  name: string;
  email: string;
  password: string;
  currentPassword: string;
  profile: Profile;
  blockWavoip: boolean;
}

const FIELDS: readonly string[] = ['tenantId', 'name', 'email', 'password', 'currentPassword', 'profile'];

export function UserTenantFormModal({ opened, onClose, user, companies, defaultTenantId, currentUserId }: Props) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={user ? t('users.editTitle') : t('users.newTitle')}
      centered
      size="lg"
    >
      {opened ? (
        <UserTenantForm
          key={user?.id ?? 'new'}
          user={user}
          companies={companies}
          defaultTenantId={defaultTenantId}
          ownRow={user?.id === currentUserId}
          onDone={onClose}
        />
      ) : null}
    </Modal>
  );
}

function UserTenantForm({
  user,
  companies,
  defaultTenantId,
  ownRow,
  onDone,
}: {
  user?: UserTenantDto;
  companies: TenantDto[];
  defaultTenantId: number | null;
  ownRow: boolean;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveUserTenant();
  const editing = Boolean(user);
  const startTenant = user?.tenantId ?? defaultTenantId;
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      tenantId: startTenant === null ? '' : String(startTenant),
      name: user?.name ?? '',
      email: user?.email ?? '',
      password: '',
      currentPassword: '',
      profile: user?.profile ?? 'user',
      blockWavoip: user?.blockWavoip ?? false,
    },
    validate: {
      ...identityRules(t, editing),
      tenantId: (v) => (v ? null : t('validation.required', { attribute: t('userTenants.company') })),
      currentPassword: (v, values) =>
        v || !needsCurrentPassword(values)
          ? null
          : t('validation.required', { attribute: t('preferences.currentPassword') }),
    },
  });
  // One's own new password or e-mail needs the current password (ARCHITECTURE §4), as on the preferences screen.
  function needsCurrentPassword(values: Pick<Values, 'password' | 'email'>): boolean {
    if (!ownRow || !user) return false;
    return Boolean(values.password) || values.email.trim().toLowerCase() !== user.email.toLowerCase();
  }
  const tenantId = form.values.tenantId ? Number(form.values.tenantId) : null;
  const company = useCompanyProfiles(editing ? null : tenantId);
  const needsAdmin = !editing && company.data !== undefined && !company.data.hasAdmin;
  const { setFieldValue, isDirty } = form;
  // A company's first user is its admin: preselected until the superadmin picks a profile themselves.
  useEffect(() => {
    if (needsAdmin && !isDirty('profile')) setFieldValue('profile', 'admin');
  }, [needsAdmin, isDirty, setFieldValue]);

  const submit = form.onSubmit((values) => {
    const input = {
      tenantId: Number(values.tenantId),
      name: values.name.trim(),
      email: values.email.trim(),
      profile: values.profile,
      blockWavoip: values.blockWavoip,
      ...(values.password ? { password: values.password } : {}),
      ...(needsCurrentPassword(values) ? { currentPassword: values.currentPassword } : {}),
    };
    save.mutate(
      { id: user?.id, input },
      {
        onSuccess: () => {
          notifySuccess(editing ? t('users.saved') : t('users.created'));
          onDone();
        },
        onError: (error) => {
          const field =
            error instanceof ApiError ? (error.code === 'ERR_EMAIL_ALREADY_EXISTS' ? 'email' : error.field) : undefined;
          if (field && FIELDS.includes(field)) form.setFieldError(field, describeError(error));
          notifyError(describeError(error));
        },
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Select
          label={t('userTenants.company')}
          description={editing ? t('userTenants.companyMoveHint') : undefined}
          required
          searchable
          nothingFoundMessage={t('userTenants.noCompany')}
          data={companyOptions(companies)}
          data-testid="user-form-company"
          comboboxProps={{ withinPortal: true }}
          {...form.getInputProps('tenantId')}
        />
        <UserIdentityFields
          inputProps={(field) => form.getInputProps(field)}
          password={form.values.password}
          editing={editing}
        />
        {needsCurrentPassword(form.values) ? (
          <PasswordInput
            label={t('preferences.currentPassword')}
            description={t('preferences.currentPasswordHelp')}
            required
            autoComplete="current-password"
            data-testid="user-form-current-password"
            {...form.getInputProps('currentPassword')}
          />
        ) : null}
        <NativeSelect
          label={t('fields.profile')}
          data={PROFILES.map((profile) => ({ value: profile, label: t(`profiles.${profile}`) }))}
          disabled={ownRow}
          description={ownRow ? t('users.ownProfile') : undefined}
          data-testid="user-form-profile"
          {...form.getInputProps('profile')}
        />
        {needsAdmin ? (
          <Alert
            color="blue"
            variant="light"
            icon={<IconInfoCircle size={18} aria-hidden />}
            data-testid="user-form-first-admin"
          >
            {form.values.profile === 'admin' ? t('userTenants.firstAdmin') : t('userTenants.noAdminYet')}
          </Alert>
        ) : null}
        <Switch
          label={t('users.blockWavoip')}
          description={t('users.blockWavoipHelp')}
          data-testid="user-form-blockWavoip"
          {...form.getInputProps('blockWavoip', { type: 'checkbox' })}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="user-form-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
