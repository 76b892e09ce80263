import { DEFAULT_THEME, isLightColor, luminance, mergeMantineTheme, type CSSVariablesResolver } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { buildTheme, cssVariablesResolver } from './theme';

const theme = mergeMantineTheme(DEFAULT_THEME, buildTheme('Fechar'));

/** A colour value as the browser would paint it: `var(--mantine-color-<name>-<shade>)` looked up in the theme. */
const paint = (value: string): string => {
  const shade = /^var\(--mantine-color-([a-z]+)-(\d)\)$/.exec(value);
  if (shade) return theme.colors[shade[1]!]![Number(shade[2])]!;
  if (!/^(#|rgba?\()/.test(value)) throw new Error(`cannot resolve ${value}`);
  return value;
};

const contrast = (a: string, b: string) => {
  const [high, low] = [luminance(paint(a)), luminance(paint(b))].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
};
const light = (cssVariablesResolver as CSSVariablesResolver)(theme).light;
const colours = Object.entries(theme.colors);

describe('light-scheme text colours reach WCAG AA (4.5:1)', () => {
  it('dimmed text on white and on gray 0-2', () => {
    for (const background of ['#ffffff', ...theme.colors.gray.slice(0, 3)]) {
      expect(contrast(light['--mantine-color-dimmed']!, background)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it.each(colours)('%s text (c="<colour>") and outline variant on white and gray 1', (name) => {
    for (const role of ['text', 'outline']) {
      const text = light[`--mantine-color-${name}-${role}`]!;
      expect(contrast(text, '#ffffff')).toBeGreaterThanOrEqual(4.5);
      expect(contrast(text, theme.colors.gray[1])).toBeGreaterThanOrEqual(4.5);
    }
  });

  it.each(colours)('%s light variant (badge, avatar) on its shade 1 and 2', (name, shades) => {
    const text = light[`--mantine-color-${name}-light-color`]!;
    expect(contrast(text, shades[1])).toBeGreaterThanOrEqual(4.5);
    expect(contrast(text, shades[2])).toBeGreaterThanOrEqual(4.5);
  });

  it('white on the primary filled shade (buttons, active tabs) and the primary shade as link colour', () => {
    const shade = typeof theme.primaryShade === 'number' ? theme.primaryShade : theme.primaryShade.light;
    expect(contrast('#ffffff', theme.colors[theme.primaryColor]![shade])).toBeGreaterThanOrEqual(4.5);
  });

  it.each(colours)('text on %s filled (buttons, badges) under autoContrast', (_name, shades) => {
    expect(theme.autoContrast).toBe(true);
    const shade = typeof theme.primaryShade === 'number' ? theme.primaryShade : theme.primaryShade.light;
    const fill = shades[shade]!;
    const text = isLightColor(fill, theme.luminanceThreshold) ? '#000000' : '#ffffff';
    expect(contrast(text, fill)).toBeGreaterThanOrEqual(4.5);
  });

  it('a titled toast draws its text in the readable dimmed colour (Mantine uses gray 6, 3.3:1)', () => {
    const styles = theme.components.Notification?.styles as { description?: { color?: string } };
    expect(styles.description?.color).toBe('var(--mantine-color-dimmed)');
  });

  it('errors use the readable red', () => {
    expect(light['--mantine-color-error']).toBe('var(--mantine-color-red-text)');
  });
});

describe('dark-scheme dimmed text reaches WCAG AA (4.5:1)', () => {
  it('on the page, cards and inputs (dark 5-8)', () => {
    const dark = (cssVariablesResolver as CSSVariablesResolver)(theme).dark;
    for (const background of theme.colors.dark.slice(5, 9)) {
      expect(contrast(dark['--mantine-color-dimmed']!, background)).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('close buttons of toasts, modals and drawers are named', () => {
  it.each(['Notification', 'Modal', 'Drawer'])('%s', (component) => {
    const props = theme.components[component]?.defaultProps as { closeButtonProps?: Record<string, string> };
    expect(props.closeButtonProps?.['aria-label']).toBe('Fechar');
  });
});

describe('menus pass axe when open', () => {
  it('render no initial-focus placeholder (a focusable role="presentation" inside role="menu")', () => {
    expect(theme.components.Menu?.defaultProps).toMatchObject({ withInitialFocusPlaceholder: false });
  });
});
