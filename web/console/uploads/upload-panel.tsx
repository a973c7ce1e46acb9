// Files dropped on a version (or chosen with the file picker), each with its platform, arch and type
// guessed from its name and open to correction, sent with BrowserUpload: progress, rate, time left,
// pause, resume, cancel, and the verification until the file is published or refused.
import { useEffect, useRef, useState } from 'preact/hooks';
import { guessFileTarget } from '../../../shared/releases/artifact-names';
import { ARCHS, PLATFORMS, type Arch, type Platform } from '../../../shared/releases/platforms';
import type { FileType } from '../../../shared/releases/file-types';
import { ErrorNotice, Notice, ProgressBar, SelectField } from '../../common/components';
import { formatBytes } from '../../../shared/byte-sizes';
import { formatDateTime, formatDuration, formatRate } from '../../common/format';
import { BrowserUpload, type UploadPhase, type UploadProgress } from './browser-upload';
import { uploadMemory } from './upload-memory';

/** The file types as the API names them (shared/store/models.ts), listed here without importing the store. */
const FILE_TYPES: readonly FileType[] = ['MAIN', 'UPDATE', 'DEPENDENCY', 'SIGNATURE', 'DOCUMENTATION', 'OTHER'];

interface Item {
  key: string;
  file: File;
  platform: Platform;
  arch: Arch;
  fileType: FileType;
  upload: BrowserUpload | null;
  /** An upload this browser started for the same file, found in its memory (the service is asked before sending). */
  continues: boolean;
}

export interface UploadPanelProps {
  applicationId: string;
  version: string;
  /** What a first upload creates the version as. */
  newVersion?: { channel: string; status: 'draft' | 'published' };
  /** Called when a file has been published (or refused), so the page reloads the version. */
  onFinished: () => void;
}

const PHASE_TEXT: Record<UploadPhase, string> = {
  ready: 'Ready to upload',
  checking: 'Asking the service what it holds',
  uploading: 'Uploading',
  paused: 'Paused',
  offline: 'Connection lost: continues when it is back',
  completing: 'Assembling the parts',
  verifying: 'Verifying the file (checksums and signature)',
  completed: 'Published to the version',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

const ACTIVE: readonly UploadPhase[] = ['checking', 'uploading', 'completing', 'verifying', 'offline'];

export function UploadPanel({ applicationId, version, newVersion, onFinished }: UploadPanelProps) {
  const [items, setItems] = useState<Item[]>([]);
  const [, setTick] = useState(0);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const [unfinished, setUnfinished] = useState(() => uploadMemory.ofVersion(applicationId, version));
  const finished = useRef(onFinished);
  finished.current = onFinished;

  // Leaving the page stops sending (the service keeps the parts; dropping the file on a later visit continues).
  const current = useRef(items);
  current.current = items;
  useEffect(() => () => current.current.forEach((item) => item.upload?.pause()), []);

  const add = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const added = Array.from(files).map((file): Item => ({
      key: `${file.name}:${file.size}:${file.lastModified}:${Math.random()}`,
      file,
      ...guessFileTarget(file.name),
      upload: null,
      continues: uploadMemory.find(applicationId, version, file) !== null,
    }));
    setItems((current) => [...current.filter((item) => !added.some((a) => a.file.name === item.file.name && !item.upload)), ...added]);
  };

  const change = (key: string, patch: Partial<Item>) => setItems((current) => current.map((item) => (item.key === key ? { ...item, ...patch } : item)));

  const start = (item: Item) => {
    const upload = item.upload ?? new BrowserUpload(item.file, {
      applicationId, version, platform: item.platform, arch: item.arch, fileType: item.fileType,
      ...(newVersion ?? {}),
    }, (progress: UploadProgress) => {
      setTick((tick) => tick + 1);
      if (progress.phase === 'completed' || progress.phase === 'failed' || progress.phase === 'cancelled') {
        setUnfinished(uploadMemory.ofVersion(applicationId, version));
      }
      if (progress.phase === 'completed' || (progress.phase === 'failed' && progress.failureReason)) finished.current();
    });
    if (!item.upload) change(item.key, { upload });
    void upload.start();
  };

  const ready = items.filter((item) => !item.upload);
  return (
    <section class="card upload-panel" aria-labelledby="upload-heading">
      <h2 id="upload-heading">Upload files</h2>
      {unfinished.length > 0 && (
        <Notice kind="warning">
          Unfinished uploads from this browser: {unfinished.map((u) => `${u.fileName} (${formatBytes(u.fileSize)}, started ${formatDateTime(u.startedAt)})`).join('; ')}.
          Drop or choose the same file again to continue: the parts the service already holds are not sent again.
        </Notice>
      )}
      <div
        class={`dropzone${dragging ? ' active' : ''}`}
        onDragOver={(event) => { event.preventDefault(); setDragging(true); }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => { event.preventDefault(); setDragging(false); add(event.dataTransfer?.files ?? null); }}
      >
        <p>Drop installers, update archives, block maps or signatures here, any size, or</p>
        <button type="button" class="button secondary" onClick={() => input.current?.click()}>Choose files…</button>
        <input ref={input} class="visually-hidden" type="file" multiple tabIndex={-1} aria-label="Files to upload"
          onChange={(event) => { add((event.target as HTMLInputElement).files); (event.target as HTMLInputElement).value = ''; }} />
        <p class="hint">Platform, arch and type are guessed from each name as electron-builder writes it; check them before uploading.</p>
      </div>
      {items.length > 0 && (
        <ul class="upload-list">
          {items.map((item) => <UploadRow key={item.key} item={item} onChange={(patch) => change(item.key, patch)} onStart={() => start(item)}
            onRemove={() => setItems((current) => current.filter((other) => other.key !== item.key))} />)}
        </ul>
      )}
      {ready.length > 1 && <button type="button" class="button" onClick={() => ready.forEach(start)}>Upload all {ready.length} files</button>}
    </section>
  );
}

