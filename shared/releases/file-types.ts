/**
 * What a file is for in its version. `MAIN`: the installer a download gives; `SIGNATURE`: a detached
 * signature of another file of the version (Tauri's `.sig`, Sparkle's, minisign).
 * `UPDATE`: the archive update clients install beside a MAIN installer they cannot (the macOS `.zip`
 * beside a `.dmg`; shared/releases/mac-updates.ts), offered by the update feeds, never as a download's MAIN file.
 * `BLOCKMAP`: electron-builder's `{file}.blockmap` beside the file it describes, read by electron-updater's
 * differential download (shared/releases/blockmaps.ts).
 */
export const FILE_TYPES = ['MAIN', 'UPDATE', 'DEPENDENCY', 'SIGNATURE', 'DOCUMENTATION', 'OTHER', 'BLOCKMAP'] as const;
export type FileType = (typeof FILE_TYPES)[number];
