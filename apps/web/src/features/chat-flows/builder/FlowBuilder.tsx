/**
 * The builder of one loaded flow: the toolbar, the canvas, the side area (steps list, node panel, issues) and the
 * save. The flow JSON lives in the reducer with its history (builder.state.ts); Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z
 * and Ctrl+Y redo (outside text fields, which keep their own). Leaving with unsaved changes asks first.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { Badge, Box, Button, Group, Modal, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconArrowLeft,
  IconChecklist,
  IconDeviceFloppy,
  IconPlus,
} from '@tabler/icons-react';
import { useReactFlow } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import { Link, useBlocker } from 'react-router';
import type { ChatFlowDto } from '@conversa/shared';
import { describeError } from '../../../lib/api-error';
import { notifyError, notifySuccess, notifyWarning } from '../../../lib/notify';
import { useSaveChatFlow } from '../api/chat-flows';
import { BuilderProvider } from './builder.context';
import { freeSpot, newId, stepNodes } from './builder.graph';
import { collectIssues, issueNodeIds } from './builder.issues';
import { builderReducer, initialBuilderState } from './builder.state';
import { IssuesPanel, StepsList, stepButtonId } from './BuilderSide';
import { FlowCanvas } from './FlowCanvas';
import classes from './FlowBuilder.module.css';
import { NodePanel, STEP_NAME_INPUT_ID } from './NodePanel';

export const FLOW_LIST_PATH = '/chat-flow';
const ADD_STEP_ID = 'flow-add-step';

const isTextField = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable ||
    target instanceof HTMLTextAreaElement ||
    (target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit'].includes(target.type)));

/** Focus after React has drawn the element (a deleted step's neighbour, a new step's name). */
const focusLater = (id: string) => setTimeout(() => document.getElementById(id)?.focus(), 0);

