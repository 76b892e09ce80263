/**
 * New-activity alerts of the ticket screen: a short beep (WebAudio, muted by a toggle kept in localStorage) and a
 * browser notification while the page is hidden (after the user granted it from a button). ../api/realtime.ts calls
 * `alertTicketActivity` for inbound messages on listed tickets and for notification:new.
 */
import { useSyncExternalStore } from 'react';
import { navigateTo } from '../../../lib/navigation';

export const SOUND_MUTED_KEY = 'ticketsSoundMuted';
/** Bursts (an import, a busy group) beep once. */
const SOUND_GAP_MS = 1500;

const listeners = new Set<() => void>();

export function isSoundMuted(): boolean {
  try {
    return window.localStorage.getItem(SOUND_MUTED_KEY) === 'true';
  } catch {
    return false;
  }
}

export function setSoundMuted(muted: boolean): void {
  try {
    window.localStorage.setItem(SOUND_MUTED_KEY, String(muted));
  } catch {
    // Private mode: the toggle then lasts this page only.
  }
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const useSoundMuted = (): boolean => useSyncExternalStore(subscribe, isSoundMuted, isSoundMuted);

type AudioContextCtor = typeof AudioContext;
let audio: AudioContext | null = null;
let lastBeep = -Infinity;

/** A 0.3 s sine at 880 Hz. Browsers may refuse audio before a first user gesture; then it stays silent. */
export function playAlertSound(): void {
  const now = Date.now();
  if (now - lastBeep < SOUND_GAP_MS) return;
  const Ctor = (window.AudioContext ?? (window as { webkitAudioContext?: AudioContextCtor }).webkitAudioContext) as
    AudioContextCtor | undefined;
  if (!Ctor) return;
  try {
    audio ??= new Ctor();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    const start = audio.currentTime;
    oscillator.type = 'sine';
    oscillator.frequency.value = 880;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.3);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(start);
    oscillator.stop(start + 0.32);
    lastBeep = now;
  } catch {
    // No audio device or a blocked context: alerts stay visual.
  }
}

export type NotificationState = NotificationPermission | 'unsupported';

export const notificationState = (): NotificationState =>
  typeof window.Notification === 'function' ? window.Notification.permission : 'unsupported';

export async function requestNotificationPermission(): Promise<NotificationState> {
  if (typeof window.Notification !== 'function') return 'unsupported';
  return window.Notification.requestPermission();
}

export interface TicketActivity {
  ticketId: number;
  title: string;
  body: string;
}

/** Sound unless muted; a browser notification only while the page is hidden (the visible list shows it already). */
export function alertTicketActivity(activity: TicketActivity): void {
  if (!isSoundMuted()) playAlertSound();
  if (!document.hidden || notificationState() !== 'granted') return;
  try {
    const notification = new window.Notification(activity.title, {
      body: activity.body,
      tag: `ticket-${activity.ticketId}`,
    });
    notification.onclick = () => {
      window.focus();
      navigateTo(`/atendimento/${activity.ticketId}`);
      notification.close();
    };
  } catch {
    // Some browsers allow notifications only from a service worker.
  }
}

/** For tests. */
export function resetAlertState(): void {
  lastBeep = -Infinity;
}
