import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ERROR_CODES } from '../../shared/errors';

/** A response as the test client received it. */
export interface ReceivedResponse {
  method: string;
  /** The request's path, as sent (not decoded). */
  path: string;
  status: number;
  contentType: string | null;
  /** The parsed JSON body; undefined when it was not JSON or empty. */
  body: unknown;
  /** Whether any body bytes arrived. */
  hasBody: boolean;
  /** The names of the response's headers, in lower case. */
  headerNames: readonly string[];
}

/* The parts of an OpenAPI 3.1 document read here, after dereferencing. */
type JsonSchema = Record<string, unknown>;
interface MediaTypeObject { schema?: JsonSchema }
interface ResponseObject { content?: Record<string, MediaTypeObject>; headers?: Record<string, { required?: boolean }> }
interface OperationObject { responses: Record<string, ResponseObject> }
type Document = { paths: Record<string, Record<string, OperationObject>>; components: { schemas: Record<string, JsonSchema> } };

interface PathTemplate {
  template: string;
  /** Each parameter one segment. */
  exact: RegExp;
  /** A parameter may span segments, as `:key(.+)` does. */
  spanning: RegExp;
  operations: Record<string, OperationObject>;
}

/**
 * Checks responses against the API description the service serves (GET /v1/openapi.json): the
 * operation is found by method and path as the router finds it (case-insensitive, an optional
 * trailing slash), the status must be declared (or fall to `default`), the headers it declares
 * required must be present, the media type must be one the response declares, and a JSON body must
 * validate against its schema (JSON Schema 2020-12, as OpenAPI 3.1 says). A request no operation takes must be answered in the error envelope. HEAD is
 * checked as its GET without a body; OPTIONS is HTTP's own answer (Allow) and not checked.
 */
export class ApiResponseCheck {
  private readonly ajv = addFormats(new Ajv2020({ allErrors: true, strict: true }));
  private readonly compiled = new Map<JsonSchema, ValidateFunction>();

  private constructor(private readonly templates: PathTemplate[], private readonly errorEnvelope: JsonSchema) {}

  static async of(document: unknown): Promise<ApiResponseCheck> {
    const api = (await SwaggerParser.dereference(structuredClone(document) as never)) as unknown as Document;
    const templates = Object.entries(api.paths).map(([template, operations]) => ({
      template,
      exact: pathPattern(template, '[^/]+'),
      spanning: pathPattern(template, '.+'),
      operations,
    }));
    // Literal segments before parameters: /upload/large-url is not /uploads/{uploadId}.
    templates.sort((a, b) => parameterCount(a.template) - parameterCount(b.template));
    return new ApiResponseCheck(templates, anyCodeEnvelope(api.components.schemas.ErrorOfAnyRoute));
  }

  /** What is wrong with `response`; empty when it matches the description. */
  problems(response: ReceivedResponse): string[] {
    const method = response.method.toLowerCase();
    if (method === 'options') return [];
    const operation = this.operationOf(method === 'head' ? 'get' : method, response.path);
    if (!operation) {
      if (response.status < 400) return [`${response.status} for a request no operation describes`];
      return this.validate(this.errorEnvelope, response, 'the error envelope');
    }
    const listed = operation.responses[String(response.status)];
    const declared = listed ?? operation.responses.default;
    if (!declared) return [`status ${response.status} is not declared`];
    const missing = Object.entries(declared.headers ?? {})
      .filter(([name, header]) => header.required && !response.headerNames.includes(name.toLowerCase()))
      .map(([name]) => `no ${name} header, which ${response.status} requires`);
    if (missing.length > 0) return missing;
    const content = declared.content ?? {};
    if (Object.keys(content).length === 0) return response.hasBody ? ['a body where none is declared'] : [];
    if (!response.contentType) return response.hasBody || method !== 'head' ? ['no Content-Type where content is declared'] : [];
    const mediaType = mediaTypeOf(content, response.contentType);
    if (!mediaType) return [`Content-Type ${response.contentType} is not one of ${Object.keys(content).join(', ')}`];
    if (method === 'head' || !isJson(response.contentType) || !mediaType.schema) return [];
    return this.validate(mediaType.schema, response, listed ? `the schema of ${response.status}` : `status ${response.status} is not declared, and the schema of default`);
  }

  private operationOf(method: string, path: string): OperationObject | undefined {
    for (const pattern of ['exact', 'spanning'] as const) {
      const found = this.templates.find((template) => template[pattern].test(path));
      if (found) return found.operations[method];
    }
    return undefined;
  }

  private validate(schema: JsonSchema, response: ReceivedResponse, what: string): string[] {
    if (response.body === undefined) return [`no JSON body to check against ${what}`];
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.compiled.set(schema, validate);
    }
    if (validate(response.body)) return [];
    return (validate.errors ?? []).map((error) => `${what}: ${error.instancePath || '(body)'} ${error.message}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`);
  }
}

/**
 * The envelope a request no operation takes is answered in (404, 405, ...), which no operation can
 * describe: the envelope of any route's failures, with every error code.
 */
function anyCodeEnvelope(anyRoute: JsonSchema): JsonSchema {
  const envelope = structuredClone(anyRoute) as { properties: { error: { properties: { code: { enum: string[] } } } } };
  envelope.properties.error.properties.code.enum = Object.keys(ERROR_CODES);
  return envelope as unknown as JsonSchema;
}

function pathPattern(template: string, parameter: string): RegExp {
  const source = template.split(/\{\w+\}/).map(escapeRegExp).join(parameter);
  return new RegExp(`^${source}/?$`, 'i');
}

const parameterCount = (template: string): number => template.split('{').length - 1;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The declared media type a Content-Type falls under: itself, its `type/*`, or `* /*`. */
function mediaTypeOf(content: Record<string, MediaTypeObject>, contentType: string): MediaTypeObject | undefined {
  const essence = contentType.split(';')[0].trim().toLowerCase();
  return content[essence] ?? content[`${essence.split('/')[0]}/*`] ?? content['*/*'];
}

const isJson = (contentType: string): boolean => /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType);
