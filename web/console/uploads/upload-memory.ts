// What this browser remembers of its unfinished uploads, so one survives a page reload or a closed
// tab: the upload id under the file's identity (name, size, last change). Only a hint: which parts
// the service holds is always asked of the service before anything is sent again.

const PREFIX = 'bds.upload:';

export interface RememberedUpload {
  uploadId: string;
  applicationId: string;
  version: string;
  fileName: string;
  fileSize: number;
  lastModified: number;
  startedAt: string;
}

/** The same file: a file re-selected after a reload is a new File object, so it is known by these. */
export interface FileIdentity {
  name: string;
  size: number;
  lastModified: number;
}

function keyOf(applicationId: string, version: string, fileName: string): string {
  return `${PREFIX}${JSON.stringify([applicationId, version, fileName])}`;
}

export const uploadMemory = {
  find(applicationId: string, version: string, file: FileIdentity): RememberedUpload | null {
    const text = localStorage.getItem(keyOf(applicationId, version, file.name));
    if (!text) return null;
    try {
      const remembered = JSON.parse(text) as RememberedUpload;
      return remembered.fileSize === file.size && remembered.lastModified === file.lastModified ? remembered : null;
    } catch {
      return null;
    }
  },
  remember(upload: RememberedUpload): void {
    localStorage.setItem(keyOf(upload.applicationId, upload.version, upload.fileName), JSON.stringify(upload));
  },
  forget(applicationId: string, version: string, fileName: string): void {
    localStorage.removeItem(keyOf(applicationId, version, fileName));
  },
  /** The unfinished uploads of one version, to tell the person which files to drop again. */
  ofVersion(applicationId: string, version: string): RememberedUpload[] {
    const found: RememberedUpload[] = [];
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (!key?.startsWith(PREFIX)) continue;
      try {
        const upload = JSON.parse(localStorage.getItem(key) ?? '') as RememberedUpload;
        if (upload.applicationId === applicationId && upload.version === version) found.push(upload);
      } catch {
        // A value this page did not write: left alone.
      }
    }
    return found;
  },
};
