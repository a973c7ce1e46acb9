import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

/*
 * Adds `.openapi()` to zod's prototypes, before any schema is built: a rule the generator cannot read
 * from a refinement (a length in code points, a pattern checked after trimming) is stated there by the
 * helper that adds the refinement, so the check and its description come from one place.
 */
extendZodWithOpenApi(z);

/**
 * What `.openapi()` said of a schema itself. The generator reads only the outermost statement of a
 * chain of refinements, so a refinement around one that states a rule says it again with its own.
 */
export const statedOf = (schema: z.ZodTypeAny): Record<string, unknown> =>
  (schema._def as { openapi?: { metadata?: Record<string, unknown> } }).openapi?.metadata ?? {};

/** A JSON Schema condition: these fields are given (each also under `properties`, which linters ask of a `required` name). */
export const fieldsGiven = (...names: string[]) => ({ properties: Object.fromEntries(names.map((name) => [name, {}])), required: names });
