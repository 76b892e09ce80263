/**
 * The slider captcha: the user drags the piece into the gap of the background. The handle moves 1:1 in pixels over
 * 0..width-pieceSize, by mouse, touch (pointer events) or keyboard (arrows ±1, PageUp/PageDown ±10, Home/End).
 * Releasing the handle answers the challenge; the login then sends `{ token, x }` for the server to verify.
 */
import { useId, useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { ActionIcon, Box, Skeleton, Text, Tooltip } from '@mantine/core';
import { IconArrowsHorizontal, IconCheck, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { CaptchaChallenge } from '@conversa/shared';
import classes from './CaptchaSlider.module.css';

export type CaptchaState = 'loading' | 'ready' | 'answered' | 'disabled' | 'error';

interface CaptchaSliderProps {
  challenge: CaptchaChallenge | undefined;
  state: CaptchaState;
  x: number;
  onMove: (x: number) => void;
  onRelease: () => void;
  onRefresh: () => void;
  error?: string | null;
}

const KEY_STEPS: Record<string, (x: number, max: number) => number> = {
  ArrowLeft: (x) => x - 1,
  ArrowDown: (x) => x - 1,
  ArrowRight: (x) => x + 1,
  ArrowUp: (x) => x + 1,
  PageUp: (x) => x + 10,
  PageDown: (x) => x - 10,
  Home: () => 0,
  End: (_x, max) => max,
};

export function CaptchaSlider({ challenge, state, x, onMove, onRelease, onRefresh, error }: CaptchaSliderProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const errorId = useId();
  const drag = useRef<{ pointerId: number; startClientX: number; startX: number } | null>(null);

  if (state === 'disabled') return <div data-testid="captcha" data-state="disabled" hidden />;

  const width = challenge?.width ?? 300;
  const height = challenge?.height ?? 160;
  const pieceSize = challenge?.pieceSize ?? 48;
  const max = Math.max(0, width - pieceSize);
  const clamp = (value: number) => Math.min(max, Math.max(0, Math.round(value)));
  const interactive = state === 'ready' || state === 'answered';

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = KEY_STEPS[event.key];
    if (!step || !interactive) return;
    event.preventDefault();
    onMove(clamp(step(x, max)));
    onRelease();
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (!interactive || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.preventDefault();
    event.currentTarget.focus();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drag.current = { pointerId: event.pointerId, startClientX: event.clientX, startX: x };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    onMove(clamp(current.startX + event.clientX - current.startClientX));
  };
  const endDrag = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    drag.current = null;
    onMove(clamp(current.startX + event.clientX - current.startClientX));
    onRelease();
  };

  return (
    <Box data-testid="captcha" data-state={state} className={classes.root} style={{ maxWidth: width }}>
      <div className={classes.header}>
        <Text id={labelId} size="sm" fw={500}>
          {t('captcha.instruction')}
        </Text>
        <Tooltip label={t('captcha.refresh')}>
          <ActionIcon
            variant="subtle"
            size="sm"
            aria-label={t('captcha.refresh')}
            data-testid="captcha-refresh"
            onClick={onRefresh}
            loading={state === 'loading'}
          >
            <IconRefresh size={16} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </div>
      <div className={classes.image} style={{ width, height }}>
        {challenge && state !== 'loading' ? (
          <>
            <img src={challenge.background} width={width} height={height} alt="" draggable={false} />
            <img
              src={challenge.piece}
              width={pieceSize}
              height={pieceSize}
              alt=""
              draggable={false}
              className={classes.piece}
              style={{ left: x, top: challenge.pieceY }}
            />
          </>
        ) : (
          <Skeleton width={width} height={height} radius="sm" />
        )}
      </div>
      <div className={classes.track} style={{ width }} data-answered={state === 'answered' || undefined}>
        <div className={classes.fill} style={{ width: x + pieceSize / 2 }} aria-hidden />
        <span className={classes.hint} aria-hidden>
          {state === 'answered' ? '' : t('captcha.hint')}
        </span>
        <div
          role="slider"
          tabIndex={interactive ? 0 : -1}
          data-testid="captcha-slider"
          aria-labelledby={labelId}
          aria-describedby={error ? errorId : undefined}
          aria-valuemin={0}
          aria-valuemax={max}
          aria-valuenow={x}
          aria-valuetext={t('captcha.valueText', { x, max })}
          aria-disabled={!interactive || undefined}
          aria-invalid={error ? true : undefined}
          className={classes.handle}
          style={{ left: x, width: pieceSize }}
          onKeyDown={onKeyDown}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={endDrag}
          onPointerCancel={endDrag}
        >
          {state === 'answered' ? <IconCheck size={18} aria-hidden /> : <IconArrowsHorizontal size={18} aria-hidden />}
        </div>
      </div>
      {state === 'error' ? (
        <Text size="xs" c="yellow.8" mt={4}>
          {t('captcha.loadError')}
        </Text>
      ) : null}
      {error ? (
        <Text id={errorId} size="xs" c="red.7" mt={4} role="alert">
          {error}
        </Text>
      ) : null}
    </Box>
  );
}
