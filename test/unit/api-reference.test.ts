import { expect } from 'chai';
import fs from 'node:fs';
import { API_REFERENCE_FILE } from '../../bin/docs-api';
import { apiReferenceMarkdown } from '../../gateway/pipeline/api-reference';
import { referenceApiDescription } from '../../gateway/reference-routes';

/** docs/api.md, the API reference generated from the API description by `npm run docs:api`. */
describe('the committed API reference (docs/api.md)', () => {
  const document = referenceApiDescription();
  const generated = apiReferenceMarkdown(document);

  it('is what `npm run docs:api` writes from the route table as it is now', () => {
    const committed = fs.readFileSync(API_REFERENCE_FILE, 'utf8');
    // Not deep-equal on the whole text: the first differing line says what changed.
    const [committedLines, generatedLines] = [committed.split('\n'), generated.split('\n')];
    const first = generatedLines.findIndex((line, index) => line !== committedLines[index]);
    expect(first === -1 ? undefined : { line: first + 1, committed: committedLines[first], generated: generatedLines[first] },
      'docs/api.md is not current: run `npm run build && npm run docs:api` and commit it').to.equal(undefined);
    expect(committedLines.length).to.equal(generatedLines.length);
  });

  it('names every operation of the description, under its method and path, with its summary and description', () => {
    const paths = (document as unknown as { paths: Record<string, Record<string, { operationId: string; summary: string; description?: string }>> }).paths;
    const operations = Object.entries(paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ method, path, operation })));
    expect(operations.length).to.be.greaterThan(100);
    for (const { method, path, operation } of operations) {
      expect(generated).to.include(`\n### ${method.toUpperCase()} ${path}\n\n\`${operation.operationId}\`: ${operation.summary}`);
      if (operation.description) expect(generated).to.include(operation.description.trim());
    }
  });

  it('describes the fields of request bodies with the descriptions their schemas carry', () => {
    const section = generated.split('\n### POST /v1/management/applications\n')[1]?.split('\n### ')[0] ?? '';
    expect(section).to.match(/^\| `applicationId`, required \| string \| .*matches/m);
    expect(section).to.include('Request body (`application/json`):');
  });
});
