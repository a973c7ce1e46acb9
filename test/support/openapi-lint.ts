import SwaggerParser from '@apidevtools/swagger-parser';
import { BaseResolver, createConfig, lintFromString } from '@redocly/openapi-core';

/*
 * Lints an OpenAPI 3.1 document with Redocly's linter (@redocly/openapi-core) and its `recommended`
 * rule set, and with the rules of that set written out below (`recommendedRules`, which also runs
 * the OpenAPI 3.1 schema through swagger-parser): both must find nothing.
 */

export interface LintFinding {
  rule: string;
  severity: 'error' | 'warning';
  where: string;
  message: string;
}

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** What the linters find in `document`: nothing for a document that passes. */
export async function lintApiDescription(document: unknown): Promise<LintFinding[]> {
  return [...(await redoclyRecommended(document)), ...(await recommendedRules(document))];
}

/** Redocly's recommended rules; every problem, error or warning, is a finding. */
async function redoclyRecommended(document: unknown): Promise<LintFinding[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config, externalRefResolver: new BaseResolver() });
  return problems.map((problem) => ({
    rule: `redocly/${problem.ruleId}`,
    severity: problem.severity === 'error' ? 'error' : 'warning',
    where: problem.location[0]?.pointer ?? '#',
    message: problem.message,
  }));
}

async function recommendedRules(document: unknown): Promise<LintFinding[]> {
  const findings: LintFinding[] = [];
  try {
    await SwaggerParser.validate(structuredClone(document) as never);
  } catch (error) {
    findings.push({ rule: 'struct', severity: 'error', where: '#', message: (error as Error).message });
    return findings;
  }
  const api = document as Json;
  const add = (rule: string, severity: LintFinding['severity'], where: string, message: string) => findings.push({ rule, severity, where, message });

  if (!api.info?.license?.name) add('info-license', 'warning', '#/info', 'no license');
  else if (!api.info.license.url && !api.info.license.identifier) add('info-license-strict', 'warning', '#/info/license', 'neither url nor identifier');
  for (const server of api.servers ?? []) {
    if (/\/$/.test(server.url)) add('no-server-trailing-slash', 'error', '#/servers', `${server.url} ends with /`);
    if (/example\.com/.test(server.url)) add('no-server-example.com', 'warning', '#/servers', server.url);
  }

  const schemes = new Set(Object.keys(api.components?.securitySchemes ?? {}));
  const operationIds = new Map<string, string>();
  for (const [path, item] of Object.entries<Json>(api.paths ?? {})) {
    if (path !== '/' && path.endsWith('/')) add('no-path-trailing-slash', 'error', path, 'ends with /');
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    for (const method of METHODS.filter((m) => item[m])) {
      const operation = item[method] as Json;
      const where = `${method} ${path}`;
      if (!operation.operationId) add('operation-operationId', 'warning', where, 'no operationId');
      else {
        if (!/^[A-Za-z0-9_.~-]+$/.test(operation.operationId)) add('operation-operationId-url-safe', 'error', where, operation.operationId);
        const other = operationIds.get(operation.operationId);
        if (other) add('operation-operationId-unique', 'error', where, `${operation.operationId} is also ${other}'s`);
        operationIds.set(operation.operationId, where);
      }
      if (!operation.summary) add('operation-summary', 'error', where, 'no summary');
      const statuses = Object.keys(operation.responses ?? {});
      if (!statuses.some((status) => /^[23]/.test(status))) add('operation-2xx-response', 'warning', where, 'no 2xx or 3xx response');
      if (!statuses.some((status) => /^4/.test(status))) add('operation-4xx-response', 'warning', where, 'no 4xx response');
      for (const requirement of operation.security ?? api.security ?? []) {
        for (const name of Object.keys(requirement)) if (!schemes.has(name)) add('security-defined', 'error', where, `${name} is not a security scheme`);
      }
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])] as Json[];
      const keys = parameters.map((parameter) => `${parameter.in}:${parameter.name}`);
      if (new Set(keys).size !== keys.length) add('operation-parameters-unique', 'error', where, 'a parameter is repeated');
      const inPath = parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name);
      for (const name of templated) if (!inPath.includes(name)) add('path-parameters-defined', 'error', where, `{${name}} is not described`);
      for (const name of inPath) if (!templated.includes(name)) add('path-parameters-defined', 'error', where, `${name} is not in the path`);
    }
  }

  // Every component is referred to from somewhere else in the document.
  const text = JSON.stringify({ ...api, components: undefined });
  const componentText = (name: string, kind: string) => JSON.stringify(Object.entries(api.components[kind]).filter(([other]) => other !== name));
  for (const kind of ['schemas', 'responses', 'parameters', 'examples', 'requestBodies', 'headers', 'links', 'callbacks', 'pathItems']) {
    for (const name of Object.keys(api.components?.[kind] ?? {})) {
      const ref = `"#/components/${kind}/${name}"`;
      if (!text.includes(ref) && !componentText(name, kind).includes(ref)) add('no-unused-components', 'warning', `#/components/${kind}/${name}`, 'never referred to');
    }
  }

  enumTypeMismatches(api, '#', add);
  return findings;
}

/** no-enum-type-mismatch: every enum value has the schema's type. */
function enumTypeMismatches(node: unknown, where: string, add: (rule: string, severity: LintFinding['severity'], where: string, message: string) => void): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => enumTypeMismatches(item, `${where}/${index}`, add));
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Json;
  if (Array.isArray(schema.enum) && schema.type !== undefined) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    for (const value of schema.enum) {
      const type = value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value;
      if (!types.includes(type) && !(type === 'integer' && types.includes('number'))) add('no-enum-type-mismatch', 'error', where, `${JSON.stringify(value)} is not ${types.join(' or ')}`);
    }
  }
  for (const [key, value] of Object.entries(schema)) enumTypeMismatches(value, `${where}/${key}`, add);
}
