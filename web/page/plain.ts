/**
 * The service's words made the page's: the API names its routes and JSON paths, which mean nothing to
 * a reader of this page. Pure (no DOM), so the tests can expect exactly what the page shows.
 */

/** What a route of the API is, for a reader of this page (the API's own wording names routes). */
const ROUTES: [RegExp, string][] = [
  [/^\/v1\/cpet(\/content)?$/, 'the upload on this page'],
  [/^\/v1\/uploads/, 'a new upload link'],
  [/^\/v1\/web\/session$/, 'the key form on this page'],
];

/**
 * An API message in the page's words: a route becomes what it does here, a JSON path ("in
 * context.recovery") the place on the page where that part is shown. The API keeps its wording.
 */
export function plain(message: string): string {
  return message
    .replace(/\b(?:GET|POST|PUT|PATCH|DELETE)\s+(\/v1\/[\w/{}.-]*\w)/g, (_m, route: string) => ROUTES.find(([re]) => re.test(route))?.[1] ?? 'the service')
    .replace(/\s*\((?:evidence|findings|context)\.[\w.]+\)/g, '')
    .replace(/\b(?:in\s+)?context\.\w+/g, 'below')
    .replace(/\b(?:evidence|findings)\.\w+(?:\.\w+)*/g, 'the evidence');
}
