/**
 * Limits of an import file, checked before anything reads it for real: an XLSX is a zip, and a few KB of zip can
 * inflate to gigabytes (a decompression bomb) that exceljs would unpack into memory and temp files. Every entry is
 * inflated here with a running count, so a zip that lies in its central directory is stopped as well; the rows of
 * either format are capped too, because each row costs a statement in the import job.
 */
import fs from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import zlib from 'node:zlib';

/** Inflated size of all the entries of an XLSX together. */
export const IMPORT_MAX_UNZIPPED_BYTES = 50 * 1024 * 1024;
/** Data rows (the header not counted) of a CSV or of the XLSX's first sheet. */
export const IMPORT_MAX_ROWS = 10_000;
const MAX_ZIP_ENTRIES = 10_000;

/** The file cannot be read as a contact list (not CSV/XLSX, or no Name and Number columns). */
export class ImportFileError extends Error {}
/** The file exceeds a limit: the upload answers 413 and nothing is imported. */
export class ImportTooLargeError extends ImportFileError {}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const END_RECORD_MIN = 22;
const COMMENT_MAX = 0xffff;

interface ZipEntry {
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

async function readAt(handle: fs.FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** The central directory's entries; a zip we cannot walk (or ZIP64, which no 10 MB workbook needs) is refused. */
async function readDirectory(handle: fs.FileHandle): Promise<ZipEntry[]> {
  const { size } = await handle.stat();
  const tailLength = Math.min(size, END_RECORD_MIN + COMMENT_MAX);
  const tail = await readAt(handle, size - tailLength, tailLength);
  let end = -1;
  for (let i = tail.length - END_RECORD_MIN; i >= 0; i--) {
    if (tail.readUInt32LE(i) === END_OF_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip');
  const count = tail.readUInt16LE(end + 10);
  const directorySize = tail.readUInt32LE(end + 12);
  const directoryOffset = tail.readUInt32LE(end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff) throw new ImportTooLargeError('zip64 archive');
  if (count > MAX_ZIP_ENTRIES) throw new ImportTooLargeError(`${count} zip entries`);
  const directory = await readAt(handle, directoryOffset, directorySize);
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== DIRECTORY_ENTRY) throw new Error('bad directory');
    entries.push({
      method: directory.readUInt16LE(at + 10),
      compressedSize: directory.readUInt32LE(at + 20),
      size: directory.readUInt32LE(at + 24),
      localHeaderOffset: directory.readUInt32LE(at + 42),
    });
    at += 46 + directory.readUInt16LE(at + 28) + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
  }
  return entries;
}

/** Inflates one entry, counting; stops as soon as the running total passes the budget. */
async function inflatedSize(file: string, handle: fs.FileHandle, entry: ZipEntry, budget: number): Promise<number> {
  const local = await readAt(handle, entry.localHeaderOffset, 30);
  if (local.length < 30 || local.readUInt32LE(0) !== LOCAL_HEADER) throw new Error('bad local header');
  const start = entry.localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  if (entry.method === 0) return entry.compressedSize;
  if (entry.method !== 8 || entry.compressedSize === 0) return entry.method === 8 ? 0 : Infinity;
  const source = createReadStream(file, { start, end: start + entry.compressedSize - 1 });
  const inflate = zlib.createInflateRaw();
  let total = 0;
  return new Promise<number>((resolve, reject) => {
    const stop = (result: number) => {
      source.destroy();
      inflate.destroy();
      resolve(result);
    };
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > budget) stop(total);
    });
    inflate.on('end', () => resolve(total));
    inflate.on('error', reject);
    source.on('error', reject);
    source.pipe(inflate);
  });
}

/** Throws ImportTooLargeError when the zip's entries inflate (or claim to) past IMPORT_MAX_UNZIPPED_BYTES. */
export async function assertZipWithinLimit(file: string, limit = IMPORT_MAX_UNZIPPED_BYTES): Promise<void> {
  const handle = await fs.open(file, 'r');
  try {
    const entries = await readDirectory(handle);
    const declared = entries.reduce((sum, entry) => sum + entry.size, 0);
    if (declared > limit) throw new ImportTooLargeError(`declares ${declared} bytes unzipped`);
    let total = 0;
    for (const entry of entries) {
      total += await inflatedSize(file, handle, entry, limit - total);
      if (total > limit) throw new ImportTooLargeError(`inflates past ${limit} bytes`);
    }
  } finally {
    await handle.close();
  }
}
