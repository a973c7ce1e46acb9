import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The indented command lines of the README's "Two commands" section, in order. */
function twoCommands(): string[] {
  const section = read('README.md').split(/^## Two commands$/m)[1]?.split(/^## /m)[0] ?? '';
  return [...section.matchAll(/^ {4}(\S.*)$/gm)].map((match) => match[1]);
}

/** The README's two commands are what CI runs and what npm runs. */
describe("the README's two commands", () => {
  it('are running the service and running the tests', () => {
    expect(twoCommands()).to.deep.equal(['npm install && npm start', 'npm install && npm test']);
  });

  it('CI (.ci/run) runs the test command verbatim, and stops on its failure', () => {
    const ci = read('.ci/run');
    const testCommand = twoCommands()[1];
    expect(ci).to.match(/^set -euo pipefail$/m);
    expect(ci.split('\n').find((line) => line.startsWith(testCommand))).to.equal(`${testCommand} || exit $?`);
  });

  it("npm start and npm test run the scripts the README describes, and npm test's default spec is every test file", () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(scripts.start).to.equal('bash scripts/start.sh');
    expect(scripts.test).to.equal('bash scripts/test.sh');
    expect(scripts['docs:api']).to.equal('node dist/bin/docs-api.js');
    const testScript = read('scripts/test.sh');
    expect(testScript).to.include("set -- 'dist/test/**/*.test.js'");
    expect(testScript).to.match(/^bash scripts\/build\.sh$/m);
    expect(read('scripts/start.sh')).to.match(/^exec node dist\/bin\/standalone\.js$/m);
  });
});
