import fs from 'node:fs';
import path from 'node:path';
import { apiReferenceMarkdown } from '../gateway/pipeline/api-reference';
import { referenceApiDescription } from '../gateway/reference-routes';

/** Where the reference is committed (this file runs from dist/bin/). */
export const API_REFERENCE_FILE = path.resolve(__dirname, '..', '..', 'docs', 'api.md');

/**
 * `npm run docs:api`: writes docs/api.md, the API reference generated from the API description of the
 * reference configuration (gateway/reference-routes.ts). test/unit/api-reference.test.ts fails when
 * the committed file is not what this writes.
 */
if (require.main === module) {
  fs.writeFileSync(API_REFERENCE_FILE, apiReferenceMarkdown(referenceApiDescription()));
  process.stdout.write(`wrote ${path.relative(process.cwd(), API_REFERENCE_FILE)}\n`);
}
