/**
 * /campanhas/:campanhaId/relatorio (issue 25): a campaign's report. Its counts, a bar chart of its recipients by
 * state (plain SVG with a text alternative), each recipient's state, reason and send time on the company's clock, the
 * export of every recipient as CSV or XLSX, and printing (the browser's "Save as PDF" makes the PDF): the print rules
 * below hide the shell and the buttons and lay the report on A4; they exist only while this screen is mounted.
 */
import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { Alert, Anchor, Badge, Button, Group, Loader, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import {
  IconArrowLeft,
  IconFileSpreadsheet,
  IconFileTypeCsv,
  IconInfoCircle,
  IconPrinter,
  IconUsers,
} from '@tabler/icons-react';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type {
  CampaignReport,
  CampaignReportCounts,
  CampaignReportFormat,
  CampaignReportRecipient,
  CampaignReportState,
} from '@conversa/shared';
import { NotFound } from '../../../components/NotFound';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { ApiError, describeError } from '../../../lib/api';
import { useTenantTimeZone } from '../../../lib/current-tenant';
import { errorText } from '../../../lib/errors';
import { i18next } from '../../../lib/i18n';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useCampaignReport, useDownloadCampaignReport } from '../api/campaign-report';
import { useCampaignsLive } from '../api/campaigns';
import { formatCampaignStart } from '../campaign-dates';
import { CampaignProgress, CampaignStatusBadge } from './CampaignStatus';

/** Rows per page on screen; printing lays out every row the report has. */
const PAGE_SIZE = 100;

const STATE_COLORS: Record<CampaignReportState, string> = {
  pending: 'gray',
  sent: 'blue',
  delivered: 'teal',
  read: 'green',
  failed: 'red',
  skipped: 'orange',
};

const EXPORTS = [
  { format: 'csv', Icon: IconFileTypeCsv },
  { format: 'xlsx', Icon: IconFileSpreadsheet },
] as const;

const PRINT_CSS = `
@media print {
  @page { size: A4; margin: 12mm; }
  .mantine-AppShell-header, .mantine-AppShell-navbar, .skip-link, .mantine-Notifications-root,
  .report-no-print { display: none !important; }
  .mantine-AppShell-main { padding: 0 !important; min-height: 0 !important; }
  #main-content { max-width: none !important; }
  :root, :root[data-mantine-color-scheme='dark'] {
    color-scheme: light; --mantine-color-body: #fff; --mantine-color-text: #000; --mantine-color-dimmed: #495057;
    --mantine-color-default: #fff; --mantine-color-default-border: #ced4da;
  }
  body { background: #fff !important; color: #000 !important; }
  .campaign-report svg, .campaign-report .mantine-Badge-root { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
  .campaign-report .report-keep, .campaign-report tr { break-inside: avoid; }
  .campaign-report thead { display: table-header-group; }
}`;

export function CampaignReportPage() {
  const { campanhaId } = useParams();
  const id = Number(campanhaId);
  if (!Number.isInteger(id) || id <= 0) return <NotFound />;
  return <Report key={id} id={id} />;
}

/** A reason code in words: the send-error texts the chat shows, else the error catalogue (a provider's text as is). */
function reasonText(reason: string): string {
  const sendError = `chat.sendErrors.${reason}`;
  return i18next.exists(sendError) ? i18next.t(sendError) : errorText(reason);
}

/** True while the page prints: every row is laid out, not the screen's page of them. */
function usePrinting(): boolean {
  const [printing, setPrinting] = useState(false);
  useEffect(() => {
    // Synchronous, so the rows are in the document before the browser lays out the print.
    const before = () => flushSync(() => setPrinting(true));
    const after = () => setPrinting(false);
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    return () => {
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
    };
  }, []);
  return printing;
}

function Report({ id }: { id: number }) {
  const { t } = useTranslation();
  useCampaignsLive();
  const report = useCampaignReport(id);
  const { timeZone } = useTenantTimeZone();

  let body;
  if (report.data) body = <ReportBody id={id} report={report.data} timeZone={timeZone} />;
  else if (report.isError) body = <QueryError error={report.error} onRetry={() => void report.refetch()} />;
  else
    body = (
      <Group gap="sm" role="status" data-testid="campaign-report-loading">
        <Loader size="sm" aria-hidden />
        <Text size="sm">{t('common.loading')}</Text>
      </Group>
    );
  return (
    <div className="campaign-report" data-testid="campaign-report">
      <style>{PRINT_CSS}</style>
      <Anchor
        component={Link}
        to="/campanhas"
        size="sm"
        mb="sm"
        display="inline-flex"
        className="report-no-print"
        data-testid="campaign-report-back"
      >
        <Group gap={4} component="span">
          <IconArrowLeft size={16} aria-hidden />
          {t('campaigns.report.back')}
        </Group>
      </Anchor>
      {report.data ? null : <PageTitle title={t('campaigns.report.heading')} />}
      {body}
    </div>
  );
}

