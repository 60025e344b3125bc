import type { ResolveHookSync } from 'node:module';

/** The resolve hook with the service's package.json URL as the parent of its own specifiers. */
export function resolveWith(parentUrl: string, ...args: Parameters<ResolveHookSync>): ReturnType<ResolveHookSync>;
