import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

/*
 * Adds `.openapi()` to zod's prototypes, before any schema is built: a rule the generator cannot read
 * from a refinement (a length in code points, a pattern checked after trimming) is stated there by the
 * helper that adds the refinement, so the check and its description come from one place.
 */
extendZodWithOpenApi(z);
