// Types of scripts/build.mjs for the TypeScript that imports it (the fault tests).
export const ROOT: string;
export const DIST: string;
export const STAMP: string;
export function fingerprint(): string;
export function buildDist(options?: { quiet?: boolean }): Promise<void>;