function ReportBody({ id, report, timeZone }: { id: number; report: CampaignReport; timeZone: string }) {
  const { t } = useTranslation();
  const download = useDownloadCampaignReport(id);
  const { campaign, counts, recipients } = report;

  const exportAs = (format: CampaignReportFormat) =>
    download.mutate(format, {
      onSuccess: (name) => notifySuccess(t('campaigns.report.exported', { name })),
      onError: (error) => {
        if (!(error instanceof ApiError && error.notified)) {
          notifyError(t('campaigns.report.exportFailed', { reason: describeError(error) }));
        }
      },
    });
  const busy = (format: CampaignReportFormat) => download.isPending && download.variables === format;

  return (
    <>
      <PageTitle
        title={t('campaigns.report.title', { name: campaign.name })}
        description={t('campaigns.report.generatedAt', { date: formatCampaignStart(report.generatedAt, timeZone) })}
        actions={
          <Group gap="sm" className="report-no-print">
            {EXPORTS.map(({ format, Icon }) => (
              <Button
                key={format}
                variant="default"
                leftSection={<Icon size={16} aria-hidden />}
                loading={busy(format)}
                disabled={download.isPending && !busy(format)}
                onClick={() => exportAs(format)}
                data-testid={`campaign-report-export-${format}`}
              >
                {t(format === 'csv' ? 'campaigns.report.exportCsv' : 'campaigns.report.exportXlsx')}
              </Button>
            ))}
            <Button
              leftSection={<IconPrinter size={16} aria-hidden />}
              onClick={() => window.print()}
              data-testid="campaign-report-print"
            >
              {t('campaigns.report.print')}
            </Button>
          </Group>
        }
      />
      <Paper withBorder p="sm" radius="md" mb="md" className="report-keep" data-testid="campaign-report-header">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="sm">
            <CampaignStatusBadge campaign={campaign} />
            <Text size="sm">
              {t('campaigns.report.start', {
                start: formatCampaignStart(campaign.start, timeZone) || t('campaigns.noStart'),
              })}
            </Text>
          </Group>
          <div style={{ minWidth: 220, flex: '0 1 320px' }}>
            <CampaignProgress campaign={campaign} />
          </div>
        </Group>
      </Paper>
      <CountCards counts={counts} />
      <StateChart counts={counts} />
      {report.truncated ? (
        <Alert
          color="blue"
          variant="light"
          icon={<IconInfoCircle size={18} aria-hidden />}
          mb="md"
          data-testid="campaign-report-truncated"
        >
          {t('campaigns.report.truncated', { shown: recipients.length, total: counts.contactsCount })}
        </Alert>
      ) : null}
      <RecipientsTable recipients={recipients} timeZone={timeZone} />
    </>
  );
}

/** The recipients, a page at a time on screen and every one of them in print. */
function RecipientsTable({ recipients, timeZone }: { recipients: CampaignReportRecipient[]; timeZone: string }) {
  const { t } = useTranslation();
  const printing = usePrinting();
  const [page, setPage] = useState(1);
  const columns: DataTableColumn<CampaignReportRecipient>[] = [
    { accessor: 'name', title: t('campaigns.report.columns.name') },
    {
      accessor: 'number',
      title: t('campaigns.report.columns.number'),
      noWrap: true,
      render: (row) => row.number ?? '',
    },
    {
      accessor: 'state',
      title: t('campaigns.report.columns.state'),
      render: (row) => (
        // The whole text in any width ("Aguardando envio" was cut to "Aguard…" on A4).
        <Badge
          variant="light"
          color={STATE_COLORS[row.state]}
          miw="max-content"
          data-testid={`report-state-${row.contactId}`}
        >
          {t(`campaigns.report.states.${row.state}`)}
        </Badge>
      ),
    },
    {
      accessor: 'reason',
      title: t('campaigns.report.columns.reason'),
      render: (row) =>
        row.reason ? (
          <Text size="sm" data-testid={`report-reason-${row.contactId}`}>
            {reasonText(row.reason)}
          </Text>
        ) : null,
    },
    {
      accessor: 'messageRandom',
      title: t('campaigns.report.columns.message'),
      noWrap: true,
      render: (row) => (row.messageRandom ? t('campaigns.report.messageN', { n: row.messageRandom }) : ''),
    },
    {
      accessor: 'sentAt',
      title: t('campaigns.report.columns.sentAt'),
      noWrap: true,
      render: (row) => (row.sentAt ? formatCampaignStart(row.sentAt, timeZone) : ''),
    },
  ];
  const base = {
    'data-testid': 'campaign-report-table',
    'aria-label': t('campaigns.report.tableLabel'),
    withTableBorder: true,
    borderRadius: 'md',
    minHeight: recipients.length ? undefined : 220,
    noRecordsText: t('campaigns.report.empty'),
    noRecordsIcon: <IconUsers size={32} aria-hidden />,
    idAccessor: 'contactId',
    customRowAttributes: (row: CampaignReportRecipient) => ({ 'data-testid': `report-row-${row.contactId}` }),
    columns,
  } as const;
  if (printing || recipients.length <= PAGE_SIZE)
    return <DataTable<CampaignReportRecipient> {...base} records={recipients} />;
  return (
    <DataTable<CampaignReportRecipient>
      {...base}
      records={recipients.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)}
      totalRecords={recipients.length}
      recordsPerPage={PAGE_SIZE}
      page={page}
      onPageChange={setPage}
      paginationText={({ from, to, totalRecords }) => t('common.pagination', { from, to, total: totalRecords })}
    />
  );
}

