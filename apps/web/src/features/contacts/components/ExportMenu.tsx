import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconDownload, IconFileSpreadsheet, IconFileTypeCsv } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../../lib/notify';
import { resolveDownloadLink, useExportContacts, type ExportFormat } from '../api/contact-transfer';
import { triggerDownload } from '../hooks/download';

/** Export as CSV or XLSX: the server writes the file and answers a link that downloads without a token. */
export function ExportMenu() {
  const { t } = useTranslation();
  const exporter = useExportContacts();
  const run = (format: ExportFormat) =>
    exporter.mutate(format, {
      onSuccess: (link) => {
        triggerDownload(resolveDownloadLink(link));
        notifySuccess(t('contacts.export.ready'));
      },
    });
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
          loading={exporter.isPending}
          data-testid="contacts-export"
        >
          {t('contacts.export.button')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item
          leftSection={<IconFileTypeCsv size={16} aria-hidden />}
          onClick={() => run('csv')}
          data-testid="contacts-export-csv"
        >
          {t('contacts.export.csv')}
        </Menu.Item>
        <Menu.Item
          leftSection={<IconFileSpreadsheet size={16} aria-hidden />}
          onClick={() => run('xlsx')}
          data-testid="contacts-export-xlsx"
        >
          {t('contacts.export.xlsx')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
