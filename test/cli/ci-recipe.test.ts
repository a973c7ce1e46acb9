import { expect } from 'chai';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { electronBuilderOutput } from '../support/build-outputs';
import { ranToEnd } from '../support/cli-process';
import { createAdminKey, createApplication } from '../support/factories';
import { DIST_DIR } from '../support/node-process';
import { startTestApp, TestApp } from '../support/test-app';

const RECIPE = path.resolve(DIST_DIR, '..', 'docs', 'ci-publish.md');
const CLI = path.join(DIST_DIR, 'cli', 'main.js');

/** The `bds` lines of a recipe's YAML block: GitHub's `run:` lines and GitLab's `script:` items. */
function bdsSteps(recipe: string, heading: string): string[] {
  const section = recipe.slice(recipe.indexOf(`## ${heading}`));
  const yaml = /```yaml\n([\s\S]*?)```/.exec(section)![1];
  return yaml.split('\n').map((line) => line.trim().replace(/^- /, '')).filter((line) => line.startsWith('npx bds '));
}

describe('the CI recipe (docs/ci-publish.md)', function () {
  this.timeout(120_000);
  let app: TestApp;

  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    await app?.close();
  });

  for (const heading of ['GitHub Actions', 'GitLab CI']) {
    it(`${heading}: the publish steps, as written, ship dist/ with a publish-scoped key limited to the application`, async () => {
      const recipe = fs.readFileSync(RECIPE, 'utf8');
      const steps = bdsSteps(recipe, heading);
      expect(steps.length, 'the recipe publishes with bds').to.be.at.least(1);
      const applicationId = /npx bds publish (\S+)/.exec(steps[0])![1];
      const existing = await app.http.get(`/v1/management/applications/${applicationId}`);
      if (existing.status === 404) await createApplication(app, { applicationId, defaultVersionStatus: 'draft' });
      const version = heading === 'GitHub Actions' ? '1.0.0' : '1.1.0';
      const key = await createAdminKey(app, { scopes: ['publish', 'read'], applicationIds: [applicationId], name: `CI for ${applicationId}` });
      const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-ci-recipe-'));
      try {
        await electronBuilderOutput(version, { directory: path.join(workspace, 'dist') });
        const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: workspace, XDG_STATE_HOME: path.join(workspace, 'state'), BDS_URL: app.baseUrl, BDS_API_KEY: key.apiKey };
        for (const step of steps) {
          // `npx bds` is this checkout's CLI: the built binary, with the arguments as written.
          const line = step.replace(/^npx bds /, `node ${CLI} `);
          const run = await ranToEnd(spawn('bash', ['-c', line], { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] }));
          expect(run.code, `${step}\n${run.stdout}\n${run.stderr}`).to.equal(0);
        }
        const versions = (await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions as { version: string; status: string; channel: string; files: unknown[] }[];
        expect(versions.find((candidate) => candidate.version === version)).to.include({ status: 'published', channel: 'stable' });
        // The key is limited to the application: another one is refused.
        const other = await createApplication(app);
        const refused = await ranToEnd(spawn('bash', ['-c', `node ${CLI} publish ${other.applicationId} dist --dry-run`], { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] }));
        expect(refused.code).to.equal(1);
      } finally {
        fs.rmSync(workspace, { recursive: true, force: true });
      }
    });
  }
});
