import fc from 'fast-check';
import type { RawRequest } from '../support/raw-http';

/** One part of a multipart body; `headers` replaces the part's usual headers when given. */
export interface FormPart {
  name: string;
  value: string;
  fileName?: string;
  contentType?: string;
  headers?: string;
}

export type DraftBody =
  | { kind: 'none' }
  /** Field names as given (escaped when rendered), values as raw JSON text: `1e999` stays `1e999`. */
  | { kind: 'json'; fields: Array<[string, string]> }
  /** `preamble` and `epilogue`: text before the first boundary and after the last, which readers ignore. */
  | { kind: 'form'; boundary: string; parts: FormPart[]; closed: boolean; preamble?: string; epilogue?: string }
  | { kind: 'bytes'; bytes: Buffer; contentType: string };

/**
 * A request under construction: a route's valid request, then mutations, then rendered to bytes.
 * Values in `params` and `query` are sent as given (already percent-encoded, or deliberately not).
 */
export interface Draft {
  method: string;
  /** The route's path, `:name` placeholders filled from `params`. */
  path: string;
  params: Record<string, string>;
  /** `null` value: the name alone, without `=`. */
  query: Array<[string, string | null]>;
  authorization: string | null;
  headers: Array<[string, string]>;
  body: DraftBody;
  /** Replaces the body's own Content-Type; null sends none. */
  contentType?: string | null;
  /** Replaces the JSON rendering of `body` with these bytes. */
  bodyText?: Buffer;
  /** Sent as Content-Length instead of the body's length. */
  declaredLength?: string;
  /** Send the headers only. */
  omitBody?: boolean;
  /** Send only the first `fraction` of the body: declared as sent, or declared whole and then the connection half-closed. */
  truncate?: { fraction: number; declareWhole: boolean };
  chunked?: boolean;
  omitHost?: boolean;
  /** Whitespace around a JSON body's text. */
  jsonPadding?: string;
  /** Bytes that are not UTF-8, put inside the first string value of a JSON body no defect set. */
  invalidUtf8?: Buffer;
  /** JSON fields whose values a defect set: nothing applied at rendering may change them. */
  pinnedFields?: string[];
  /** A last change to the request target as rendered (bytes no placeholder can hold). */
  editTarget?: (target: string) => string;
}

/** A change to a draft. A defect makes the request one the service must refuse; an oddity need not. */
export interface Mutation {
  label: string;
  defect: boolean;
  apply(draft: Draft): void;
  /** The statuses a request whose only change is this one must be answered with, when documented. */
  expects?: number[];
  /** The service may refuse it and close the connection without reading the body (HTTP-level errors). */
  closesConnection?: boolean;
}

/** A generated request and the reasons it must be refused (none: it may be answered either way). */
export interface FuzzCase {
  route: string;
  defects: string[];
  oddities: string[];
  request: RawRequest;
  /** The statuses the answer must have, when a single defect that documents them is all that changed. */
  expectedStatuses?: number[];
  /** A client still sending the body may see the connection close instead of the answer. */
  mayCloseUnread: boolean;
}

export const defect = (label: string, apply: (draft: Draft) => void, expects?: number[]): Mutation => ({ label, defect: true, apply, ...(expects ? { expects } : {}) });
export const oddity = (label: string, apply: (draft: Draft) => void): Mutation => ({ label, defect: false, apply });

/**
 * The request `mutations` make of `base`. When a single defect is all that changed, the statuses it
 * documents are expected; with several, the first check that fails decides and any refusal will do.
 */
export function buildCase(route: string, base: Draft, mutations: Mutation[]): FuzzCase {
  // Oddities first: a defect applied after them is never undone by one (an oddity may set a valid value).
  mutations = [...mutations.filter((m) => !m.defect), ...mutations.filter((m) => m.defect)];
  const draft = cloneDraft(base);
  for (const mutation of mutations) mutation.apply(draft);
  const only = mutations.length === 1 ? mutations[0] : undefined;
  const fuzzCase: FuzzCase = {
    route,
    defects: mutations.filter((m) => m.defect).map((m) => m.label),
    oddities: mutations.filter((m) => !m.defect).map((m) => m.label),
    request: render(draft),
    ...(only?.expects ? { expectedStatuses: only.expects } : {}),
    mayCloseUnread: mutations.some((m) => m.closesConnection),
  };
  // fast-check prints counterexamples with this: the request as sent, readable.
  Object.defineProperty(fuzzCase, fc.toStringMethod, { value: () => describeCase(fuzzCase), enumerable: false });
  return fuzzCase;
}

export function describeCase(fuzzCase: FuzzCase): string {
  const { request } = fuzzCase;
  const body = request.body ? request.body.toString('utf8') : '';
  const shown = body.length > 400 ? `${body.slice(0, 400)}… (${request.body?.length} bytes)` : body;
  return [
    `${fuzzCase.route} | defects: ${fuzzCase.defects.join(', ') || 'none'} | oddities: ${fuzzCase.oddities.join(', ') || 'none'}`,
    `  ${JSON.stringify(`${request.method} ${request.target}`)}${request.halfClose ? ' (then half-closed)' : ''}`,
    ...request.headers.map(([name, value]) => `  ${JSON.stringify(`${name}: ${value.length > 200 ? `${value.slice(0, 200)}…` : value}`)}`),
    shown ? `  body: ${JSON.stringify(shown)}` : '  (no body)',
  ].join('\n');
}