function UploadRow({ item, onChange, onStart, onRemove }: { item: Item; onChange: (patch: Partial<Item>) => void; onStart: () => void; onRemove: () => void }) {
  const progress = item.upload?.progress;
  const phase: UploadPhase = progress?.phase ?? 'ready';
  const locked = item.upload !== null;
  return (
    <li class="upload-item" aria-label={`Upload of ${item.file.name}`}>
      <div class="upload-title">
        <strong class="mono">{item.file.name}</strong> <span class="hint">{formatBytes(item.file.size)}</span>
        {item.continues && !locked && <span class="badge warn">continues an earlier upload</span>}
      </div>
      <div class="upload-target">
        <SelectField label="Platform" value={item.platform} disabled={locked} options={PLATFORMS.map((p) => ({ value: p, label: p }))}
          onChange={(event) => onChange({ platform: (event.target as HTMLSelectElement).value as Platform })} />
        <SelectField label="Arch" value={item.arch} disabled={locked} options={ARCHS.map((a) => ({ value: a, label: a }))}
          onChange={(event) => onChange({ arch: (event.target as HTMLSelectElement).value as Arch })} />
        <SelectField label="File type" value={item.fileType} disabled={locked} options={FILE_TYPES.map((t) => ({ value: t, label: t }))}
          onChange={(event) => onChange({ fileType: (event.target as HTMLSelectElement).value as FileType })} />
      </div>
      {progress && (
        <>
          <ProgressBar value={progress.sentBytes} max={progress.totalBytes} label={`Upload of ${item.file.name}`} />
          <p class="upload-status" role="status">
            <span data-phase={phase}>{PHASE_TEXT[phase]}</span>
            {phase === 'uploading' && <> · {formatBytes(progress.sentBytes)} of {formatBytes(progress.totalBytes)} · {formatRate(progress.bytesPerSecond)} · {formatDuration(progress.secondsLeft)} left</>}
            {progress.partCount > 0 && <> · part {progress.partsDone} of {progress.partCount}</>}
            {progress.partsSkipped > 0 && <> · {progress.partsSkipped} part{progress.partsSkipped === 1 ? '' : 's'} already held by the service, not sent again</>}
          </p>
          {progress.failureReason && <p class="field-error">The service refused the file: {progress.failureReason}</p>}
          <ErrorNotice error={progress.error} />
        </>
      )}
      <div class="page-actions">
        {!locked && <button type="button" class="button" onClick={onStart}>{item.continues ? 'Continue upload' : 'Upload'}</button>}
        {locked && (phase === 'uploading' || phase === 'checking' || phase === 'offline') && <button type="button" class="button secondary" onClick={() => item.upload?.pause()}>Pause</button>}
        {locked && (phase === 'paused' || (phase === 'failed' && !progress?.failureReason)) && <button type="button" class="button" onClick={() => void item.upload?.start()}>Resume</button>}
        {locked && (ACTIVE.includes(phase) || phase === 'paused' || (phase === 'failed' && !progress?.failureReason)) && phase !== 'verifying' && phase !== 'completing' &&
          <button type="button" class="button danger" onClick={() => void item.upload?.cancel()}>Cancel upload</button>}
        {(!locked || phase === 'completed' || phase === 'cancelled' || phase === 'failed') && <button type="button" class="button secondary" onClick={onRemove}>Remove from list</button>}
      </div>
    </li>
  );
}
