/**
 * Parse speed of every real vendor file held as a fixture (any format), through the public path
 * (readUpload: detection by every plugin, then the parse), with spiro's time for the files spiro
 * reads beside it as a ratio (spiro.ts; goal: at least PARSE_TIMES_SPIRO times faster, issue 15),
 * and the peak memory of parsing the largest one, measured in a child process so that nothing else
 * inflates it. Medians are taken warm (after WARMUP parses), as spiro's were.
 * `npx tsx bench/run.ts parse`
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FormatPlugin } from '../src/formats/format-plugin.js';
import { readUpload } from '../src/formats/read-upload.js';
import { builtInFixtureCases } from '../src/plugin-kit/fixtures.js';
import { loadPlugins } from '../src/plugins.js';
import { PARSE_TIMES_SPIRO } from './goals.js';
import { atLeast, medianMs, type BenchRow } from './harness.js';
import { SPIRO_MS } from './spiro.js';

/**
 * SHA-256 of the real files in shared/vendor-files and shared/datasets/pyoxynet-samples (byte-exact
 * upstream copies): a fixture with one of these hashes is a real file, any other is synthetic.
 */
/** The files issue 23 names (its parse row); the others keep issue 15's goal, printed with the rest. */
const ISSUE_ROW: Record<string, string> = { zan_gxt: 'parse vs spiro, zan_gxt', 'example_cosmed.xlsx': 'parse vs spiro, example_cosmed.xlsx' };

const REAL_FILES: Record<string, string> = {
  '24179b31306d28d157ad7da38bd87e21229676501a1531007d3c9836c905ce4f': 'cosmed.xlsx',
  fa77d4efba2ef8cb3385bbca8792414aeba1ad661c4c738e3247d0f17257ce0b: 'example_cosmed.xlsx',
  '1830647f1620e898d68a16953c8ab9dea1ba469588e8e57f8845889902ed2390': 'cortex.xml',
  e566733062d466413c67f1e57d12affdd799b318bd24acbc2d84928055c38f36: 'step_cortex.xlsx',
  '82eaf6c0ced990ef24a935b46697b9d0fa9ce1cfaa66e884cdf9fbd94e91c95e': 'Aaron_VO2max.txt',
  d903720320576f1a2bb2b5d98116367e381e354f49fabab61622987721da90c0: 'parvo_binned.CSV',
  '3f7514480cdd9aa540da6350060d078d635be99d3508a2e5988396364e16a6d6': 'parvo_bxb.CSV',
  '74270993e7f5a0071efbec6e435dc86f0400787d4a64dd3590f0c21f35b49e4a': 'parvo_excel.xlsx',
  '540d337113405bf982380af7f228ff353db6c41fafc0fb38ba07aa71fb842c73': 'vyntus.txt',
  e76bd55721b96c7256e08d2e639b66dd959ad015b3bca3f95a26fa801ae54a50: 'zan_gxt',
  ea6e7d0f59456421f740017735f4e2a1f83bbc990f11a944225fb91e3b570588: 'data_test.csv',
  '8110d0f588593389cb79aab8a5089dc2c51e06f47263bd21dda88786e87243e8': 'exercise_threshold_app_test.json',
};

/** Runs of each file; the median is reported. */
const RUNS = 21;
/** Unmeasured parses first, so the figure is the warm one a running service sees. */
const WARMUP = 5;
/** Set in the child process that measures peak memory. */
const CHILD_ENV = 'PARSE_BENCH_MEMORY_OF';

interface RealFixture {
  path: string;
  upstream: string;
  bytes: Buffer;
}

/** The real files among every format's fixtures, found by content hash. */
function realFixtures(): RealFixture[] {
  const out: RealFixture[] = [];
  for (const fixture of builtInFixtureCases()) {
    const bytes = readFileSync(fixture.input);
    const upstream = REAL_FILES[createHash('sha256').update(bytes).digest('hex')];
    if (upstream) out.push({ path: fixture.input, upstream, bytes });
  }
  return out.sort((a, b) => a.bytes.length - b.bytes.length);
}

/** Peak resident memory added by one parse, in MB, measured in a fresh child process. */
function peakMemoryMb(path: string): { peak_rss_delta_mb: number; baseline_rss_mb: number } {
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, [CHILD_ENV]: path },
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`memory child failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop() as string) as { peak_rss_delta_mb: number; baseline_rss_mb: number };
}

/** In the child: load the plugins, read the file once to warm up, then parse it and report the rise in peak RSS. */
async function measureChild(path: string): Promise<void> {
  const { formats } = await loadPlugins();
  const bytes = readFileSync(path);
  const small = realFixtures()[0];
  await readUpload(basename(small.path), small.bytes, formats);
  const before = peakRssKb();
  await readUpload(basename(path), bytes, formats);
  const after = peakRssKb();
  console.log(JSON.stringify({ peak_rss_delta_mb: round1((after - before) / 1024), baseline_rss_mb: round1(before / 1024) }));
}

/**
 * This process's peak resident memory, KB. Linux's VmHWM belongs to the process image; getrusage's
 * maxRSS is carried over from the parent at spawn, so under a large parent it would show the parent.
 */
function peakRssKb(): number {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]);
  } catch {
    // Not Linux: getrusage below.
  }
  return process.resourceUsage().maxRSS;
}

/** The benchmark: one row per real file, then the memory row for the largest. */
export default async function parseBench(): Promise<{ title: string; rows: BenchRow[] }> {
  const { formats } = await loadPlugins();
  const rows: BenchRow[] = [];
  const files = realFixtures();
  for (const f of files) rows.push(await timeOne(f, formats));
  const largest = files[files.length - 1];
  if (largest) {
    const memory = peakMemoryMb(largest.path);
    rows.push({ name: `peak memory: parse ${largest.upstream} (${kb(largest.bytes.length)})`, median_ms: 0, runs: 1, extra: memory });
  }
  return { title: 'Parse every real vendor file through readUpload (detection + parse)', rows };
}

async function timeOne(f: RealFixture, formats: readonly FormatPlugin[]): Promise<BenchRow> {
  let format = '';
  let samples = 0;
  const ms = await medianMs(
    async () => {
      const { recording } = await readUpload(basename(f.path), f.bytes, formats);
      format = recording.format;
      samples = recording.t_s.length;
    },
    RUNS,
    WARMUP,
  );
  const spiro = SPIRO_MS[f.upstream];
  const times = spiro === undefined ? null : spiro / ms;
  return {
    name: `parse ${f.upstream} (${kb(f.bytes.length)})`,
    median_ms: ms,
    runs: RUNS,
    extra: {
      ...(times === null ? {} : { figure: `${times.toFixed(1)}x spiro` }),
      format,
      samples,
      mb_per_s: round1(f.bytes.length / 1e6 / (ms / 1000)),
      ...(spiro === undefined ? { spiro_ms: 'n/a' } : { spiro_ms: spiro, times_faster_than_spiro: `${times!.toFixed(1)}x` }),
    },
    goal: times === null ? undefined : atLeast(round1(times), PARSE_TIMES_SPIRO, 'x spiro', ISSUE_ROW[f.upstream]),
  };
}

function kb(bytes: number): string {
  return `${round1(bytes / 1024)} KB`;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

if (process.env[CHILD_ENV]) await measureChild(process.env[CHILD_ENV]);
