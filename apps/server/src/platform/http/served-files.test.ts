/** The type and disposition every stored file is served with (the routes' own test: messages.served-files.test.ts). */
import { describe, expect, it } from 'vitest';
import { contentDisposition, DOWNLOAD_TYPE, servedType } from './served-files.js';

describe('servedType', () => {
  it('shows raster images, audio and video with their type (parameters dropped)', () => {
    expect(servedType('image/png')).toEqual({ type: 'image/png', inline: true });
    expect(servedType('IMAGE/JPEG')).toEqual({ type: 'image/jpeg', inline: true });
    expect(servedType('image/webp')).toEqual({ type: 'image/webp', inline: true });
    expect(servedType('audio/ogg; codecs=opus')).toEqual({ type: 'audio/ogg', inline: true });
    expect(servedType('video/mp4')).toEqual({ type: 'video/mp4', inline: true });
  });

  it('downloads documents no browser runs with their type', () => {
    for (const mime of [
      'application/pdf',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.oasis.opendocument.spreadsheet',
      'application/zip',
    ]) {
      expect(servedType(mime), mime).toEqual({ type: mime, inline: false });
    }
  });

  it('downloads everything else as bytes: pages, scripts, SVG, XML, text, unknown or malformed types', () => {
    for (const mime of [
      'image/svg+xml',
      'image/svg',
      'text/html',
      'text/plain',
      'text/csv',
      'text/javascript',
      'application/javascript',
      'application/xhtml+xml',
      'application/xml',
      'application/json',
      'application/x-msdownload',
      'font/woff2',
      'multipart/x-mixed-replace',
      '',
      'png',
      'image/png\r\nX-Injected: 1',
    ]) {
      expect(servedType(mime), mime).toEqual({ type: DOWNLOAD_TYPE, inline: false });
    }
  });
});

describe('contentDisposition', () => {
  it('names the file in ASCII (quotes and controls replaced) and in UTF-8', () => {
    expect(contentDisposition(false, 'Relatório "final".pdf')).toBe(
      `attachment; filename="Relat_rio _final_.pdf"; filename*=UTF-8''Relat%C3%B3rio%20%22final%22.pdf`,
    );
    expect(contentDisposition(true, 'a.png')).toBe(`inline; filename="a.png"; filename*=UTF-8''a.png`);
  });
});
