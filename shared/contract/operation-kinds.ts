import { type AnyZodObject, z, type ZodTypeAny } from 'zod';

/*
 * What an operation's body and answer may be besides JSON in the envelope: a body the gateway's
 * handler streams (a multipart form, raw bytes), an answer it writes itself (bytes, a document).
 */

/**
 * A request body the handler reads as a stream, never parsed ahead: a multipart form (its text
 * fields described by `fields`) or raw bytes. Declared so that the table describes every body.
 */
export interface StreamedBody {
  kind: 'multipart' | 'bytes';
  /** A form's text fields. */
  fields?: AnyZodObject;
  /** The name of a form's file field. */
  fileField?: string;
  /** Raw bytes: the media types the route takes (any, described as application/octet-stream, when left out). */
  mediaTypes?: readonly string[];
}

/** Whether a route's body is streamed by its handler rather than parsed ahead. */
export function isStreamedBody(body: ZodTypeAny | StreamedBody | undefined): body is StreamedBody {
  return body !== undefined && !(body instanceof z.ZodType);
}

export const multipartForm = (fields: AnyZodObject, fileField: string): StreamedBody => ({ kind: 'multipart', fields, fileField });
export const rawBytes: StreamedBody = { kind: 'bytes' };
/** Raw bytes of one of `mediaTypes` (the handler checks the Content-Type). */
export const rawBytesOf = (mediaTypes: readonly string[]): StreamedBody => ({ kind: 'bytes', mediaTypes });

/** A response that is not JSON in the envelope: the handler writes the status, headers and bytes (of any type) itself. */
export type BytesResponse = 'bytes';

/** A response outside the envelope of one media type (the API description, metrics): the handler writes it itself. */
export interface DocumentResponse {
  mediaType: string;
  description: string;
}

export const documentResponse = (mediaType: string, description: string): DocumentResponse => ({ mediaType, description });

/** What a route answers: the schema of `data` in the success envelope, or a response the handler writes itself. */
export type ResponseDeclaration = ZodTypeAny | BytesResponse | DocumentResponse;

