import type { FileType } from './file-types';

/*
 * electron-builder's blockmaps. Beside every installer it publishes `{file}.blockmap` (gzipped JSON of
 * the file's content-defined blocks: sizes and checksums). electron-updater fetches the blockmaps of
 * the version it runs and of the new one, at the new file's URL plus `.blockmap` and at the same URL
 * with the versions swapped, then downloads only the blocks it lacks as byte ranges of the new file.
 * Without them it downloads the whole file, which is correct, only slower: a version may have none.
 */

/** What a blockmap must be called: the name of the file it describes, plus this. */
export const BLOCKMAP_FILE = { fileType: 'BLOCKMAP', suffix: '.blockmap', namePattern: '\\.blockmap$' } as const;

/** Whether a file name is a blockmap's (`X.blockmap`, X not empty). */
export const isBlockmapName = (fileName: string): boolean =>
  fileName.length > BLOCKMAP_FILE.suffix.length && fileName.endsWith(BLOCKMAP_FILE.suffix);

/** The name of the file a blockmap describes: `app-1.2.0.exe` for `app-1.2.0.exe.blockmap`. */
export const describedFileName = (blockmapName: string): string => blockmapName.slice(0, -BLOCKMAP_FILE.suffix.length);

/** Why an upload cannot carry fileType BLOCKMAP with this name; null when it can (or is another type). */
export function blockmapFileProblem(file: { fileType: FileType; fileName: string }): string | null {
  if (file.fileType !== BLOCKMAP_FILE.fileType || isBlockmapName(file.fileName)) return null;
  return 'fileType BLOCKMAP is the blockmap electron-builder writes beside a file: its name must be that file\'s name followed by .blockmap';
}
