/**
 * Voice notes with MediaRecorder, for the chat input and the quick messages screen: start (asks for the microphone),
 * elapsed seconds, stop (a File named `<epoch>.ogg` or `<epoch>.webm` with its MIME type) or cancel. Failures come
 * back as a reason the UI translates.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export type RecorderFailure = 'unsupported' | 'denied';

const CANDIDATES = [
  { mime: 'audio/ogg;codecs=opus', ext: 'ogg' },
  { mime: 'audio/webm;codecs=opus', ext: 'webm' },
  { mime: 'audio/webm', ext: 'webm' },
];

function pickFormat(): { mime: string; ext: string } | null {
  if (typeof MediaRecorder === 'undefined') return null;
  const supported = CANDIDATES.find((c) =>
    typeof MediaRecorder.isTypeSupported === 'function' ? MediaRecorder.isTypeSupported(c.mime) : false,
  );
  return supported ?? { mime: '', ext: 'webm' };
}

export function useAudioRecorder() {
  const [recording, setRecording] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const recorder = useRef<MediaRecorder | null>(null);
  const chunks = useRef<Blob[]>([]);
  const stream = useRef<MediaStream | null>(null);
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);

  const release = useCallback(() => {
    clearInterval(timer.current);
    stream.current?.getTracks().forEach((track) => track.stop());
    stream.current = null;
    recorder.current = null;
    setRecording(false);
    setElapsed(0);
  }, []);

  useEffect(() => release, [release]);

  const start = useCallback(async (): Promise<RecorderFailure | null> => {
    const format = pickFormat();
    if (!format || !navigator.mediaDevices?.getUserMedia) return 'unsupported';
    try {
      stream.current = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      return 'denied';
    }
    const media = new MediaRecorder(stream.current, format.mime ? { mimeType: format.mime } : undefined);
    chunks.current = [];
    media.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.current.push(event.data);
    };
    media.start();
    recorder.current = media;
    const startedAt = Date.now();
    timer.current = setInterval(() => setElapsed(Math.floor((Date.now() - startedAt) / 1000)), 500);
    setRecording(true);
    return null;
  }, []);

  /** Stops and hands back the recording as a file ready to upload. */
  const stop = useCallback(
    () =>
      new Promise<File | null>((resolve) => {
        const media = recorder.current;
        if (!media) {
          resolve(null);
          return;
        }
        media.onstop = () => {
          const mime = (media.mimeType || 'audio/webm').split(';')[0] ?? 'audio/webm';
          const ext = mime.includes('ogg') ? 'ogg' : 'webm';
          const blob = new Blob(chunks.current, { type: mime });
          release();
          resolve(blob.size > 0 ? new File([blob], `${Date.now()}.${ext}`, { type: mime }) : null);
        };
        media.stop();
      }),
    [release],
  );

  const cancel = useCallback(() => {
    const media = recorder.current;
    if (media) {
      media.onstop = null;
      if (media.state !== 'inactive') media.stop();
    }
    release();
  }, [release]);

  return { recording, elapsed, start, stop, cancel };
}

export const formatElapsed = (seconds: number): string =>
  `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
