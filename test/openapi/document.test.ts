import { expect } from 'chai';
import { ERROR_STATUS } from '../../src/errors.js';
import { errorCodesOf, errorTable, isPublicOperation, listOperations, loadApiDocument, withoutWebOnly, type ApiDocument, type SchemaObject } from '../../src/openapi/document.js';
import { CHANNEL_NAMES } from '../../src/recording/recording.js';

/** The operationIds the server registers handlers under, with their routes. */
const OPERATIONS: Record<string, string> = {
  getCapabilities: 'GET /v1/capabilities',
  uploadCpetMultipart: 'POST /v1/cpet',
  uploadCpetContent: 'POST /v1/cpet/content',
  createUploadTickets: 'POST /v1/uploads',
  postTicketUpload: 'POST /v1/uploads/{ticket}',
  getCpet: 'GET /v1/cpet/{cpet_id}',
  deleteCpet: 'DELETE /v1/cpet/{cpet_id}',
  getCpetSeries: 'GET /v1/cpet/{cpet_id}/series',
  exportCpet: 'GET /v1/cpet/{cpet_id}/export',
  analyzeCpet: 'POST /v1/cpet/{cpet_id}/analyze',
  listMetrics: 'GET /v1/metrics',
  computeMetrics: 'POST /v1/cpet/{cpet_id}/compute',
  getSample: 'GET /v1/sample',
  listFormats: 'GET /v1/formats',
  getOpenApi: 'GET /v1/openapi.json',
  getHealth: 'GET /health',
  getReady: 'GET /ready',
  getMetrics: 'GET /metrics',
  getLlmsTxt: 'GET /llms.txt',
  getLlmsFullTxt: 'GET /llms-full.txt',
  createWebSession: 'POST /v1/web/session',
  endWebSession: 'DELETE /v1/web/session',
  listWebModels: 'GET /v1/web/models',
  getWebDomains: 'GET /v1/web/cpet/{cpet_id}/domains',
  analyzeWeb: 'POST /v1/web/cpet/{cpet_id}/analyze',
  getWebPage: 'GET /',
  getWebAsset: 'GET /assets/{name}',
};
/** The web application's API, under /v1/web. */
const WEB = ['createWebSession', 'endWebSession', 'listWebModels', 'getWebDomains', 'analyzeWeb'];
const WEB_ONLY = [...WEB, 'getWebPage', 'getWebAsset'];
const PUBLIC = ['getSample', 'getOpenApi', 'getHealth', 'getReady', 'getMetrics', 'getLlmsTxt', 'getLlmsFullTxt', 'postTicketUpload', 'getWebPage', 'getWebAsset'];

function routes(doc: ApiDocument): Map<string, string> {
  return new Map(listOperations(doc).map((e) => [e.operation.operationId, `${e.method.toUpperCase()} ${e.path}`]));
}

function allRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node))
    node.forEach((n) => {
      allRefs(n, out);
    });
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else allRefs(v, out);
    }
  }
  return out;
}

