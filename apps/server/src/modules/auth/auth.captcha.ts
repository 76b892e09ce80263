/**
 * The login slider captcha, generated and checked by the server. The challenge token is an AES-256-GCM blob holding
 * the gap position, a single-use nonce and the expiry, so the client cannot read or forge the answer; the nonce is
 * burnt in captcha_uses when answered (see auth.service.ts).
 *
 * Limits, on purpose: the SVG images still draw the gap, so a bot that parses them can find it. The captcha makes
 * scripted logins from stock clients cost more; the per-e-mail and per-IP attempt limits are the real defence.
 */
import crypto from 'node:crypto';
import type { CaptchaChallenge } from '@conversa/shared';

export const CAPTCHA_WIDTH = 300;
export const CAPTCHA_HEIGHT = 150;
export const CAPTCHA_PIECE_SIZE = 44;
/** How far (pixels) the dropped piece may be from the gap. */
export const CAPTCHA_TOLERANCE = 6;
export const CAPTCHA_TTL_MS = 2 * 60 * 1000;

export const DISABLED_CAPTCHA: CaptchaChallenge = {
  enabled: false,
  token: '',
  background: '',
  piece: '',
  width: 0,
  height: 0,
  pieceSize: 0,
  pieceY: 0,
};

/** What the token carries: the gap's left edge, the single-use nonce, the expiry (epoch ms). */
export interface CaptchaSecret {
  x: number;
  nonce: string;
  exp: number;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
const AAD = Buffer.from('conversa.captcha.v1');

const deriveKey = (secret: string): Buffer =>
  Buffer.from(crypto.hkdfSync('sha256', secret, 'conversa', 'captcha-token', 32));

export function sealCaptcha(secret: string, payload: CaptchaSecret): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', deriveKey(secret), iv);
  cipher.setAAD(AAD);
  const body = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The token's content, or null when it was not made with this secret or was altered. Tests use it to answer. */
export function openCaptcha(secret: string, token: string): CaptchaSecret | null {
  try {
    const raw = Buffer.from(token, 'base64url');
    if (raw.length <= IV_BYTES + TAG_BYTES) return null;
    const decipher = crypto.createDecipheriv('aes-256-gcm', deriveKey(secret), raw.subarray(0, IV_BYTES));
    decipher.setAAD(AAD);
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString();
    const value = JSON.parse(text) as Partial<CaptchaSecret>;
    if (typeof value.x !== 'number' || typeof value.nonce !== 'string' || typeof value.exp !== 'number') return null;
    return { x: value.x, nonce: value.nonce, exp: value.exp };
  } catch {
    return null;
  }
}

export const isCaptchaPositionRight = (secret: CaptchaSecret, x: number): boolean =>
  Math.abs(x - secret.x) <= CAPTCHA_TOLERANCE;

const randomBetween = (min: number, max: number): number =>
  min + (crypto.randomInt(0, 1_000_001) / 1_000_000) * (max - min);
const round = (value: number): number => Math.round(value * 10) / 10;

export function createCaptchaChallenge(secret: string, now: number = Date.now()): CaptchaChallenge {
  const size = CAPTCHA_PIECE_SIZE;
  const x = Math.round(randomBetween(size, CAPTCHA_WIDTH - size * 1.5));
  const pieceY = Math.round(randomBetween(8, CAPTCHA_HEIGHT - size - 8));
  const scene = randomScene();
  const token = sealCaptcha(secret, { x, nonce: crypto.randomUUID(), exp: now + CAPTCHA_TTL_MS });
  return {
    enabled: true,
    token,
    background: svgDataUrl(renderBackground(scene, x, pieceY)),
    piece: svgDataUrl(renderPiece(scene, x, pieceY)),
    width: CAPTCHA_WIDTH,
    height: CAPTCHA_HEIGHT,
    pieceSize: size,
    pieceY,
  };
}

// ---------- images ----------

type Shape =
  | { kind: 'circle'; cx: number; cy: number; r: number; fill: string }
  | { kind: 'rect'; x: number; y: number; w: number; h: number; fill: string }
  | { kind: 'triangle'; points: [number, number][]; fill: string };

interface Scene {
  from: string;
  to: string;
  /** Gradient line in image coordinates (userSpaceOnUse), so the piece's fragment matches the background. */
  line: [number, number, number, number];
  shapes: Shape[];
}

const hsl = (hue: number, saturation: number, lightness: number): string =>
  `hsl(${Math.round(hue) % 360},${saturation}%,${lightness}%)`;

function randomScene(): Scene {
  const hue = randomBetween(0, 360);
  const shapes: Shape[] = [];
  for (let i = 0; i < 18; i += 1) {
    const fill = hsl(
      hue + randomBetween(40, 320),
      Math.round(randomBetween(45, 85)),
      Math.round(randomBetween(35, 75)),
    );
    const kind = crypto.randomInt(0, 3);
    const cx = randomBetween(0, CAPTCHA_WIDTH);
    const cy = randomBetween(0, CAPTCHA_HEIGHT);
    if (kind === 0) shapes.push({ kind: 'circle', cx, cy, r: randomBetween(6, 30), fill });
    else if (kind === 1)
      shapes.push({ kind: 'rect', x: cx, y: cy, w: randomBetween(10, 60), h: randomBetween(8, 40), fill });
    else {
      const points = [0, 1, 2].map(
        () => [cx + randomBetween(-30, 30), cy + randomBetween(-30, 30)] as [number, number],
      );
      shapes.push({ kind: 'triangle', points, fill });
    }
  }
  return {
    from: hsl(hue, 60, 60),
    to: hsl(hue + randomBetween(60, 180), 55, 35),
    line: [randomBetween(0, 100), 0, randomBetween(200, CAPTCHA_WIDTH), CAPTCHA_HEIGHT],
    shapes,
  };
}

/** The scene drawn shifted by (-dx, -dy): the piece is the same scene seen through a window at the gap. */
function renderScene(scene: Scene, dx: number, dy: number): string {
  const [x1, y1, x2, y2] = scene.line;
  const defs =
    `<defs><linearGradient id="g" gradientUnits="userSpaceOnUse" x1="${round(x1 - dx)}" y1="${round(y1 - dy)}" ` +
    `x2="${round(x2 - dx)}" y2="${round(y2 - dy)}"><stop offset="0" stop-color="${scene.from}"/>` +
    `<stop offset="1" stop-color="${scene.to}"/></linearGradient></defs>`;
  const shapes = scene.shapes
    .map((shape) => {
      if (shape.kind === 'circle') {
        return `<circle cx="${round(shape.cx - dx)}" cy="${round(shape.cy - dy)}" r="${round(shape.r)}" fill="${shape.fill}" fill-opacity="0.75"/>`;
      }
      if (shape.kind === 'rect') {
        return `<rect x="${round(shape.x - dx)}" y="${round(shape.y - dy)}" width="${round(shape.w)}" height="${round(shape.h)}" fill="${shape.fill}" fill-opacity="0.7"/>`;
      }
      const points = shape.points.map(([px, py]) => `${round(px - dx)},${round(py - dy)}`).join(' ');
      return `<polygon points="${points}" fill="${shape.fill}" fill-opacity="0.7"/>`;
    })
    .join('');
  return `${defs}<rect x="${round(-dx)}" y="${round(-dy)}" width="${CAPTCHA_WIDTH}" height="${CAPTCHA_HEIGHT}" fill="url(#g)"/>${shapes}`;
}

function renderBackground(scene: Scene, x: number, y: number): string {
  const size = CAPTCHA_PIECE_SIZE;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CAPTCHA_WIDTH}" height="${CAPTCHA_HEIGHT}" ` +
    `viewBox="0 0 ${CAPTCHA_WIDTH} ${CAPTCHA_HEIGHT}">${renderScene(scene, 0, 0)}` +
    `<rect x="${x}" y="${y}" width="${size}" height="${size}" rx="4" fill="#000" fill-opacity="0.55" ` +
    `stroke="#fff" stroke-opacity="0.8" stroke-width="1.5"/></svg>`
  );
}

function renderPiece(scene: Scene, x: number, y: number): string {
  const size = CAPTCHA_PIECE_SIZE;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    `${renderScene(scene, x, y)}<rect x="0.75" y="0.75" width="${size - 1.5}" height="${size - 1.5}" rx="4" ` +
    `fill="none" stroke="#fff" stroke-width="1.5"/></svg>`
  );
}

const svgDataUrl = (svg: string): string => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
