// Module resolution hooks (node:module register), plain JavaScript because they run on the
// loader's own thread. Two rules, nothing else is touched:
//  1. `cpet-analysis-service` and its subpaths (the plugin kit) resolve to the service that is
//     running, as if imported from inside it: a plugin folder anywhere or an npm package installed
//     beside the service reaches the kit without depending on a copy of the service.
//  2. `cpet-plugin-from:<parent URL>#<specifier>` resolves <specifier> as if imported from <parent
//     URL>: how src/plugins.ts resolves a FORMAT_PLUGINS package from the working directory, with
//     the full ESM rules (exports, import conditions), not CommonJS's.

const SELF = 'cpet-analysis-service';
const FROM = 'cpet-plugin-from:';
let selfParentUrl = '';

export function initialize(data) {
  selfParentUrl = data.selfParentUrl;
}

export function resolve(specifier, context, nextResolve) {
  if (specifier === SELF || specifier.startsWith(`${SELF}/`)) {
    return nextResolve(specifier, { ...context, parentURL: selfParentUrl });
  }
  if (specifier.startsWith(FROM)) {
    const rest = specifier.slice(FROM.length);
    const hash = rest.indexOf('#');
    return nextResolve(rest.slice(hash + 1), { ...context, parentURL: rest.slice(0, hash) });
  }
  return nextResolve(specifier, context);
}
