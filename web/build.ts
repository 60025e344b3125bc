/**
 * The web application's bundle, built in memory by esbuild when the server starts (`npm start`,
 * and every test that starts the service), so there is no separate build command and the page that
 * is served always matches its source. No framework: plain TypeScript modules and uPlot. Asset
 * names carry a content hash, so a browser may cache them for good.
 */
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import { PROJECT_ROOT } from '../src/plugins.js';

/** The media types the contract declares for GET /assets/{name}. */
export type AssetContentType = 'text/javascript; charset=utf-8' | 'text/css; charset=utf-8';

export interface WebAsset {
  body: Buffer;
  contentType: AssetContentType;
}

export interface WebBundle {
  /** index.html, naming the hashed assets. */
  index: Buffer;
  /** Assets by file name (served under /assets/). */
  assets: ReadonlyMap<string, WebAsset>;
}

const PAGE_DIR = join(PROJECT_ROOT, 'web', 'page');
const CONTENT_TYPES: Record<string, AssetContentType | undefined> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

let bundled: Promise<WebBundle> | null = null;

/** The bundle, built once per process. */
export function webBundle(): Promise<WebBundle> {
  bundled ??= buildWebBundle();
  return bundled;
}

/** Bundles web/page/main.ts (with its CSS) and fills the asset names into index.html. */
export async function buildWebBundle(): Promise<WebBundle> {
  const result = await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: { app: join(PAGE_DIR, 'main.ts') },
    outdir: join(PROJECT_ROOT, 'web', 'dist'),
    entryNames: '[name].[hash]',
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: ['es2020'],
    minify: true,
    logLevel: 'silent',
  });
  const assets = new Map<string, WebAsset>();
  for (const file of result.outputFiles) {
    const name = basename(file.path);
    const type = CONTENT_TYPES[name.slice(name.lastIndexOf('.'))];
    if (!type) throw new Error(`the web bundle produced ${name}, which has no content type here`);
    assets.set(name, { body: Buffer.from(file.contents), contentType: type });
  }
  const named = (ext: string): string => {
    const name = [...assets.keys()].find((n) => n.startsWith('app.') && n.endsWith(ext));
    if (!name) throw new Error(`the web bundle has no app${ext}`);
    return name;
  };
  const template = await readFile(join(PAGE_DIR, 'index.html'), 'utf8');
  const index = template.replace('%APP_JS%', named('.js')).replace('%APP_CSS%', named('.css'));
  return { index: Buffer.from(index, 'utf8'), assets };
}
