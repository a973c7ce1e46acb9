// A build folder in the browser: the files of a folder chosen with `webkitdirectory` or dropped
// (DataTransferItem.webkitGetAsEntry), with their paths relative to the folder, and the reader the
// recogniser (shared/publishing) reads them through: text and digests by WebCrypto.
import type { BuildFile, BuildReader, DigestAlgorithm, PlannedFile } from '../../../shared/publishing';

export interface BuildFolder {
  /** The folder's name, as the person chose it. */
  name: string;
  /** Each file under its path relative to the folder, `/` between segments. */
  files: Map<string, File>;
}

/** The listing the recogniser reads, sorted as the CLI lists a directory. */
export function listingOf(folder: BuildFolder): BuildFile[] {
  return [...folder.files].map(([path, file]) => ({ path, size: file.size })).sort((a, b) => a.path.localeCompare(b.path));
}

/** The files of `<input type=file webkitdirectory>`: each `webkitRelativePath` starts with the chosen folder's name. */
export function folderOfInput(list: FileList): BuildFolder | null {
  const files = new Map<string, File>();
  let name = '';
  for (const file of Array.from(list)) {
    const relative = file.webkitRelativePath || file.name;
    const slash = relative.indexOf('/');
    if (slash > 0) name ||= relative.slice(0, slash);
    files.set(slash > 0 ? relative.slice(slash + 1) : relative, file);
  }
  return files.size > 0 ? { name: name || 'chosen files', files } : null;
}

const readBatch = (reader: FileSystemDirectoryReader) =>
  new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));

/** Every file under a directory entry; `readEntries` answers in batches until an empty one. */
async function walk(entry: FileSystemEntry, prefix: string, into: Map<string, File>): Promise<void> {
  if (entry.isFile) {
    into.set(`${prefix}${entry.name}`, await fileOf(entry as FileSystemFileEntry));
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  for (let batch = await readBatch(reader); batch.length > 0; batch = await readBatch(reader)) {
    for (const child of batch) await walk(child, `${prefix}${entry.name}/`, into);
  }
}

/**
 * What was dropped: one folder is read as the build folder (its files relative to it); files, or
 * several folders, are read as if they were the folder's content. The entries are taken while the
 * drop event lasts: the browser empties the DataTransfer after it.
 */
export async function folderOfDrop(transfer: DataTransfer): Promise<BuildFolder | null> {
  const entries = Array.from(transfer.items)
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry())
    .filter((entry): entry is FileSystemEntry => entry !== null);
  const files = new Map<string, File>();
  if (entries.length === 1 && entries[0].isDirectory) {
    const root = entries[0] as FileSystemDirectoryEntry;
    const reader = root.createReader();
    for (let batch = await readBatch(reader); batch.length > 0; batch = await readBatch(reader)) {
      for (const child of batch) await walk(child, '', files);
    }
    return files.size > 0 ? { name: root.name, files } : null;
  }
  if (entries.length === 0) {
    // A browser without entries: the plain files.
    for (const file of Array.from(transfer.files)) files.set(file.name, file);
  }
  for (const entry of entries) await walk(entry, '', files);
  return files.size > 0 ? { name: 'dropped files', files } : null;
}

const hex = (buffer: ArrayBuffer) => Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');

/**
 * Reads the folder's files for the recogniser and for the checksums the service compares; each
 * digest is computed once. WebCrypto digests a whole buffer: a file is read into memory once per
 * algorithm, which a build's artifacts allow.
 */
export function folderReader(folder: BuildFolder): BuildReader & { sha256(file: PlannedFile): Promise<string> } {
  const digests = new Map<string, Promise<ArrayBuffer>>();
  const digest = (file: Blob, key: string, algorithm: DigestAlgorithm | 'SHA-256') => {
    let found = digests.get(`${algorithm}:${key}`);
    if (!found) digests.set(`${algorithm}:${key}`, (found = file.arrayBuffer().then((bytes) => crypto.subtle.digest(algorithm, bytes))));
    return found;
  };
  const fileAt = (path: string): File => {
    const file = folder.files.get(path);
    if (!file) throw new Error(`${path} is not in the folder`);
    return file;
  };
  return {
    text: (path) => fileAt(path).text(),
    digest: async (path, algorithm) => new Uint8Array(await digest(fileAt(path), path, algorithm)),
    sha256: async (file) => `sha256:${hex(await digest(blobOf(folder, file), file.path ?? `:${file.fileName}`, 'SHA-256'))}`,
  };
}

/** The bytes a planned file uploads: the folder's file, or the text written from the tool's metadata (a Sparkle signature). */
export function blobOf(folder: BuildFolder, file: PlannedFile): File {
  if (file.path === null) return new File([file.content ?? ''], file.fileName, { type: 'text/plain' });
  const found = folder.files.get(file.path);
  if (!found) throw new Error(`${file.path} is not in the folder`);
  return found;
}
