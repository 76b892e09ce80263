import {
  createTheme,
  darken,
  Drawer,
  luminance,
  Menu,
  Modal,
  Notification,
  type CSSVariablesResolver,
} from '@mantine/core';

/** The theme, with the close buttons of toasts, modals and drawers named in the current language (an icon alone). */
export const buildTheme = (closeLabel: string) =>
  createTheme({
    primaryColor: 'indigo',
    // Shade 6 under white text (buttons, active tabs) and as link colour reaches only 4.3:1; shade 7 passes WCAG AA.
    primaryShade: { light: 7, dark: 8 },
    // Filled buttons and badges pick black or white text by the fill's luminance; at 0.18 the pick always reaches
    // 4.5:1 (white needs a luminance <= 0.183, black >= 0.175), where Mantine's 0.3 leaves white on teal or red at 3:1.
    autoContrast: true,
    luminanceThreshold: 0.18,
    defaultRadius: 'md',
    focusRing: 'auto',
    fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    headings: { fontWeight: '700' },
    cursorType: 'pointer',
    components: {
      // A toast with a title draws its text in gray 6 (3.3:1 on white); the readable dimmed colour replaces it.
      Notification: Notification.extend({
        defaultProps: { closeButtonProps: { 'aria-label': closeLabel } },
        styles: { description: { color: 'var(--mantine-color-dimmed)' } },
      }),
      Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': closeLabel } } }),
      Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': closeLabel } } }),
      // An open menu's initial-focus placeholder is a focusable role="presentation" inside role="menu", which axe
      // reports as critical (aria-required-children): every menu goes without it (focus starts on the menu itself).
      Menu: Menu.extend({ defaultProps: { withInitialFocusPlaceholder: false } }),
    },
  });

const contrast = (a: string, b: string): number => {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
};

/** The lightest of shades 7-9 (then shade 9 darkened) that reads at WCAG AA (4.5:1, with a margin) on `background`. */
const readableShade = (shades: readonly string[], background: string): string => {
  const dark = shades[9]!;
  const candidates = [shades[7]!, shades[8]!, dark, darken(dark, 0.15), darken(dark, 0.3)];
  return candidates.find((colour) => contrast(colour, background) >= 4.6) ?? darken(dark, 0.5);
};

/**
 * Light-scheme text colours with at least 4.5:1 contrast (WCAG AA, checked by axe in the e2e suite). Mantine's dimmed
 * (gray 6) gives 3.3:1 on white; coloured text (`c="teal"`, shade 6/7) 2.5-3.8:1 for teal, green, red, yellow; the
 * light variant (shade 9 on shade 1: badges, avatars, light buttons) 3.3:1 for lime and 2.7:1 for yellow; the outline
 * variant (shade 7 on white) 4.2:1 for blue.
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => {
  const gray = resolved.colors.gray;
  const colours = Object.entries(resolved.colors);
  return {
    variables: {},
    light: {
      // Gray 6 and 7 are 3.3:1 and 8.2:1; this sits between them and keeps 4.8:1 on gray 2 (chat and card backgrounds).
      '--mantine-color-dimmed': '#5f6770',
      '--mantine-color-error': 'var(--mantine-color-red-text)',
      ...Object.fromEntries(
        colours.flatMap(([name, shades]) => [
          [`--mantine-color-${name}-text`, readableShade(shades, gray[1])],
          // Outline badges and buttons draw their text in the outline colour.
          [`--mantine-color-${name}-outline`, readableShade(shades, gray[1])],
          [`--mantine-color-${name}-light-color`, readableShade(shades, shades[2])],
        ]),
      ),
    },
    dark: {
      // Mantine's dark dimmed (dark 2) gives 3.9:1 on the page (dark 7) and 3.5:1 on cards (dark 6); this gives 6.9 and
      // 6.2 (5.1 on dark 5, hovered rows).
      '--mantine-color-dimmed': '#adadad',
      // Mantine's error red (red 6 here) is 3.4:1 on the dark page; red 4 passes 4.5:1 on the page and on cards.
      '--mantine-color-error': 'var(--mantine-color-red-4)',
    },
  };
};
