import { expect } from 'chai';
import { errorTable, listOperations, llmsFullText, llmsText, loadApiDocument, withoutWebOnly } from '../../src/openapi/document.js';

describe('llms text', () => {
  const doc = loadApiDocument();
  const publicRoutes = listOperations(withoutWebOnly(doc)).map((e) => `${e.method.toUpperCase()} ${e.path}`);
  const webOnly = listOperations(doc).filter((e) => e.operation['x-web-only'] === true);

  it('llms.txt opens with the title and summary and has a line for every public route', () => {
    const text = llmsText(doc);
    expect(text.startsWith(`# ${doc.info.title}\n\n> ${doc.info.summary}`)).to.equal(true);
    for (const route of publicRoutes) expect(text, route).to.include(`\`${route}\``);
    expect(text).to.include('## Authentication').and.include('## Lifecycle').and.include('X-API-Key');
  });

  it('llms-full.txt has a section for every public route with its operationId', () => {
    const text = llmsFullText(doc);
    for (const entry of listOperations(withoutWebOnly(doc))) {
      expect(text).to.include(`## ${entry.method.toUpperCase()} ${entry.path}\n`);
      expect(text).to.include(`operationId \`${entry.operation.operationId}\``);
    }
  });

  it('neither text lists a web-only operation', () => {
    for (const text of [llmsText(doc), llmsFullText(doc)]) {
      for (const entry of webOnly) {
        expect(text).to.not.include(`## ${entry.method.toUpperCase()} ${entry.path}\n`);
        expect(text).to.not.include(`\`${entry.method.toUpperCase()} ${entry.path}\`:`);
        expect(text).to.not.include(entry.operation.operationId);
      }
    }
  });

  it('llms-full.txt carries request fields, bounds and the error codes of each route', () => {
    const text = llmsFullText(doc);
    expect(text).to.include('- `content_base64` (string | null, optional)');
    expect(text).to.include('- `max_points` (query, integer, optional, 10..5000, default 500)');
    expect(text).to.include('- 422 UNKNOWN_ANALYSIS, VALIDATION_ERROR:');
    expect(text).to.include('- 429 RATE_LIMITED, QUOTA_EXCEEDED (header Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset):');
  });

  it('llms-full.txt has the whole error table', () => {
    const text = llmsFullText(doc);
    for (const row of errorTable(doc)) expect(text).to.include(`| ${row.status} | \`${row.code}\` |`);
  });

  it('follows the document: a changed summary shows in both texts', () => {
    const changed = loadApiDocument();
    changed.paths['/v1/sample'].get!.summary = 'A renamed sample route';
    expect(llmsText(changed)).to.include('`GET /v1/sample`: A renamed sample route');
    expect(llmsFullText(changed)).to.include('A renamed sample route (operationId `getSample`');
  });
});
