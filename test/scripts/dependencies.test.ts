/**
 * Node engines and dependency versions agree (issue 14, item 2): every package the lockfile installs
 * runs on the oldest Node the project's `engines` admits and on this one, openapi-backend's schema
 * dereferencer stays on a release for Node 20 (16 needs 22.19), and xml2js, never imported, is gone.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { ROOT } from '../server/processes.js';

interface Lock {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; dev?: boolean; optional?: boolean }>;
}

describe('engines and dependency versions', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; dependencies: Record<string, string>; devDependencies: Record<string, string> };
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as Lock;

  it('admits this Node', () => {
    expect(semver.satisfies(process.version, pkg.engines.node), `${process.version} against ${pkg.engines.node}`).to.equal(true);
  });

  it('installs no package whose engines refuse the oldest Node the project admits, or this one', () => {
    const oldest = semver.minVersion(pkg.engines.node)?.version as string;
    const refused = Object.entries(lock.packages)
      .filter(([path, meta]) => path !== '' && meta.engines && !Array.isArray(meta.engines) && meta.engines.node)
      .filter(([, meta]) => {
        const range = (meta.engines as { node: string }).node;
        return !semver.satisfies(oldest, range) || !semver.satisfies(process.version, range);
      })
      .map(([path, meta]) => `${path}@${meta.version} needs node ${(meta.engines as { node: string }).node}`);
    expect(refused).to.deep.equal([]);
  });

  it("keeps openapi-backend's json-schema-ref-parser on a release for Node 20 and declares no xml2js", () => {
    const parser = lock.packages['node_modules/openapi-backend/node_modules/@apidevtools/json-schema-ref-parser'];
    expect(semver.major(parser.version as string)).to.equal(15);
    expect({ ...pkg.dependencies, ...pkg.devDependencies }).to.not.have.property('xml2js');
  });
});