export function FlowBuilder({ flow }: { flow: ChatFlowDto }) {
  const { t } = useTranslation();
  const [state, dispatch] = useReducer(builderReducer, { ...flow.flow, name: flow.name }, initialBuilderState);
  const graph = state.present;
  const dirty = graph !== state.saved;
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [validated, setValidated] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const issues = useMemo(() => (validated ? collectIssues(graph) : []), [validated, graph]);
  const issueNodes = useMemo(() => issueNodeIds(issues), [issues]);
  const issuesTitle = useRef<HTMLHeadingElement>(null);
  const reactFlow = useReactFlow();
  const save = useSaveChatFlow();

  const selectNode = useCallback(
    (id: string | null, centre = false) => {
      setSelectedId(id);
      if (id && centre && reactFlow.getNode(id)) {
        void reactFlow.fitView({ nodes: [{ id }], duration: 300, maxZoom: 1 });
      }
    },
    [reactFlow],
  );
  const selectFromCanvas = useCallback((id: string | null) => selectNode(id), [selectNode]);
  const selectAndCentre = useCallback((id: string) => selectNode(id, true), [selectNode]);

  const deleteSteps = useCallback(
    (ids: readonly string[]) => {
      const steps = stepNodes(graph);
      const index = steps.findIndex((n) => ids.includes(n.id));
      const neighbour = [...steps.slice(0, index).reverse(), ...steps.slice(index + 1)].find(
        (n) => !ids.includes(n.id),
      );
      dispatch({ type: 'deleteSteps', ids });
      setSelectedId(null);
      focusLater(neighbour ? stepButtonId(neighbour.id) : ADD_STEP_ID);
    },
    [graph],
  );

  const addStep = () => {
    const id = newId();
    const count = stepNodes(graph).length;
    const canvas = document.querySelector('[data-testid="flow-canvas"]')?.getBoundingClientRect();
    const centre = canvas
      ? reactFlow.screenToFlowPosition({ x: canvas.left + canvas.width / 2, y: canvas.top + canvas.height / 2 })
      : { x: 300, y: 200 };
    // Near the middle of the view, clear of the other cards; the view follows it.
    const spot = freeSpot(graph, centre.x - 90, centre.y - 40);
    dispatch({ type: 'addStep', step: { id, name: t('flowBuilder.newStepName', { n: count + 1 }), ...spot } });
    setSelectedId(id);
    void reactFlow.setCenter(spot.left + 90, spot.top + 40, { zoom: reactFlow.getZoom(), duration: 300 });
    focusLater(STEP_NAME_INPUT_ID);
  };

  const undo = useCallback(() => dispatch({ type: 'undo' }), []);
  const redo = useCallback(() => dispatch({ type: 'redo' }), []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || isTextField(event.target)) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) undo();
      else if ((key === 'z' && event.shiftKey) || (key === 'y' && !event.shiftKey)) redo();
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undo, redo]);

  // Leaving: the browser asks on reload/close; a route change asks in our dialog.
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );

  const name = graph.name.trim();
  /** Shows the issues; on Validate also says when there are none. The focus goes to the list when it has any. */
  const validate = (announceValid: boolean) => {
    setValidated(true);
    const found = collectIssues(graph);
    if (found.length === 0 && announceValid) notifySuccess(t('flowBuilder.valid'));
    if (found.length > 0 || announceValid) issuesTitle.current?.focus();
    return found;
  };
  const onSave = () => {
    setServerError(null);
    const found = validate(false);
    if (found.length > 0 || !name) {
      if (found.length > 0) notifyWarning(t('flowBuilder.saveBlocked', { n: found.length }));
      return;
    }
    const saving = graph;
    save.mutate(
      {
        id: flow.id,
        input: {
          name,
          isActive: flow.isActive,
          celularTeste: flow.celularTeste,
          flow: { ...saving, name },
        },
      },
      {
        onSuccess: () => {
          dispatch({ type: 'saved', graph: saving });
          notifySuccess(t('flowBuilder.saved'));
        },
        onError: (error) => {
          const text = describeError(error);
          setServerError(text);
          notifyError(text);
        },
      },
    );
  };

  const selected = graph.nodeList.find((n) => n.id === selectedId);

  return (
    <BuilderProvider graph={graph} flowId={flow.id} dispatch={dispatch}>
      <Box className={classes.screen} data-testid="flow-builder">
        <Group gap="xs" wrap="wrap" align="flex-end" role="group" aria-label={t('flowBuilder.toolbar')}>
          <Button
            component={Link}
            to={FLOW_LIST_PATH}
            variant="default"
            leftSection={<IconArrowLeft size={16} aria-hidden />}
          >
            {t('flowBuilder.back')}
          </Button>
          <TextInput
            label={t('flowBuilder.flowName')}
            value={graph.name}
            maxLength={120}
            error={name ? undefined : t('flowBuilder.nameRequired')}
            onChange={(event) => dispatch({ type: 'rename', name: event.currentTarget.value })}
            w={240}
          />
          <Button id={ADD_STEP_ID} leftSection={<IconPlus size={16} aria-hidden />} onClick={addStep}>
            {t('flowBuilder.addStep')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconArrowBackUp size={16} aria-hidden />}
            disabled={state.past.length === 0}
            onClick={undo}
          >
            {t('flowBuilder.undo')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconArrowForwardUp size={16} aria-hidden />}
            disabled={state.future.length === 0}
            onClick={redo}
          >
            {t('flowBuilder.redo')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconChecklist size={16} aria-hidden />}
            onClick={() => void validate(true)}
          >
            {t('flowBuilder.validate')}
          </Button>
          <Button leftSection={<IconDeviceFloppy size={16} aria-hidden />} loading={save.isPending} onClick={onSave}>
            {t('flowBuilder.save')}
          </Button>
          {dirty ? (
            <Badge variant="light" color="yellow" data-testid="flow-dirty">
              {t('flowBuilder.unsaved')}
            </Badge>
          ) : null}
        </Group>
        <div className={classes.layout}>
          <FlowCanvas
            graph={graph}
            dispatch={dispatch}
            selectedId={selectedId}
            onSelect={selectFromCanvas}
            onDeleteSteps={deleteSteps}
            issueNodes={issueNodes}
          />
          <ScrollArea className={classes.side} type="auto" offsetScrollbars>
            <Stack gap="md" p="sm">
              <StepsList graph={graph} selectedId={selectedId} issueNodes={issueNodes} onSelect={selectAndCentre} />
              <IssuesPanel
                ref={issuesTitle}
                graph={graph}
                validated={validated}
                issues={issues}
                serverError={serverError}
                onSelect={selectAndCentre}
              />
              <Box component="section" aria-label={t('flowBuilder.panel.label')} data-testid="flow-panel">
                <NodePanel graph={graph} node={selected} onDeleteStep={(id) => deleteSteps([id])} />
              </Box>
            </Stack>
          </ScrollArea>
        </div>
      </Box>
      <Modal
        opened={blocker.state === 'blocked'}
        onClose={() => blocker.reset?.()}
        title={t('flowBuilder.leaveTitle')}
        centered
      >
        <Text size="sm">{t('flowBuilder.leaveMessage')}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => blocker.reset?.()} data-testid="confirm-cancel">
            {t('flowBuilder.stay')}
          </Button>
          <Button color="red" onClick={() => blocker.proceed?.()} data-testid="confirm-leave">
            {t('flowBuilder.leave')}
          </Button>
        </Group>
      </Modal>
    </BuilderProvider>
  );
}
