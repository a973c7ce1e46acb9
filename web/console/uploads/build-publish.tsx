// A build folder dropped (or chosen) on an application: the recogniser `bds publish` runs
// (shared/publishing) reads it here in the browser and shows the same plan and the same refusals;
// "Publish" sends every file to a draft with BrowserUpload, the files a signature or blockmap is
// attached to first, and publishes the version in one change once every file is stored and verified.
import { useRef, useState } from 'preact/hooks';
import { planRelease, RECOGNISED_TOOLS, standingOf, type PlannedFile, type PlanProblem, type PublishPlan } from '../../../shared/publishing';
import { BUILD_PUBLISH_PARALLEL_FILES } from '../../../shared/policy';
import { client } from '../../common/api';
import { ErrorNotice, Notice, ProgressBar, SelectField, TextField } from '../../common/components';
import { formatBytes } from '../../../shared/byte-sizes';
import { ScrollTable } from '../../common/scroll-table';
import { BrowserUpload, type UploadPhase, type UploadProgress } from './browser-upload';
import { blobOf, folderOfDrop, folderOfInput, folderReader, listingOf, type BuildFolder } from './build-folder';
import { browserVerifier } from './signature-check';

export interface BuildPublishProps {
  applicationId: string;
  keys: { updateSigningKey: string | null; sparklePublicKey: string | null };
  channels: readonly string[];
  defaultChannel: string;
  defaultStatus: 'draft' | 'published';
  /** Called when the version was saved (draft or published), so the page can link to it. */
  onPublished: (version: string) => void;
  /** Where the version's own page is. */
  versionHref: (version: string) => string;
}

type Stage = 'empty' | 'reading' | 'planned' | 'sending' | 'done' | 'stopped';

/** What became of one planned file while publishing. */
interface Sent {
  phase: UploadPhase | 'already stored' | 'waiting';
  progress: UploadProgress | null;
}

