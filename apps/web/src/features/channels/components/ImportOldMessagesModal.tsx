import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChannelDto } from '@conversa/shared';
import { SyncLimitModal } from '../../../components/SyncLimitModal';
import { ApiError, describeError } from '../../../lib/api';
import { notifyInfo } from '../../../lib/notify';
import { useImportOldMessages } from '../api/import-old-messages';

/** "Import old messages" of a connected WhatsApp channel: how many, then POST /messages/syncOld. */
export function ImportOldMessagesModal({ channel, onClose }: { channel: ChannelDto | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const importer = useImportOldMessages();
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  const submit = (limit: number) => {
    if (!channel) return;
    setError(null);
    importer.mutate(
      { whatsappId: channel.id, limit },
      {
        onSuccess: () => {
          notifyInfo(t('historySync.started'));
          close();
        },
        onError: (failure) => setError(failure instanceof ApiError && failure.notified ? null : describeError(failure)),
      },
    );
  };
  return (
    <SyncLimitModal
      opened={channel !== undefined}
      onClose={close}
      title={t('channels.importOld.title')}
      description={t('channels.importOld.description', { name: channel?.name ?? '' })}
      submitLabel={t('channels.importOld.submit')}
      loading={importer.isPending}
      error={error}
      onSubmit={submit}
      testId="channel-import-old"
    />
  );
}