function cloneDraft(draft: Draft): Draft {
  const body: DraftBody = draft.body.kind === 'json'
    ? { kind: 'json', fields: draft.body.fields.map(([name, value]) => [name, value]) }
    : draft.body.kind === 'form'
      ? { ...draft.body, parts: draft.body.parts.map((part) => ({ ...part })) }
      : { ...draft.body };
  return {
    ...draft,
    params: { ...draft.params },
    query: draft.query.map(([name, value]) => [name, value]),
    headers: draft.headers.map(([name, value]) => [name, value]),
    body,
    ...(draft.truncate ? { truncate: { ...draft.truncate } } : {}),
  };
}

const CRLF = '\r\n';
/** A cut body loses at least this much: a multipart body cut only in its final CRLF would still be whole. */
const CUT_AT_LEAST = 10;

/** The name of a query parameter as the service reads it (percent-decoded). */
export function decodedName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** Adds a change of the rendered target after those already made. */
export function editTarget(draft: Draft, edit: (target: string) => string): void {
  const earlier = draft.editTarget;
  draft.editTarget = earlier ? (target) => edit(earlier(target)) : edit;
}

/** A JSON object's text from field names and raw JSON values. */
export function jsonText(fields: Array<[string, string]>): string {
  return `{${fields.map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(',')}}`;
}

function renderBody(draft: Draft): { bytes: Buffer; contentType: string } | undefined {
  const { body } = draft;
  if (draft.bodyText) return { bytes: draft.bodyText, contentType: 'application/json' };
  switch (body.kind) {
    case 'none':
      return undefined;
    case 'json': {
      const padding = draft.jsonPadding ?? '';
      const text = `${padding}${jsonText(body.fields)}${padding}`;
      const target = body.fields.find(([name, value]) => value.startsWith('"') && !draft.pinnedFields?.includes(name));
      const at = draft.invalidUtf8 && target ? text.indexOf(`${JSON.stringify(target[0])}:"`) + JSON.stringify(target[0]).length + 2 : -1;
      const bytes = at < 0 || !draft.invalidUtf8
        ? Buffer.from(text)
        : Buffer.concat([Buffer.from(text.slice(0, at)), draft.invalidUtf8, Buffer.from(text.slice(at))]);
      return { bytes, contentType: 'application/json' };
    }
    case 'bytes':
      return { bytes: body.bytes, contentType: body.contentType };
    case 'form': {
      const parts = body.parts.map((part) => {
        const headers = part.headers ?? [
          `Content-Disposition: form-data; name="${part.name}"${part.fileName === undefined ? '' : `; filename="${part.fileName}"`}`,
          ...(part.contentType ? [`Content-Type: ${part.contentType}`] : []),
        ].join(CRLF);
        return `--${body.boundary}${CRLF}${headers}${CRLF}${CRLF}${part.value}${CRLF}`;
      });
      const text = `${body.preamble ?? ''}${parts.join('')}${body.closed ? `--${body.boundary}--${CRLF}${body.epilogue ?? ''}` : ''}`;
      return { bytes: Buffer.from(text, 'utf8'), contentType: `multipart/form-data; boundary=${body.boundary}` };
    }
  }
}

function render(draft: Draft): RawRequest {
  const path = draft.path.replace(/:(\w+)(\([^)]*\))?/g, (_, name: string) => draft.params[name] ?? '');
  const query = draft.query.map(([name, value]) => (value === null ? name : `${name}=${value}`)).join('&');
  const written = query ? `${path}?${query}` : path;
  const target = draft.editTarget ? draft.editTarget(written) : written;
  // Kept alive: a server that answers before reading a whole body then reads the rest instead of
  // resetting the connection under it, as it would after an answer with Connection: close.
  const headers: Array<[string, string]> = draft.omitHost ? [] : [['Host', 'localhost']];
  if (draft.authorization !== null) headers.push(['Authorization', draft.authorization]);

  const rendered = renderBody(draft);
  let bytes = rendered?.bytes;
  let halfClose = false;
  let declared = bytes ? String(bytes.length) : undefined;
  if (bytes && draft.truncate) {
    const cut = Math.max(1, Math.min(Math.floor(bytes.length * draft.truncate.fraction), bytes.length - CUT_AT_LEAST));
    halfClose = draft.truncate.declareWhole;
    bytes = bytes.subarray(0, cut);
    if (!draft.truncate.declareWhole) declared = String(cut);
  }
  const contentType = draft.contentType === undefined ? rendered?.contentType : draft.contentType;
  if (contentType !== null && contentType !== undefined) headers.push(['Content-Type', contentType]);
  if (draft.omitBody) bytes = undefined;
  if (draft.declaredLength !== undefined) declared = draft.declaredLength;
  if (draft.chunked && bytes) {
    headers.push(['Transfer-Encoding', 'chunked']);
    bytes = chunk(bytes, halfClose);
  } else if (declared !== undefined) {
    headers.push(['Content-Length', declared]);
  }
  headers.push(...draft.headers);
  return { method: draft.method, target, headers, ...(bytes ? { body: bytes } : {}), ...(halfClose ? { halfClose } : {}) };
}

/** The body in two chunks; a request cut short sends no last chunk. */
function chunk(bytes: Buffer, cutShort: boolean): Buffer {
  const middle = Math.floor(bytes.length / 2);
  const pieces = [bytes.subarray(0, middle), bytes.subarray(middle)].filter((piece) => piece.length > 0);
  const framed = pieces.map((piece) => Buffer.concat([Buffer.from(`${piece.length.toString(16)}${CRLF}`), piece, Buffer.from(CRLF)]));
  return Buffer.concat(cutShort ? framed : [...framed, Buffer.from(`0${CRLF}${CRLF}`)]);
}
