/**
 * openapi-backend's router rebuilds its flat list of operations (a lodash chain over the whole
 * document) and a RegExp per path template on every match, and a request is matched twice (the gate,
 * then handleRequest) and parsed with that list four times: about a fifth of the request thread's
 * time per analyze (issue 23). The document never changes after init, so the list and the patterns
 * are built once here and the router's own two methods answer from them, with the library's rules
 * (an exact path first; else the templates that match, the longest literal part first; 404 without a
 * matching path, 405 without the method; errors thrown only in strict mode). The request validators,
 * which `quick` mode compiles on a route's first request, are compiled here too, before the first
 * request rather than during it.
 */
import type { OpenAPIBackend, Operation } from 'openapi-backend';

interface Indexed {
  operation: Operation;
  pattern: RegExp;
}

/** Escapes the literal parts of a path template, as the router does, so `.` in `/files/{name}.json` is a dot. */
function templatePattern(path: string): RegExp {
  const literal = path
    .replace(/\{[^}]+\}/g, '\0')
    .split('\0')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${literal}$`);
}

/** Makes an initialised backend's router answer from a prebuilt index, and compiles every request validator. */
export function indexOperations(api: OpenAPIBackend): void {
  const router = api.router;
  const operations = router.getOperations();
  const byPath = new Map<string, Operation[]>();
  for (const op of operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  // lodash's orderBy is stable, and so is Array.prototype.sort: sorting once gives the order every match would.
  const specificity = (op: Operation) => op.path.replace(/\{.*?\}/g, '').length;
  const templates: Indexed[] = [...operations].sort((a, b) => specificity(b) - specificity(a)).map((operation) => ({ operation, pattern: templatePattern(operation.path) }));

  // The router's own test (private in its types): the root itself or a path below it, on a segment boundary.
  const root = router.apiRoot.replace(/\/$/, '');
  const underRoot = (path: string) => (router.apiRoot === '/' ? path.startsWith('/') : path === root || path.startsWith(`${root}/`));

  router.getOperations = () => operations;
  router.matchOperation = ((req: Parameters<typeof router.matchOperation>[0], strict?: boolean) => {
    const normalized = router.normalizeRequest(req);
    const refuse = (message: string) => {
      if (strict) throw Error(message);
      return undefined;
    };
    if (!underRoot(normalized.path)) return refuse('404-notFound: no route matches request');
    const path = router.normalizePath(normalized.path);
    const exact = byPath.get(path)?.find((op) => op.method === normalized.method);
    if (exact) return exact;
    const matching = templates.filter((t) => t.pattern.test(path));
    if (matching.length === 0) return refuse('404-notFound: no route matches request');
    return matching.find((t) => t.operation.method === normalized.method)?.operation ?? refuse('405-methodNotAllowed: this method is not registered for the route');
  }) as typeof router.matchOperation;

  for (const op of operations) if (op.operationId) api.validator.getRequestValidatorsForOperation(op.operationId);
}
