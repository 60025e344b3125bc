// Module resolution hooks, plain JavaScript because on Node 20 they run on the hooks thread of
// `module.register` (src/plugins.ts registers them in-thread with `module.registerHooks` where Node
// has it). Two rules, nothing else is touched:
//  1. `cpet-analysis-service` and its subpaths, and `cpet-plugin-kit` (the kit's own package,
//     packages/plugin-kit), resolve to the service that is running, as if imported from inside it:
//     a plugin folder anywhere or an npm package installed beside the service reaches the kit the
//     service runs (one Recording, one ParserError class) whatever copy of the kit it was built with.
//  2. `cpet-plugin-from:<parent URL>#<specifier>` resolves <specifier> as if imported from <parent
//     URL>: how src/plugins.ts resolves a FORMAT_PLUGINS package from the working directory, with
//     the full ESM rules (exports, import conditions), not CommonJS's.

const SELF = 'cpet-analysis-service';
const KIT = 'cpet-plugin-kit';
const FROM = 'cpet-plugin-from:';
let selfParentUrl = '';

export function initialize(data) {
  selfParentUrl = data.selfParentUrl;
}

export function resolve(specifier, context, nextResolve) {
  return resolveWith(selfParentUrl, specifier, context, nextResolve);
}

export function resolveWith(parentUrl, specifier, context, nextResolve) {
  if (specifier === SELF || specifier.startsWith(`${SELF}/`)) {
    return nextResolve(specifier, { ...context, parentURL: parentUrl });
  }
  if (specifier === KIT) return nextResolve(`${SELF}/plugin`, { ...context, parentURL: parentUrl });
  if (specifier.startsWith(FROM)) {
    const rest = specifier.slice(FROM.length);
    const hash = rest.indexOf('#');
    return nextResolve(rest.slice(hash + 1), { ...context, parentURL: rest.slice(0, hash) });
  }
  return nextResolve(specifier, context);
}