function CountCards({ counts }: { counts: CampaignReportCounts }) {
  const { t } = useTranslation();
  const cards: { key: string; value: number; hint?: string }[] = [
    { key: 'total', value: counts.contactsCount },
    { key: 'pendingSend', value: counts.pendentesEnvio },
    { key: 'pendingDelivery', value: counts.pendentesEntrega },
    { key: 'delivered', value: counts.recebidas, hint: t('campaigns.report.cards.deliveredHint') },
    { key: 'read', value: counts.lidas },
    { key: 'failed', value: counts.failed },
    { key: 'skipped', value: counts.skipped },
  ];
  return (
    <SimpleGrid cols={{ base: 2, xs: 4, lg: 7 }} spacing="sm" mb="md" className="report-keep">
      {cards.map((card) => (
        <Paper key={card.key} withBorder p="sm" radius="md" data-testid={`report-count-${card.key}`}>
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            {t(`campaigns.report.cards.${card.key}`)}
          </Text>
          <Text size="xl" fw={700} data-testid={`report-count-${card.key}-value`}>
            {card.value}
          </Text>
          {card.hint ? (
            <Text size="xs" c="dimmed">
              {card.hint}
            </Text>
          ) : null}
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** Each recipient counted once: delivered here is delivered and not read. */
function chartBars(counts: CampaignReportCounts): { state: CampaignReportState; value: number }[] {
  return [
    { state: 'pending', value: counts.pendentesEnvio },
    { state: 'sent', value: counts.pendentesEntrega },
    { state: 'delivered', value: Math.max(0, counts.recebidas - counts.lidas) },
    { state: 'read', value: counts.lidas },
    { state: 'failed', value: counts.failed },
    { state: 'skipped', value: counts.skipped },
  ];
}

const ROW_HEIGHT = 30;
const LABEL_WIDTH = 170;
const BAR_WIDTH = 360;

function StateChart({ counts }: { counts: CampaignReportCounts }) {
  const { t } = useTranslation();
  const bars = chartBars(counts).map((bar) => ({
    ...bar,
    label: t(bar.state === 'delivered' ? 'campaigns.report.chartDelivered' : `campaigns.report.states.${bar.state}`),
  }));
  const total = counts.contactsCount;
  const figures = bars.map((bar) => t('campaigns.report.figure', { label: bar.label, count: bar.value })).join('; ');
  const height = bars.length * ROW_HEIGHT;
  return (
    <Paper withBorder p="sm" radius="md" mb="md" className="report-keep" data-testid="campaign-report-chart">
      <Title order={2} size="h5" mb="xs">
        {t('campaigns.report.chartTitle')}
      </Title>
      {total === 0 ? (
        <Text size="sm" c="dimmed">
          {t('campaigns.report.chartEmpty')}
        </Text>
      ) : (
        <div style={{ maxWidth: 640 }}>
          <svg
            role="img"
            aria-label={t('campaigns.report.chartLabel', { total, figures })}
            viewBox={`0 0 ${LABEL_WIDTH + BAR_WIDTH + 70} ${height}`}
            width="100%"
            data-testid="campaign-report-chart-svg"
          >
            {bars.map((bar, i) => {
              const y = i * ROW_HEIGHT;
              const track = { x: LABEL_WIDTH, y: y + 6, height: 18, rx: 3 };
              // A bar of one recipient among thousands stays visible.
              const filled = bar.value > 0 ? Math.max((bar.value / total) * BAR_WIDTH, 2) : 0;
              return (
                <g key={bar.state} aria-hidden>
                  <text x={0} y={y + 19} fontSize={13} fill="currentColor">
                    {bar.label}
                  </text>
                  <rect {...track} width={BAR_WIDTH} fill="var(--mantine-color-default-border)" />
                  <rect {...track} width={filled} fill={`var(--mantine-color-${STATE_COLORS[bar.state]}-filled)`} />
                  <text x={LABEL_WIDTH + BAR_WIDTH + 8} y={y + 19} fontSize={13} fontWeight={600} fill="currentColor">
                    {bar.value}
                  </text>
                </g>
              );
            })}
          </svg>
        </div>
      )}
    </Paper>
  );
}
