/**
 * The page, readable (issue 19 item 5, issue 24 item 5): on the sample and on every real fixture, no
 * two labels of a chart overlap and each lies in its plot area, every engine has its own colour,
 * nothing is drawn after exercise ends, every chart has a text alternative with its thresholds and
 * peaks, and the visible text carries no API wording. The README screenshot is rewritten from here
 * when its pixels change, so it cannot go stale.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { builtInFixtureCases } from '../../src/plugin-kit/fixtures.js';
import { PROJECT_ROOT } from '../../src/plugins.js';
import { ENGINE_COLORS, IMPLAUSIBLE } from '../../web/page/plot/colors.js';
import { startHarness, type Harness } from '../server/harness.js';
import { consoleErrors, launchBrowser, listen, screenshot, type Browser, type Listening } from './browser.js';
import { apiWording, chartLabels, expectedX, overlaps, rgb, scanPanel, visibleText } from './page-helpers.js';

const TIME_PANELS = ['ve', 'hr-o2pulse', 'vo2-vco2-load', 'equivalents', 'rer', 'pet'];
const README_IMAGE = join(PROJECT_ROOT, 'docs', 'images', 'web-nine-panels.png');

/** Everything this file asserts about a page showing a recording's results, as a list of what is wrong. */
async function unreadable(page: Page, what: string): Promise<string[]> {
  const problems: string[] = [];
  for (const chart of await chartLabels(page)) {
    for (const [a, b] of overlaps(chart.boxes)) problems.push(`${what}, ${chart.panel}: labels "${a}" and "${b}" overlap`);
    for (const b of chart.boxes) {
      const inside = b.x >= chart.plot.left - 0.5 && b.x + b.w <= chart.plot.right + 0.5 && b.y >= chart.plot.top - 0.5 && b.y + b.h <= chart.plot.bottom + 0.5;
      if (!inside) problems.push(`${what}, ${chart.panel}: label "${b.text}" outside the plot area`);
    }
  }
  const colors = await page.locator('#plot .legend li[data-engine]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.color));
  if (new Set(colors).size !== colors.length) problems.push(`${what}: engines share a colour (${colors.join(', ')})`);
  const end = await page.locator('#plot').getAttribute('data-exercise-end');
  if (end !== null) {
    for (const panel of TIME_PANELS) {
      if (!(await page.locator(`figure[data-panel="${panel}"] canvas`).count())) continue;
      for (const color of ENGINE_COLORS) {
        const scan = await scanPanel(page, panel, rgb(color));
        const after = scan.columns.filter((c) => c > expectedX(scan, Number(end)) + 2);
        if (after.length) problems.push(`${what}, ${panel}: ${color} drawn after exercise ended at ${end} s (columns ${after.join(', ')})`);
      }
    }
  }
  const described = await page.locator('figure.panel').evaluateAll((figs) =>
    figs.map((f) => ({
      panel: (f as HTMLElement).dataset.panel,
      text: document.getElementById(f.getAttribute('aria-describedby') ?? '')?.textContent ?? '',
      drawn: Boolean(f.querySelector('canvas')),
    })),
  );
  for (const d of described) {
    if (!d.text) problems.push(`${what}, ${d.panel}: no text alternative`);
    else if (d.drawn && !(d.text.includes('peaks at') && /Thresholds drawn: VT|No threshold is drawn/.test(d.text)))
      problems.push(`${what}, ${d.panel}: the text alternative lacks peaks or thresholds: ${d.text}`);
  }
  // An engine that reads classic criteria lists the ones that ran beside its thresholds.
  // No helper functions inside the evaluated code: the test transpiler would wrap them in a helper the page lacks.
  const columns = await page.locator('#thresholds-table').evaluate((table) => {
    const rows = [...(table as HTMLTableElement).tBodies[0].rows];
    const engine = rows.find((r) => r.cells[0].textContent === 'Engine');
    const criteria = rows.find((r) => r.cells[0].textContent === 'Criteria that ran');
    return [...(engine?.cells ?? [])].slice(1).map((c, i) => ({ engine: c.textContent, criteria: criteria?.cells[i + 1].textContent ?? '' }));
  });
  for (const c of columns) if (c.engine === 'classic' && !/VT1:/.test(c.criteria)) problems.push(`${what}: a classic engine without the criteria that ran (${c.criteria})`);
  const pictures = await page
    .locator('[role="img"]')
    .evaluateAll((els) => els.map((e) => ({ id: e.className, text: document.getElementById(e.getAttribute('aria-describedby') ?? '')?.textContent ?? '' })));
  for (const p of pictures) if (!/peaks at/.test(p.text)) problems.push(`${what}, ${p.id}: the text alternative lacks the peak: ${p.text}`);
  problems.push(...apiWording(await visibleText(page)).map((w) => `${what}: ${w}`));
  return problems;
}

describe('web application: readable on every recording', function () {
  this.timeout(900_000);
  let h: Harness;
  let server: Listening;
  let browser: Browser;
  let key: string;

  before(async () => {
    h = await startHarness({ store: 'sqlite' });
    key = await h.key();
    server = await listen(h.service.app);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await h?.close();
  });

  async function open(): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.context.newPage();
    const errors = consoleErrors(page);
    await page.goto(`${server.url}/`);
    await page.fill('#api-key', key);
    return { page, errors };
  }

  it('the sample: labels apart, engine colours distinct, text alternatives, plain words; the README screenshot kept current', async () => {
    const { page, errors } = await open();
    await page.click('#load-sample');
    await page.waitForSelector('#app[data-state="ready"]', { timeout: 120_000 });
    expect(await unreadable(page, 'sample')).to.deep.equal([]);
    await screenshot(page, '20-readable-sample-plot', '#plot');
    await screenshot(page, '21-readable-sample-thresholds', '#thresholds');
    const engines = await page.locator('#plot .legend li[data-engine]').count();
    expect(engines, 'the default model and at least one alternative engine drew lines').to.be.at.least(2);
    // The screenshot is rewritten only when its pixels differ, so an unchanged page leaves the file alone.
    const shot = await page.locator('#plot .panel-grid').screenshot();
    const same = existsSync(README_IMAGE) && (await samePixels(page, shot, readFileSync(README_IMAGE)));
    if (!same) writeFileSync(README_IMAGE, shot);
    expect(await samePixels(page, readFileSync(README_IMAGE), shot)).to.equal(true);
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('every real fixture: labels apart, nothing after exercise, text alternatives, plain words', async () => {
    const { page, errors } = await open();
    const failed: string[] = [];
    const problems: string[] = [];
    for (const f of builtInFixtureCases().map((c) => ({ name: `${c.format}/${c.name}`, path: c.input }))) {
      await page.setInputFiles('#file-input', f.path);
      await page.waitForSelector('#app[data-state="ready"], #app[data-state="error"]', { timeout: 120_000 });
      if ((await page.getAttribute('#app', 'data-state')) === 'error') {
        failed.push(f.name);
        problems.push(...apiWording(await visibleText(page)).map((w) => `${f.name}: ${w}`));
        continue;
      }
      problems.push(...(await unreadable(page, f.name)));
    }
    expect(problems).to.deep.equal([]);
    expect(failed, 'fixtures the service refused').to.deep.equal([]);
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('flags an engine’s implausible lines (its own words when it gives them), implausible HR samples, and the oscillation caveat', async () => {
    const { page, errors } = await open();
    const implausibleEvery = 10;
    // The answers are altered on their way to the page, so each case is certain whatever the engines place.
    await page.route('**/v1/web/cpet/*/analyze', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      const model = JSON.parse(route.request().postData() ?? '{}').model as string;
      const f = body.results[0].findings;
      if (model === 'wasserman') {
        Object.assign(f, { vt2_time_s: f.vt1_time_s - 60, vt2_vo2_ml_min: f.vt1_vo2_ml_min - 100 });
        f.evidence = { ...f.evidence, criteria_not_run: [{ criterion: 'PetCO2 starts to fall', missing: ['PetCO2'] }] };
      } else f.evidence = { ...f.evidence, implausible: [{ code: 'vt2_precedes_vt1', detail: 'This engine’s own rule placed VT2 first.' }] };
      await route.fulfill({ response, json: body });
    });
    await page.route('**/v1/cpet/*/series?*', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      const hr = body.series.HR;
      Object.assign(hr, { implausible: hr.values.map((_: unknown, i: number) => i % implausibleEvery === 0), implausible_reason: 'a jump of more than 40 beats/min in 2 s' });
      await route.fulfill({ response, json: body });
    });
    await page.route('**/v1/cpet/*/analyze', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      for (const e of body.results) if (e.analysis === 'eov' && e.status === 'ok') e.findings.grade = 'sustained';
      await route.fulfill({ response, json: body });
    });
    await page.click('#load-sample');
    await page.waitForSelector('#app[data-state="ready"]', { timeout: 120_000 });
    expect(await unreadable(page, 'altered sample')).to.deep.equal([]);
    const labels = (await chartLabels(page)).filter((c) => TIME_PANELS.includes(c.panel)).map((c) => c.boxes.map((b) => b.text));
    for (const panel of labels)
      expect(
        panel.some((t) => /^VT2 wasserman ⚠ before VT1/.test(t)),
        panel.join(' | '),
      ).to.equal(true);
    const legend = (await page.locator('#plot .legend').textContent()) as string;
    expect(legend).to.contain('is placed before VT1').and.contain('This engine’s own rule placed VT2 first.');
    const table = (await page.locator('#thresholds-table').textContent()) as string;
    expect(table).to.contain('is placed before VT1').and.contain('This engine’s own rule placed VT2 first.');
    const wasserman = page.locator('#thresholds-table td[data-role="alternative"]');
    const criteria = (await page.locator('#thresholds-table tr', { hasText: 'Criteria that ran' }).textContent()) as string;
    expect(criteria).to.match(/VT1:.*V-slope.*accepted/);
    expect(await page.locator('#thresholds-table tr', { hasText: 'Criteria that could not run' }).textContent()).to.contain('PetCO2 starts to fall: needs PetCO2, not in this recording');
    expect(await wasserman.count()).to.be.at.least(2);
    expect(await page.locator('#oscillation-caveat').textContent())
      .to.contain('graded sustained')
      .and.contain('less reliable');
    expect(await page.locator('figure[data-panel="hr-o2pulse"] [data-implausible]').textContent())
      .to.contain('HR')
      .and.contain('a jump of more than 40 beats/min in 2 s');
    expect(await page.locator('#panel-hr-o2pulse-text').textContent()).to.match(/HR peaks at .*implausible samples left out/);
    const flagged = await page.evaluate(([r, g, b]) => {
      const canvas = document.querySelector('figure[data-panel="hr-o2pulse"] canvas') as HTMLCanvasElement;
      const data = (canvas.getContext('2d') as CanvasRenderingContext2D).getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - r) <= 3 && Math.abs(data[i + 1] - g) <= 3 && Math.abs(data[i + 2] - b) <= 3) n++;
      return n;
    }, rgb(IMPLAUSIBLE));
    expect(flagged, 'implausible HR samples drawn in their own colour').to.be.greaterThan(100);
    await page.waitForSelector('#report[data-ready="true"]', { state: 'attached' });
    const report = (await page.locator('#report').textContent()) as string;
    expect(report).to.contain('graded sustained').and.contain('is placed before VT1');
    expect(apiWording(report), 'API wording in the printed report').to.deep.equal([]);
    expect(await page.locator('#report img').getAttribute('alt')).to.match(/Thresholds: .*VT1 \d+:\d\d/);
    await screenshot(page, '22-readable-flagged-plot', '#plot');
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('a real export without end-tidal channels: the classic engine shows thresholds and the criteria that ran and could not', async () => {
    const { page, errors } = await open();
    await page.setInputFiles('#file-input', join(PROJECT_ROOT, 'formats', 'zan-dat', 'fixtures', 'spiro-zan-gxt', 'input.dat'));
    await page.waitForSelector('#app[data-state="ready"]', { timeout: 120_000 });
    // No helper functions inside the evaluated code: the test transpiler would wrap them in a helper the page lacks.
    const classic = await page.locator('#thresholds-table').evaluate((table) => {
      const t = table as HTMLTableElement;
      const heads = [...t.tHead!.rows[0].cells].slice(1).map((c) => c.textContent ?? '');
      const column = heads.findIndex((text) => text.includes('wasserman'));
      const cells: Record<string, string> = {};
      for (const r of t.tBodies[0].rows) cells[r.cells[0].textContent ?? ''] = r.cells[column + 1]?.textContent ?? '';
      return { column, vt1: cells['VT1 time'] ?? '', ran: cells['Criteria that ran'] ?? '', notRun: cells['Criteria that could not run'] ?? '' };
    });
    expect(classic.column, 'a wasserman column').to.be.at.least(0);
    expect(classic.vt1, 'the classic engine placed VT1').to.match(/\d+:\d\d/);
    expect(classic.ran).to.match(/VT1:.*V-slope/);
    expect(classic.notRun).to.contain('PetO2').and.contain('PetCO2');
    const legend = await page.locator('#plot .legend li[data-engine]').allTextContents();
    expect(
      legend.some((l) => l.includes('wasserman')),
      legend.join(' | '),
    ).to.equal(true);
    expect(await unreadable(page, 'zan-dat/spiro-zan-gxt')).to.deep.equal([]);
    await screenshot(page, '23-readable-classic-without-end-tidal', '#thresholds');
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('an unsupported file’s error in plain words, the canonical shape still offered', async () => {
    const { page } = await open();
    await page.setInputFiles('#file-input', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('these are my notes\nnot an export of any cart\n') });
    await page.waitForSelector('#app[data-state="error"]');
    const text = await visibleText(page);
    expect(apiWording(text)).to.deep.equal([]);
    expect(text).to.contain('canonical JSON shape');
    await page.close();
  });
});

/** Whether two PNGs decode to the same pixels (the encoder may differ; the image may not). */
async function samePixels(page: Page, a: Buffer, b: Buffer): Promise<boolean> {
  return page.evaluate(
    // No helper functions inside the evaluated code: the test transpiler would wrap them in a helper the page lacks.
    async (images) => {
      const pixels: Uint8ClampedArray[] = [];
      for (const b64 of images) {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
        ctx.drawImage(img, 0, 0);
        pixels.push(ctx.getImageData(0, 0, img.width, img.height).data);
      }
      const [p, q] = pixels;
      if (p.length !== q.length) return false;
      for (let i = 0; i < p.length; i++) if (p[i] !== q[i]) return false;
      return true;
    },
    [a.toString('base64'), b.toString('base64')] as const,
  );
}
