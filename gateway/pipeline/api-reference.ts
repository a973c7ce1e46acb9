import { headingSlug as slug } from '../../shared/markdown';
import type { ApiDescription } from './api-description';

/*
 * The API reference for people: the API description (OpenAPI 3.1, generated from the route table)
 * written out as Markdown. docs/api.md is this text for the reference configuration (`npm run
 * docs:api`), and GET /docs/api serves it as a page for the configuration that runs. Everything in it
 * comes from the document, so from the routes' declarations and their schemas' descriptions: a fact
 * missing here belongs on a schema (`.describe()`, `.openapi({description})`) or on the route
 * (`summary`, `description`).
 */

type Schema = Record<string, any>;
interface Parameter { name: string; in: string; required?: boolean; description?: string; schema?: Schema }
interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; headers?: Record<string, { description?: string }>; content?: Record<string, { schema: Schema }> }>;
}

const OUTSIDE_V1 = 'Outside /v1';
/** Patterns longer than this are named rather than quoted in the reference. */
const LONGEST_QUOTED_PATTERN = 80;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/** The Markdown reference of `document`: how to call the API, then every operation grouped by path, then the shared schemas. */
export function apiReferenceMarkdown(document: ApiDescription): string {
  const doc = document as unknown as { info: { title: string; description?: string }; paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema>; securitySchemes?: Record<string, Schema> } };
  const out: string[] = [
    `# ${doc.info.title}: API reference`,
    '',
    'Generated from the API description (`GET /v1/openapi.json`, OpenAPI 3.1) by `npm run docs:api`: do not edit it by hand.',
    'The same reference is served as a page at `/docs/api` by a running service.',
    '',
    doc.info.description ?? '',
    '',
    '## Authentication',
    '',
  ];
  for (const [name, scheme] of Object.entries(doc.components?.securitySchemes ?? {})) {
    out.push(`- **${name}** (${scheme.scheme ?? scheme.type}${scheme.bearerFormat ? `, \`${scheme.bearerFormat}\`` : ''}): ${oneLine(scheme.description ?? '')}`);
  }
  const groups = new Map<string, Array<{ method: string; path: string; operation: Operation }>>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const group = groupOf(path);
      groups.set(group, [...(groups.get(group) ?? []), { method, path, operation }]);
    }
  }
  const ordered = [...groups.keys()].sort((a, b) => Number(a === OUTSIDE_V1) - Number(b === OUTSIDE_V1) || a.localeCompare(b));
  out.push('', '## Operations', '');
  for (const group of ordered) out.push(`- [${group}](#${slug(group)})`);
  for (const group of ordered) {
    const operations = groups.get(group) ?? [];
    out.push('', `## ${group}`);
    for (const { method, path, operation } of operations) out.push('', ...describeOperation(method, path, operation));
  }
  const schemas = Object.entries(doc.components?.schemas ?? {});
  if (schemas.length > 0) {
    out.push('', '## Schemas');
    for (const [name, schema] of schemas) {
      out.push('', `### ${name}`, '');
      if (schema.description) out.push(oneLine(schema.description), '');
      out.push(...schemaBlock(schema));
    }
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trim()}\n`;
}

/** The group of a path: `/v1/management/applications/{id}` is `/v1/management/applications`. */
function groupOf(path: string): string {
  const segments = path.split('/').filter(Boolean);
  if (segments[0] !== 'v1') return OUTSIDE_V1;
  const kept = segments[1] === 'management' ? 3 : 2;
  return `/${segments.slice(0, kept).filter((segment) => !segment.startsWith('{')).join('/')}`;
}

function describeOperation(method: string, path: string, operation: Operation): string[] {
  const lines = [`### ${method.toUpperCase()} ${path}`, '', `\`${operation.operationId}\`: ${oneLine(operation.summary ?? '')}`, ''];
  if (operation.description) lines.push(operation.description.trim(), '');
  lines.push(`Authorization: ${security(operation.security ?? [])}.`);
  const parameters = operation.parameters ?? [];
  if (parameters.length > 0) {
    lines.push('', '| Parameter | Type | Description |', '|---|---|---|');
    for (const parameter of parameters) {
      const schema = parameter.schema ?? {};
      lines.push(row([`\`${parameter.name}\` ${parameter.in}${parameter.required ? ', required' : ''}`, typeOf(schema), [parameter.description ?? schema.description, constraints(schema)].filter(Boolean).join(' ')]));
    }
  }
  if (operation.requestBody) {
    for (const [mediaType, { schema }] of Object.entries(operation.requestBody.content)) {
      lines.push('', `Request body (\`${mediaType}\`${operation.requestBody.required ? '' : ', optional'}):`, '', ...schemaBlock(schema));
    }
  }
  lines.push('', '| Status | Answer |', '|---|---|');
  for (const [status, response] of Object.entries(operation.responses)) {
    const content = Object.entries(response.content ?? {});
    const body = content.map(([mediaType, { schema }]) => `${mediaType === 'application/json' ? '' : `\`${mediaType}\` `}${answerType(schema)}`).join('; ');
    lines.push(row([status, [response.description, body].filter(Boolean).join(': ')]));
  }
  return lines;
}

/** Who may call: each alternative of the security requirement. */
function security(requirements: Array<Record<string, string[]>>): string {
  if (requirements.length === 0) return 'none';
  return requirements.map((requirement) => Object.entries(requirement)
    .map(([scheme, scopes]) => `${scheme}${scopes.length > 0 ? ` with scope \`${scopes.join('`, `')}\`` : ''}`).join(' and ')).join(', or ');
}

/** What a success or failure answer carries: the envelope's `data`, or the failure's schema. */
function answerType(schema: Schema): string {
  const data = schema.properties?.data;
  if (schema.properties?.success && data) return `\`data\` ${typeOf(data)}`;
  return typeOf(schema);
}

/** An object schema as a table of its fields; anything else as its type. */
function schemaBlock(schema: Schema): string[] {
  if (schema.type === 'object' && schema.properties) {
    const required = new Set<string>(schema.required ?? []);
    const lines = ['| Field | Type | Description |', '|---|---|---|'];
    for (const [name, field] of Object.entries<Schema>(schema.properties)) {
      lines.push(row([`\`${name}\`${required.has(name) ? ', required' : ''}`, typeOf(field), [field.description, constraints(field)].filter(Boolean).join(' ')]));
    }
    return lines;
  }
  return [`${typeOf(schema)}${schema.description ? `: ${oneLine(schema.description)}` : ''}`];
}

/** A schema's type in a few words, a named schema as a link to its section. */
export function typeOf(schema: Schema): string {
  if (schema.$ref) {
    const name = String(schema.$ref).split('/').pop() as string;
    return `[${name}](#${slug(name)})`;
  }
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((value: unknown) => `\`${JSON.stringify(value)}\``).join(', ')}`;
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) return schema[key].map(typeOf).join(' or ');
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map(typeOf).join(' and ');
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return 'any';
  return types.map((type) => {
    if (type === 'array') return `array of ${schema.items ? typeOf(schema.items) : 'any'}`;
    if (type === 'object') return schema.properties ? `object {${Object.keys(schema.properties).map((name) => `\`${name}\``).join(', ')}}` : 'object';
    if (type === 'string' && schema.format) return `string (${schema.format})`;
    return type;
  }).join(' or ');
}

/** A field's limits, as words. */
function constraints(schema: Schema): string {
  const said: string[] = [];
  if (schema.minLength !== undefined || schema.maxLength !== undefined) said.push(`${schema.minLength ?? 0} to ${schema.maxLength ?? 'any number of'} characters`);
  if (schema.minimum !== undefined || schema.maximum !== undefined) said.push(`from ${schema.minimum ?? '-∞'} to ${schema.maximum ?? '∞'}`);
  if (schema.minItems !== undefined || schema.maxItems !== undefined) said.push(`${schema.minItems ?? 0} to ${schema.maxItems ?? 'any number of'} items`);
  // A long pattern (the text rules' character classes) is the API description's to spell: named, not quoted.
  if (schema.pattern) said.push(String(schema.pattern).length <= LONGEST_QUOTED_PATTERN ? `matches \`${schema.pattern}\`` : 'matches a pattern (in the API description)');
  if (schema.default !== undefined) said.push(`default \`${JSON.stringify(schema.default)}\``);
  return said.length > 0 ? `(${said.join('; ')})` : '';
}

/** One table row; cells lose their line breaks and escape the column separator. */
function row(cells: string[]): string {
  return `| ${cells.map((cell) => oneLine(cell).replace(/\|/g, '\\|')).join(' | ')} |`;
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();
