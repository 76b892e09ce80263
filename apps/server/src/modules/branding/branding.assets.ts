/**
 * The installation's default brand: name, colours, a vector logo and favicon, PNG icons drawn at start (home-screen
 * icons and notification badges need raster images) and the web manifest. Built once per process; nothing here reads
 * a tenant, as these are served before login.
 */
import zlib from 'node:zlib';

export const DEFAULT_APP_NAME = 'Conversa';
export const DEFAULT_SHORT_NAME = 'Conversa';
export const THEME_COLOR = '#228be6';
export const BACKGROUND_COLOR = '#ffffff';

/** Paths under /api, so every client (ours, or one built with URL_API=<host>/api) finds them beside the API. */
export const BRANDING_PATHS = {
  logo: '/api/public/logo.svg',
  favicon: '/api/public/favicon.svg',
  icon192: '/api/public/icon-192.png',
  icon512: '/api/public/icon-512.png',
  manifest: '/api/public/manifest.webmanifest',
} as const;

// One drawing, in a 32-unit square: a rounded tile and a speech bubble with a tail at its lower left.
const BUBBLE = 'M8 10h16a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-9l-5 4v-4H8a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2z';

export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="${THEME_COLOR}"/><path d="${BUBBLE}" fill="#fff"/></svg>`;

export const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 168 32" role="img" aria-label="${DEFAULT_APP_NAME}"><rect width="32" height="32" rx="8" fill="${THEME_COLOR}"/><path d="${BUBBLE}" fill="#fff"/><text x="40" y="23" font-family="system-ui,-apple-system,'Segoe UI',Roboto,sans-serif" font-size="20" font-weight="600" fill="${THEME_COLOR}">${DEFAULT_APP_NAME}</text></svg>`;

/** Whether a point of the 32-unit drawing is inside the bubble (its rounded body or its tail). */
function insideBubble(x: number, y: number): boolean {
  const inRoundedRect = (x0: number, y0: number, x1: number, y1: number, r: number) => {
    if (x < x0 || x > x1 || y < y0 || y > y1) return false;
    const cx = Math.min(Math.max(x, x0 + r), x1 - r);
    const cy = Math.min(Math.max(y, y0 + r), y1 - r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  };
  const inTail = x >= 10 && y >= 22 && y <= 26 && x <= 15 - ((y - 22) * 5) / 4;
  return inRoundedRect(6, 10, 26, 22, 2) || inTail;
}

const hexRgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** The favicon's drawing as an RGBA PNG of `size` pixels (one sample per pixel is enough at icon sizes). */
export function renderIconPng(size: number): Buffer {
  const [r, g, b] = hexRgb(THEME_COLOR);
  const scale = 32 / size;
  const rows: Buffer[] = [];
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 4); // filter byte 0, then RGBA
    for (let px = 0; px < size; px++) {
      const x = (px + 0.5) * scale;
      const y = (py + 0.5) * scale;
      const white = insideBubble(x, y);
      row.set(white ? [255, 255, 255, 255] : [r, g, b, 255], 1 + px * 4);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export function webManifest(appName: string) {
  return {
    name: appName,
    short_name: DEFAULT_SHORT_NAME,
    description: `${appName}: atendimento multiempresa`,
    lang: 'pt-BR',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    icons: [
      { src: BRANDING_PATHS.favicon, sizes: 'any', type: 'image/svg+xml' },
      { src: BRANDING_PATHS.icon192, sizes: '192x192', type: 'image/png' },
      { src: BRANDING_PATHS.icon512, sizes: '512x512', type: 'image/png' },
    ],
  };
}