const PHASE_WORDS: Record<Sent['phase'], string> = {
  waiting: 'Waiting',
  'already stored': 'Already stored, identical: not sent again',
  ready: 'Waiting',
  checking: 'Asking the service what it holds',
  uploading: 'Uploading',
  paused: 'Paused',
  offline: 'Connection lost: continues when it is back',
  completing: 'Assembling the parts',
  verifying: 'Verifying (checksum and signature)',
  completed: 'Stored and verified',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

const globsOf = (text: string) => text.split(',').map((glob) => glob.trim()).filter(Boolean);
const rowKey = (file: PlannedFile) => file.path ?? `:${file.fileName}`;

export function BuildPublishPanel({ applicationId, keys, channels, defaultChannel, defaultStatus, onPublished, versionHref }: BuildPublishProps) {
  const [folder, setFolder] = useState<BuildFolder | null>(null);
  const [plan, setPlan] = useState<PublishPlan | null>(null);
  const [refusals, setRefusals] = useState<PlanProblem[]>([]);
  const [stage, setStage] = useState<Stage>('empty');
  const [error, setError] = useState<unknown>(undefined);
  const [channel, setChannel] = useState(defaultChannel);
  const [status, setStatus] = useState<'draft' | 'published'>(defaultStatus);
  const [include, setInclude] = useState('');
  const [exclude, setExclude] = useState('');
  const [dragging, setDragging] = useState(false);
  const [sent, setSent] = useState<Record<string, Sent>>({});
  const [outcome, setOutcome] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const uploads = useRef<BrowserUpload[]>([]);

  const read = async (chosen: BuildFolder | null, globs = { include, exclude }) => {
    if (!chosen) return;
    setFolder(chosen);
    setStage('reading');
    setPlan(null);
    setRefusals([]);
    setSent({});
    setOutcome(null);
    setError(undefined);
    try {
      const planned = await planRelease({
        files: listingOf(chosen), reader: folderReader(chosen), keys, verify: browserVerifier(chosen),
        include: globsOf(globs.include), exclude: globsOf(globs.exclude),
      });
      setPlan(planned);
      setStage('planned');
    } catch (failure) {
      setError(failure);
      setStage('empty');
    }
  };

  const patchSent = (key: string, change: Sent) => setSent((current) => ({ ...current, [key]: change }));

  /** One file through BrowserUpload; resolves when it is stored and verified, rejects when it is not. */
  const sendOne = (chosen: BuildFolder, version: string, file: PlannedFile) => new Promise<void>((resolve, reject) => {
    const upload = new BrowserUpload(blobOf(chosen, file), {
      applicationId, version, platform: file.platform, arch: file.arch, fileType: file.fileType, channel, status: 'draft',
    }, (progress) => {
      patchSent(rowKey(file), { phase: progress.phase, progress });
      if (progress.phase === 'completed') resolve();
      else if (progress.phase === 'failed' || progress.phase === 'cancelled') {
        reject(new Error(`${file.path ?? file.fileName}: ${progress.failureReason ?? (progress.error instanceof Error ? progress.error.message : progress.phase)}`));
      }
    });
    uploads.current.push(upload);
    void upload.start();
  });

  /** Sends the files a few at a time; after the first failure no other file starts. */
  const sendAll = async (chosen: BuildFolder, version: string, files: PlannedFile[]) => {
    const queue = [...files];
    let failed = false;
    const worker = async () => {
      for (let file = queue.shift(); file && !failed; file = queue.shift()) {
        try {
          await sendOne(chosen, version, file);
        } catch (failure) {
          failed = true;
          throw failure;
        }
      }
    };
    const results = await Promise.allSettled(Array.from({ length: Math.max(1, Math.min(BUILD_PUBLISH_PARALLEL_FILES, files.length)) }, worker));
    const rejected = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (rejected) throw rejected.reason;
  };

  const publish = async () => {
    if (!folder || !plan || plan.problems.length > 0) return;
    setError(undefined);
    setRefusals([]);
    setOutcome(null);
    setStage('sending');
    uploads.current = [];
    try {
      const reader = folderReader(folder);
      const { versions } = await client.listVersions({ applicationId });
      const held = versions.find((candidate) => candidate.version === plan.version);
      const standing = await standingOf({
        plan, held, channel,
        checksumOf: (file) => reader.sha256(file),
        shownPath: (file) => (file.path ? `${folder.name}/${file.path}` : `${file.fileName} (written from the tool's metadata)`),
      });
      if (standing.problems.length > 0) {
        setRefusals(standing.problems);
        setStage('planned');
        return;
      }
      setSent(Object.fromEntries(plan.files.map((file) => [rowKey(file), { phase: standing.alreadyThere.includes(file) ? 'already stored' : 'waiting', progress: null }])));
      if (standing.toSend.length === 0 && held && held.status !== 'draft') {
        setOutcome(`Already published: version ${plan.version} holds these ${plan.files.length} files, identical; nothing was sent.`);
        setStage('done');
        onPublished(plan.version);
        return;
      }
      await sendAll(folder, plan.version, standing.toSend.filter((file) => !file.attachedTo));
      await sendAll(folder, plan.version, standing.toSend.filter((file) => file.attachedTo));
      const change: Parameters<typeof client.updateVersion>[1] = { ...plan.versionFields };
      if (status === 'published') change.status = 'published';
      if (Object.keys(change).length > 0) {
        await client.updateVersion({ applicationId, version: plan.version }, change);
      }
      setOutcome(status === 'published'
        ? `Published version ${plan.version}: ${plan.files.length} files, customers see them now, together.`
        : `Saved version ${plan.version} as a draft with ${plan.files.length} files: publish it from its page when it is ready.`);
      setStage('done');
      onPublished(plan.version);
    } catch (failure) {
      uploads.current.forEach((upload) => upload.pause());
      setError(failure);
      setStage('stopped');
    }
  };

  const busy = stage === 'reading' || stage === 'sending';
  const problems = plan?.problems ?? [];
  return (
    <section class="card build-publish" aria-labelledby="build-publish-heading">
      <h2 id="build-publish-heading">Publish a build folder</h2>
      <p class="hint">
        Drop the folder the build tool wrote (electron-builder's <code>dist/</code>, Tauri's <code>target/release/bundle/</code>,
        Velopack's <code>Releases/</code>, electron-forge's <code>out/make/</code>, the folder of Sparkle's <code>generate_appcast</code>).
        It is read here, as <code>bds publish</code> reads it: nothing is sent before you publish.
      </p>
      <div
        class={`dropzone${dragging ? ' active' : ''}`}
        onDragOver={(event) => { event.preventDefault(); setDragging(true); }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          if (busy || !event.dataTransfer) return;
          void folderOfDrop(event.dataTransfer).then((dropped) => read(dropped), setError);
        }}
      >
        <p>Drop a build folder here, or</p>
        <button type="button" class="button secondary" disabled={busy} onClick={() => input.current?.click()}>Choose a build folder…</button>
        <input ref={input} class="visually-hidden" type="file" multiple tabIndex={-1} aria-label="Build folder"
          {...{ webkitdirectory: true }}
          onChange={(event) => { const target = event.target as HTMLInputElement; void read(target.files ? folderOfInput(target.files) : null); target.value = ''; }} />
        <p class="hint">Recognised: {Object.keys(RECOGNISED_TOOLS).join(', ')}.</p>
      </div>
      <div class="release-grid build-options">
        <SelectField label="Channel" value={channel} disabled={busy} onChange={(event) => setChannel((event.target as HTMLSelectElement).value)}
          options={channels.map((c) => ({ value: c, label: c }))} />
        <SelectField label="When every file is in" value={status} disabled={busy} onChange={(event) => setStatus((event.target as HTMLSelectElement).value as 'draft' | 'published')}
          options={[{ value: 'published', label: 'Publish the version' }, { value: 'draft', label: 'Keep it a draft' }]} />
        <TextField label="Also upload (globs)" hint="As --include: comma-separated, e.g. *.txt" value={include} disabled={busy}
          onInput={(event) => setInclude((event.target as HTMLInputElement).value)}
          onChange={() => void read(folder, { include, exclude })} />
        <TextField label="Leave out (globs)" hint="As --exclude: comma-separated, e.g. **/*.pdb" value={exclude} disabled={busy}
          onInput={(event) => setExclude((event.target as HTMLInputElement).value)}
          onChange={() => void read(folder, { include, exclude })} />
      </div>
      <ErrorNotice error={error} />
      {stage === 'reading' && <p role="status">Reading {folder?.name}: checking digests and metadata…</p>}
      {plan && (
        <>
          <h3>Plan: version {plan.version || '(none)'} from {folder?.name}</h3>
          <p class="hint">Tools: {plan.tools.join(', ') || 'none recognised'} · {plan.files.length} files, {formatBytes(plan.files.reduce((sum, file) => sum + file.size, 0))}
            {plan.skipped.length > 0 && <> · {plan.skipped.length} read or left aside</>}</p>
          {problems.length > 0 && <Problems title={`Nothing can be sent: ${problems.length === 1 ? 'one problem' : `${problems.length} problems`}`} problems={problems} />}
          {refusals.length > 0 && <Problems title="Refused, nothing was sent: the service already holds this version" problems={refusals} />}
          <PlanTable plan={plan} sent={sent} />
          {plan.skipped.length > 0 && (
            <details class="skipped">
              <summary>Read or left aside ({plan.skipped.length})</summary>
              <ul>{plan.skipped.map((file) => <li key={file.path}><span class="mono">{file.path}</span>: {file.reason}</li>)}</ul>
            </details>
          )}
          <div class="page-actions">
            <button type="button" class="button" disabled={busy || problems.length > 0 || plan.files.length === 0} onClick={() => void publish()}>
              {status === 'published' ? `Publish ${plan.version}` : `Save ${plan.version} as a draft`} ({plan.files.length} files)
            </button>
            {stage === 'stopped' && <button type="button" class="button secondary" onClick={() => void publish()}>Try again (stored files are not sent again)</button>}
          </div>
          {stage === 'sending' && <p role="status">Sending {plan.files.length} files to a draft: customers see nothing before every file is stored and verified.</p>}
          {stage === 'stopped' && <Notice kind="warning">Version {plan.version} stays a draft, invisible to customers. Try again to continue.</Notice>}
          {outcome && <Notice kind="success">{outcome} <a href={versionHref(plan.version)}>Open version {plan.version}</a></Notice>}
        </>
      )}
    </section>
  );
}

function Problems({ title, problems }: { title: string; problems: PlanProblem[] }) {
  return (
    <div class="notice notice-error" role="alert">
      <strong>{title}</strong>
      <ul class="problems">{problems.map((problem) => <li key={problem.message}>{problem.message}</li>)}</ul>
    </div>
  );
}

function PlanTable({ plan, sent }: { plan: PublishPlan; sent: Record<string, Sent> }) {
  const sending = Object.keys(sent).length > 0;
  return (
    <ScrollTable label="Files to publish">
      <table class="plan-table">
        <thead>
          <tr><th scope="col">File</th><th scope="col">Platform</th><th scope="col">Arch</th><th scope="col">Type</th><th scope="col">Size</th><th scope="col">What it is for</th>{sending && <th scope="col">Progress</th>}</tr>
        </thead>
        <tbody>
          {plan.files.map((file) => {
            const state = sent[rowKey(file)];
            return (
              <tr key={rowKey(file)}>
                <th scope="row" class="mono">{file.path ?? file.fileName}</th>
                <td data-label="Platform">{file.platform}</td><td data-label="Arch">{file.arch}</td><td data-label="Type">{file.fileType}</td>
                <td data-label="Size" class="digest">{formatBytes(file.size)}</td><td data-label="For">{file.purpose}</td>
                {sending && (
                  <td data-label="Progress" class="plan-progress">
                    {state?.progress && <ProgressBar value={state.progress.sentBytes} max={state.progress.totalBytes} label={`Upload of ${file.fileName}`} />}
                    <span data-phase={state?.phase}>{state ? PHASE_WORDS[state.phase] : ''}</span>
                    {state?.progress?.failureReason && <span class="field-error"> {state.progress.failureReason}</span>}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollTable>
  );
}
