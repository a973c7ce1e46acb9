import type { AnyZodObject, ZodTypeAny } from 'zod';
import { endpoints, type OperationId } from '../../shared/contract/endpoints';
import type { StreamedBody } from '../../shared/contract/operation-kinds';
import { operationSchemas, resolveChosen, type ContractChoices, type OperationSchemaTable, type Resolved } from '../../shared/contract/operations';
import type { Guard } from './context';
import { route, type Obligations, type Route, type RouteDefinition } from './route';

/** What the operations table declares of a route: the rest (guard, scope, audit, handler...) the module adds. */
type Declared = 'method' | 'path' | 'operationId' | 'params' | 'query' | 'body' | 'response';

type Part<K extends OperationId, F extends string> = OperationSchemaTable[K] extends Record<F, infer S> ? Resolved<S> : undefined;

/** The configured vocabularies the contract's request schemas are built from. */
export const contractChoices = (config: { tiers: readonly string[]; channels: readonly string[]; webhooks: { allowedHosts: readonly string[] } }): ContractChoices => ({
  tiers: config.tiers,
  channels: config.channels,
  webhookHosts: config.webhooks.allowedHosts,
});

/**
 * A route of the operations table (shared/contract/operations.ts): its method, path, operationId and
 * schemas come from the table; the declaration adds who may call it, its audit entry and its handler,
 * whose input and result are typed by the table's schemas.
 */
export function operationRoute<K extends OperationId, G extends Guard>(
  config: Parameters<typeof contractChoices>[0],
  id: K,
  declaration: Omit<
    RouteDefinition<G, Part<K, 'params'>, Part<K, 'query'>, Part<K, 'body'>, OperationSchemaTable[K]['response']>,
    Declared
  > & Obligations<(typeof endpoints)[K]['method'], G>,
): Route {
  const choices = contractChoices(config);
  const schemas = operationSchemas[id] as { params?: unknown; query?: unknown; body?: unknown; response: unknown };
  const { method, path } = endpoints[id];
  const chosen = <S>(schema: unknown): S | undefined => (schema === undefined ? undefined : resolveChosen(schema as S, choices));
  return route({
    ...(declaration as object),
    method,
    path,
    operationId: id,
    params: chosen<AnyZodObject>(schemas.params),
    query: chosen<ZodTypeAny>(schemas.query),
    body: chosen<ZodTypeAny | StreamedBody>(schemas.body),
    response: schemas.response,
  } as never);
}
