import { useState } from 'react';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CaptchaChallenge } from '@conversa/shared';
import { renderWithProviders } from '../../../test/render';
import { CaptchaSlider } from './CaptchaSlider';

const challenge: CaptchaChallenge = {
  enabled: true,
  token: 'tok',
  background: 'data:image/svg+xml,bg',
  piece: 'data:image/svg+xml,piece',
  width: 300,
  height: 150,
  pieceSize: 44,
  pieceY: 50,
};

function Harness() {
  const [x, setX] = useState(0);
  const [answered, setAnswered] = useState(false);
  return (
    <CaptchaSlider
      challenge={challenge}
      state={answered ? 'answered' : 'ready'}
      x={x}
      onMove={setX}
      onRelease={() => setAnswered(true)}
      onRefresh={() => undefined}
    />
  );
}

describe('captcha slider', () => {
  it('moves 1 px with arrows, 10 px with PageUp/PageDown, to the ends with Home/End, and answers', () => {
    renderWithProviders(<Harness />);
    const slider = screen.getByRole('slider');
    const widget = screen.getByTestId('captcha');
    expect(widget).toHaveAttribute('data-state', 'ready');
    expect(slider).toHaveAttribute('aria-valuemin', '0');
    expect(slider).toHaveAttribute('aria-valuemax', '256');
    expect(widget.outerHTML).toContain(challenge.background);

    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    expect(slider).toHaveAttribute('aria-valuenow', '1');
    expect(widget).toHaveAttribute('data-state', 'answered');
    fireEvent.keyDown(slider, { key: 'PageUp' });
    fireEvent.keyDown(slider, { key: 'PageUp' });
    expect(slider).toHaveAttribute('aria-valuenow', '21');
    fireEvent.keyDown(slider, { key: 'ArrowLeft' });
    fireEvent.keyDown(slider, { key: 'PageDown' });
    expect(slider).toHaveAttribute('aria-valuenow', '10');
    fireEvent.keyDown(slider, { key: 'End' });
    expect(slider).toHaveAttribute('aria-valuenow', '256');
    fireEvent.keyDown(slider, { key: 'PageUp' });
    expect(slider).toHaveAttribute('aria-valuenow', '256');
    fireEvent.keyDown(slider, { key: 'Home' });
    expect(slider).toHaveAttribute('aria-valuenow', '0');
    fireEvent.keyDown(slider, { key: 'ArrowLeft' });
    expect(slider).toHaveAttribute('aria-valuenow', '0');
  });

  it('renders nothing visible when the server has the captcha off', () => {
    renderWithProviders(
      <CaptchaSlider
        challenge={undefined}
        state="disabled"
        x={0}
        onMove={() => undefined}
        onRelease={() => undefined}
        onRefresh={() => undefined}
      />,
    );
    expect(screen.getByTestId('captcha')).toHaveAttribute('data-state', 'disabled');
    expect(screen.queryByRole('slider')).toBeNull();
  });
});