describe('openapi document', () => {
  const doc = loadApiDocument();

  it('is OpenAPI 3.1 with info.version v1 and says it is research software, not a diagnosis', () => {
    expect(doc.openapi).to.equal('3.1.0');
    expect(doc.info.version).to.equal('v1');
    expect(doc.info.description)
      .to.match(/research software/i)
      .and.match(/not a diagnosis/i);
  });

  it('has exactly the operationIds the server routes by, each on its route', () => {
    expect(Object.fromEntries(routes(doc))).to.deep.equal(OPERATIONS);
  });

  it('marks exactly the web application routes x-web-only, each saying so in its description', () => {
    const webOnly = listOperations(doc).filter((e) => e.operation['x-web-only'] === true);
    expect(webOnly.map((e) => e.operation.operationId).sort()).to.deep.equal([...WEB_ONLY].sort());
    for (const e of webOnly) expect(e.operation.description, e.operation.operationId).to.match(/^Web application only \(`x-web-only`\)/);
    for (const e of webOnly.filter((w) => w.path.startsWith('/v1/web/') && w.operation.operationId !== 'createWebSession')) {
      expect(e.operation.description, e.operation.operationId).to.include('refuses it to an `X-API-Key` request');
    }
  });

  it('asks for the X-API-Key header everywhere except the public routes and the web session routes', () => {
    expect(doc.components?.securitySchemes?.ApiKey).to.deep.include({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    const open = listOperations(doc)
      .filter((e) => isPublicOperation(doc, e))
      .map((e) => e.operation.operationId);
    expect(open.sort()).to.deep.equal([...PUBLIC].sort());
    const bySession = listOperations(doc).filter((e) => JSON.stringify(e.operation.security ?? doc.security) === '[{"WebSession":[]}]');
    expect(bySession.map((e) => e.operation.operationId).sort()).to.deep.equal(WEB.filter((id) => id !== 'createWebSession').sort());
  });

  it('puts every web application route under /v1/web, each session route with the X-CSRF-Token header', () => {
    expect(doc.components?.securitySchemes?.WebSession).to.deep.include({ type: 'apiKey', in: 'cookie', name: 'cpet_web_session' });
    for (const entry of listOperations(doc).filter((e) => WEB.includes(e.operation.operationId as string))) {
      expect(entry.path, entry.operation.operationId).to.match(/^\/v1\/web\//);
      if (entry.operation.security)
        expect(
          entry.parameters.some((p) => p.in === 'header' && p.name === 'X-CSRF-Token' && p.required),
          entry.operation.operationId,
        ).to.equal(true);
    }
  });

  it('lists 401, 403 and 429 on every route that takes a key, and 429 always with Retry-After', () => {
    for (const entry of listOperations(doc)) {
      const responses = entry.operation.responses;
      if (!isPublicOperation(doc, entry)) {
        for (const status of ['401', '403', '429']) expect(responses, `${entry.operation.operationId} ${status}`).to.have.property(status);
      }
      if (responses['429']) {
        const ref = responses['429'].$ref as string;
        const response = doc.components?.responses?.[ref.split('/').pop() as string];
        expect(response?.headers, entry.operation.operationId).to.have.property('Retry-After');
      }
    }
  });

  it('closes every JSON and form request body with additionalProperties: false', () => {
    for (const entry of listOperations(doc)) {
      for (const [type, media] of Object.entries(entry.operation.requestBody?.content ?? {})) {
        if (!type.startsWith('application/json') && type !== 'multipart/form-data') continue;
        let schema = media.schema as SchemaObject;
        if (schema.$ref) schema = doc.components?.schemas?.[schema.$ref.split('/').pop() as string] as SchemaObject;
        expect(schema.additionalProperties, `${entry.operation.operationId} ${type}`).to.equal(false);
      }
    }
  });

  it('bounds every query parameter: numbers by minimum and maximum, strings by length or an enum', () => {
    for (const entry of listOperations(doc)) {
      for (const p of entry.parameters.filter((q) => q.in === 'query')) {
        const s = p.schema as SchemaObject;
        const where = `${entry.operation.operationId} ${p.name}`;
        if (s.type === 'integer' || s.type === 'number') expect([s.minimum, s.maximum], where).to.not.include(undefined);
        else if (s.type === 'string') expect(s.enum !== undefined || s.maxLength !== undefined, where).to.equal(true);
        else expect(s.type, where).to.equal('boolean');
      }
    }
  });

  it('gives ErrorCode the same codes and HTTP statuses as src/errors.ts', () => {
    const table = Object.fromEntries(errorTable(doc).map((row) => [row.code, row.status]));
    expect(table).to.deep.equal(ERROR_STATUS);
  });

  it('puts every error code a response names under the HTTP status that code has', () => {
    let checked = 0;
    for (const entry of listOperations(doc)) {
      for (const [status, response] of Object.entries(entry.operation.responses)) {
        for (const code of errorCodesOf(doc, response)) {
          expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], `${entry.operation.operationId} ${status} ${code}`).to.equal(Number(status));
          checked++;
        }
      }
    }
    expect(checked).to.be.greaterThan(50);
  });

  it('lists every canonical channel in ChannelName and in the summary channels', () => {
    const schemas = doc.components?.schemas ?? {};
    expect(schemas.ChannelName.enum).to.deep.equal([...CHANNEL_NAMES]);
    expect(schemas.ChannelsSummary.required).to.deep.equal([...CHANNEL_NAMES]);
  });

  it('leaves no reference dangling', () => {
    for (const ref of allRefs(doc)) {
      const [, kind, name] = ref.split('/').slice(1);
      expect(doc.components?.[kind]?.[name], ref).to.not.equal(undefined);
    }
  });
});

describe('the document without the web application', () => {
  const doc = loadApiDocument();
  const pub = withoutWebOnly(doc);

  it('has no x-web-only operation and no path left without an operation', () => {
    expect(listOperations(pub).some((e) => e.operation['x-web-only'] === true)).to.equal(false);
    for (const [path, item] of Object.entries(pub.paths)) {
      expect(
        Object.keys(item).filter((k) => k !== 'parameters'),
        path,
      ).to.not.be.empty;
    }
    expect(pub.paths['/v1/uploads/{ticket}']?.post?.operationId).to.equal('postTicketUpload');
    expect(pub.paths['/v1/cpet']?.post?.operationId).to.equal('uploadCpetMultipart');
    expect(Object.keys(pub.paths).filter((p) => p.startsWith('/v1/web/') || p === '/' || p.startsWith('/assets/'))).to.deep.equal([]);
  });

  it('keeps every operation of the API', () => {
    const expected = Object.keys(OPERATIONS).filter((id) => !WEB_ONLY.includes(id));
    expect([...routes(pub).keys()].sort()).to.deep.equal(expected.sort());
  });

  it('drops the components only web-only routes used and keeps every one still referenced', () => {
    expect(pub.components?.schemas).to.have.property('MultipartUploadRequest');
    expect(pub.components?.schemas).to.not.have.property('DomainsResponse');
    expect(pub.components?.schemas).to.not.have.property('WebSession');
    expect(pub.components?.securitySchemes).to.not.have.property('WebSession');
    expect(pub.components?.securitySchemes).to.have.property('ApiKey');
    expect(pub.components?.schemas).to.have.property('UploadSummary');
    for (const ref of allRefs(pub)) {
      const [, kind, name] = ref.split('/').slice(1);
      expect(pub.components?.[kind]?.[name], ref).to.not.equal(undefined);
    }
  });

  it('is a copy: the loaded document keeps its web-only routes', () => {
    withoutWebOnly(doc);
    expect(doc.paths['/v1/web/models']?.get?.operationId).to.equal('listWebModels');
    expect(doc.components?.schemas).to.have.property('WebModels');
  });
});
