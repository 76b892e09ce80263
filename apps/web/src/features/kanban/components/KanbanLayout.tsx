import { useState } from 'react';
import { Tabs, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate, useOutletContext } from 'react-router';
import { PageTitle } from '../../../components/PageTitle';

interface BoardContext {
  search: string;
}

/** What the boards read from the layout: the search term (debounced). */
export const useBoardSearch = () => useOutletContext<BoardContext>().search;

/** /kanban: the lanes board (`kanbans`) and the tags board (`tags`) as tabs, with one search box. */
export function KanbanLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [input, setInput] = useState('');
  const [search] = useDebouncedValue(input.trim(), 300);
  const tab = pathname.endsWith('/tags') ? 'tags' : 'kanbans';
  return (
    <>
      <PageTitle
        title={t('kanban.board.title')}
        description={t('kanban.board.subtitle')}
        actions={
          <TextInput
            aria-label={t('kanban.board.search')}
            placeholder={t('kanban.board.search')}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={input}
            onChange={(event) => setInput(event.currentTarget.value)}
            w={260}
            data-testid="kanban-search"
          />
        }
      />
      <Tabs value={tab} onChange={(value) => value && void navigate(`/kanban/${value}`)} mb="md" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="kanbans" data-testid="kanban-tab-kanbans">
            {t('kanban.board.lanesTab')}
          </Tabs.Tab>
          <Tabs.Tab value="tags" data-testid="kanban-tab-tags">
            {t('kanban.board.tagsTab')}
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <Outlet context={{ search } satisfies BoardContext} />
    </>
  );
}
