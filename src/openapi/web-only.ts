/**
 * The API without the web application: the document served at /v1/openapi.json names every route,
 * and those marked `x-web-only` (the page, its assets and the routes under /v1/web, which refuse
 * X-API-Key) are of no use to an API client, so /llms.txt, /llms-full.txt and the client checks
 * read this copy instead: web-only operations removed, paths left without an operation dropped, and
 * components, security schemes and tags only those routes used pruned, so the copy lints clean.
 */
import { HTTP_METHODS, type ApiDocument, type PathItemObject } from './types.js';
import { resolvePointer } from './walk.js';

/** Component kinds reached through `$ref`; security schemes are named by requirements instead. */
const REF_KINDS = ['schemas', 'responses', 'parameters', 'headers', 'examples', 'requestBodies', 'links', 'callbacks', 'pathItems'];

/** A deep copy of the document without web-only operations and without what only they used. */
export function withoutWebOnly(doc: ApiDocument): ApiDocument {
  const copy = structuredClone(doc);
  for (const [path, item] of Object.entries(copy.paths)) {
    for (const method of HTTP_METHODS) {
      if (item[method]?.['x-web-only'] === true) delete item[method];
    }
    if (!HTTP_METHODS.some((method) => item[method])) delete copy.paths[path];
  }
  pruneComponents(copy);
  pruneSecuritySchemes(copy);
  pruneTags(copy);
  return copy;
}

/** Collects every `$ref` string under a node. */
function collectRefs(node: unknown, out: string[]): void {
  if (Array.isArray(node)) {
    for (const child of node) collectRefs(child, out);
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else collectRefs(value, out);
    }
  }
}

/** Removes components that nothing outside `components` reaches, directly or through other components. */
function pruneComponents(doc: ApiDocument): void {
  const components = doc.components;
  if (!components) return;
  const roots: string[] = [];
  collectRefs({ ...doc, components: undefined }, roots);
  const reached = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const ref = queue.pop() as string;
    if (reached.has(ref)) continue;
    reached.add(ref);
    collectRefs(resolvePointer(doc, ref), queue);
  }
  for (const kind of REF_KINDS) {
    const group = components[kind];
    if (!group) continue;
    for (const name of Object.keys(group)) {
      if (!reached.has(`#/components/${kind}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`)) delete group[name];
    }
    if (Object.keys(group).length === 0) delete components[kind];
  }
}

/** Drops security schemes no remaining requirement names (they are named, not referenced). */
function pruneSecuritySchemes(doc: ApiDocument): void {
  const schemes = doc.components?.securitySchemes;
  if (!schemes) return;
  const used = new Set<string>();
  const requirements = [...(doc.security ?? [])];
  for (const item of Object.values(doc.paths) as PathItemObject[]) {
    for (const method of HTTP_METHODS) requirements.push(...(item[method]?.security ?? []));
  }
  for (const requirement of requirements) for (const name of Object.keys(requirement)) used.add(name);
  for (const name of Object.keys(schemes)) if (!used.has(name)) delete schemes[name];
}

/** Drops tag definitions no remaining operation uses. */
function pruneTags(doc: ApiDocument): void {
  if (!doc.tags) return;
  const used = new Set<string>();
  for (const item of Object.values(doc.paths) as PathItemObject[]) {
    for (const method of HTTP_METHODS) for (const tag of item[method]?.tags ?? []) used.add(tag);
  }
  doc.tags = doc.tags.filter((tag) => used.has(tag.name));
}
