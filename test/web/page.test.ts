import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { PROJECT_ROOT } from '../../src/plugins.js';
import { PAGE_CSP } from '../../src/server/web-page.js';
import { DOMAIN, ENGINE_COLORS, EOV_SHADE, READING } from '../../web/page/plot/colors.js';
import { plain } from '../../web/page/plain.js';
import { startHarness, type Harness } from '../server/harness.js';
import { consoleErrors, launchBrowser, listen, OUTPUT_DIR, screenshot, type Browser, type Listening } from './browser.js';
import { chartLabels, expectedX, lineAt, overlaps, rgb, scanBand, scanPanel } from './page-helpers.js';

/** The nine panels in the Wasserman order (design section 7). */
const WASSERMAN_ORDER = [
  /^VE – time$/,
  /^HR and O2 pulse – time$/,
  /^VO2, VCO2 and (load|speed) – time$/,
  /^VE – VCO2$/,
  /^VCO2 and HR – VO2 \(V-slope\)$/,
  /^VE\/VO2 and VE\/VCO2 – time$/,
  /^Tidal volume – VE$/,
  /^RER – time$/,
  /^PetO2 and PetCO2 – time$/,
];
const TIME_PANELS = ['ve', 'hr-o2pulse', 'vo2-vco2-load', 'equivalents', 'rer', 'pet'];
const VENDOR_FILE = join(PROJECT_ROOT, 'formats', 'cosmed-xlsx', 'fixtures', 'pft-suite-en-breath-by-breath', 'input.xlsx');

describe('web application in Chromium', function () {
  this.timeout(180_000);
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

  async function open(width = 1280, height = 800): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width, height });
    const errors = consoleErrors(page);
    await page.goto(`${server.url}/`);
    return { page, errors };
  }

  async function loadSample(page: Page, oscillating = false): Promise<void> {
    await page.fill('#api-key', key);
    await page.click(oscillating ? '#load-sample-oscillating' : '#load-sample');
    await page.waitForSelector('#app[data-state="ready"]', { timeout: 90_000 });
  }

  async function cpetId(page: Page): Promise<string> {
    return (await page.textContent('#summary dd code')) as string;
  }

  /** How many samples the service stored for the recording the page shows. */
  async function storedSamples(page: Page): Promise<number> {
    const res = await request(h.service.app)
      .get(`/v1/cpet/${await cpetId(page)}`)
      .set('X-API-Key', key)
      .expect(200);
    return res.body.sampling.n_raw;
  }

  /** What the API itself answers for the recording the page shows (the default model, as the page asks). */
  async function apiVt(id: string): Promise<{ vt1_time_s: number; vt2_time_s: number }> {
    const res = await request(h.service.app)
      .post(`/v1/cpet/${id}/analyze`)
      .set('X-API-Key', key)
      .send({ analyses: ['vt'] })
      .expect(200);
    return res.body.results[0].findings;
  }

  function webOnlyEngines(): string[] {
    const vt = h.service.deps.plugins.analyses.find((a) => a.name === 'vt');
    return [...new Set((vt?.listModels?.('web') ?? []).filter((m) => !m.surfaces.includes('api')).map((m) => m.name))];
  }

  it('serves the page with its CSP, and every control has a label', async () => {
    const { page, errors } = await open();
    const res = await request(h.service.app).get('/').expect(200);
    expect(res.headers['content-security-policy']).to.equal(PAGE_CSP);
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll('input, button, select, progress, textarea')]
        .filter((el) => {
          const control = el as HTMLInputElement;
          const named = (control.labels?.length ?? 0) > 0 || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || (el.tagName === 'BUTTON' && el.textContent?.trim());
          return !named;
        })
        .map((el) => el.outerHTML),
    );
    expect(unlabelled).to.deep.equal([]);
    for (const section of ['#progress', '#summary', '#plot', '#thresholds', '#eov', '#substrate', '#metrics', '#export', '#report']) {
      expect(await page.locator(section).isVisible(), `${section} before any upload`).to.equal(false);
    }
    await screenshot(page, '01-start');
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('uploads the sample and draws the nine panels in the Wasserman order, VT1 and VT2 at the analysis’s times, with the domain band', async () => {
    const { page, errors } = await open();
    await loadSample(page);
    expect(await page.locator('#upload-progress').getAttribute('value')).to.equal('100');
    const titles = (await page.locator('figure.panel figcaption').allTextContents()).map((t) => t.replace(/^\d\s*/, '').trim());
    expect(titles).to.have.length(9);
    titles.forEach((t, i) => {
      expect(t).to.match(WASSERMAN_ORDER[i]);
    });
    const truth = await apiVt(await cpetId(page));
    for (const panel of TIME_PANELS) {
      for (const t of [truth.vt1_time_s, truth.vt2_time_s]) {
        const color = ENGINE_COLORS[0];
        const scan = await scanPanel(page, panel, rgb(color));
        const want = expectedX(scan, t);
        const got = lineAt(scan, want);
        expect(got, `${panel}: a ${color} line near x=${want.toFixed(1)} (columns ${scan.columns.join(',')})`).to.not.equal(null);
        expect(Math.abs((got as number) - want), `${panel} line at ${got}, analysis at ${want.toFixed(2)}`).to.be.at.most(1);
      }
      const [moderate, heavy, severe] = await scanBand(page, panel, [rgb(DOMAIN.moderate), rgb(DOMAIN.heavy), rgb(DOMAIN.severe)]);
      expect(moderate, `${panel} moderate band`).to.be.greaterThan(100);
      expect(heavy, `${panel} heavy band`).to.be.greaterThan(100);
      expect(severe, `${panel} severe band`).to.be.greaterThan(10);
    }
    const header = await page.locator('#thresholds-table thead').textContent();
    for (const engine of webOnlyEngines()) expect(header).to.contain(engine);
    expect(webOnlyEngines()).to.not.be.empty;
    expect(await page.locator('#thresholds-table tbody td[data-role="alternative"]').first().textContent()).to.equal('ok');
    expect(await page.locator('#summary').textContent()).to.contain('canonical-json');
    expect(await page.locator('#metrics-table tbody tr').count()).to.equal(h.service.deps.metrics.list().length);
    await screenshot(page, '02-sample-page');
    await screenshot(page, '03-summary', '#summary');
    await screenshot(page, '04-plot', '#plot');
    await screenshot(page, '05-thresholds', '#thresholds');
    await screenshot(page, '06-substrate', '#substrate');
    await screenshot(page, '07-metrics', '#metrics');
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('marks EOV as research beta and shades the event of the oscillating sample', async () => {
    const { page, errors } = await open();
    await loadSample(page, true);
    const text = (await page.locator('#eov').textContent()) as string;
    expect(text).to.contain('research · beta').and.contain('Period').and.contain('Amplitude').and.contain('fired');
    // The canvas is transparent, so the event's translucent fill reads back as its colour with its alpha.
    const [r, g, b, alpha] = (EOV_SHADE.strong.match(/[\d.]+/g) as string[]).map(Number);
    const shaded = await page.evaluate(
      ([r, g, b, a]) => {
        const canvas = document.querySelector('#eov canvas') as HTMLCanvasElement;
        const data = (canvas.getContext('2d') as CanvasRenderingContext2D).getImageData(0, 0, canvas.width, canvas.height).data;
        let n = 0;
        for (let i = 0; i < data.length; i += 4) {
          if (Math.abs(data[i] - r) <= 3 && Math.abs(data[i + 1] - g) <= 3 && Math.abs(data[i + 2] - b) <= 3 && Math.abs(data[i + 3] - a) <= 3) n++;
        }
        return n;
      },
      [r, g, b, Math.round(alpha * 255)] as const,
    );
    expect(shaded).to.be.greaterThan(1000);
    await screenshot(page, '08-eov', '#eov');
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('uploads a real vendor file and shows what it lacks, with the reason', async () => {
    const { page, errors } = await open();
    await page.fill('#api-key', key);
    await page.setInputFiles('#file-input', VENDOR_FILE);
    await page.waitForSelector('#app[data-state="ready"]', { timeout: 90_000 });
    expect(await page.locator('figure.panel').count()).to.equal(9);
    expect(await page.locator('#summary').textContent())
      .to.contain('cosmed-xlsx')
      .and.contain('reading zero throughout');
    expect(await page.locator('figure[data-panel="hr-o2pulse"] .panel-empty').textContent()).to.contain('HR');
    await screenshot(page, '09-vendor-summary', '#summary');
    await screenshot(page, '09-vendor-plot', '#plot');
    await screenshot(page, '09-vendor-thresholds', '#thresholds');
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('takes a file dropped on the drop zone', async () => {
    const { page, errors } = await open();
    await page.fill('#api-key', key);
    const sample = (await request(h.service.app).get('/v1/sample?oscillating=true').expect(200)).body as { filename: string; content: string };
    const transfer = await page.evaluateHandle(
      ([name, content]) => {
        const data = new DataTransfer();
        data.items.add(new File([content], name, { type: 'application/json' }));
        return data;
      },
      [sample.filename, sample.content] as const,
    );
    await page.dispatchEvent('#drop-zone', 'dragover', { dataTransfer: transfer });
    await page.dispatchEvent('#drop-zone', 'drop', { dataTransfer: transfer });
    await page.waitForSelector('#app[data-state="ready"]', { timeout: 90_000 });
    expect(await page.locator('#summary').textContent()).to.contain(sample.filename);
    expect(await page.locator('figure.panel').count()).to.equal(9);
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('shows an unsupported file’s error with the canonical shape to convert into', async () => {
    const { page, errors } = await open();
    await page.fill('#api-key', key);
    await page.setInputFiles('#file-input', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('these are my notes\nnot an export of any cart\n') });
    await page.waitForSelector('#app[data-state="error"]');
    const box = page.locator('#errors .error-box');
    expect(await box.getAttribute('data-error')).to.equal('UNSUPPORTED_FORMAT');
    const text = (await box.textContent()) as string;
    expect(text).to.contain('What would work').and.contain('canonical JSON shape').and.contain('"time_s"');
    await screenshot(page, '10-unsupported-file', '#start');
    // The refused upload is the only failed request; Chromium logs it as a console error.
    expect(errors.filter((e) => !/status of 422/.test(e))).to.deep.equal([]);
    await page.close();
  });

  it('uploads with the keyboard alone, and zooms and reads with it', async () => {
    const { page, errors } = await open();
    const focusNext = async (id: string) => {
      for (let i = 0; i < 20; i++) {
        await page.keyboard.press('Tab');
        if ((await page.evaluate(() => document.activeElement?.id)) === id) return;
      }
      throw new Error(`Tab never reached #${id}`);
    };
    await focusNext('api-key');
    await page.keyboard.type(key);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('key-status')?.textContent?.includes('kept for this tab'));
    await focusNext('file-input');
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Space');
    const sample = (await request(h.service.app).get('/v1/sample').expect(200)).body as { filename: string; content: string };
    await (await chooser).setFiles({ name: sample.filename, mimeType: 'application/json', buffer: Buffer.from(sample.content) });
    await page.waitForSelector('#app[data-state="ready"]', { timeout: 90_000 });
    expect(await page.locator('figure.panel').count()).to.equal(9);
    const before = await page.getAttribute('figure[data-panel="ve"]', 'data-x-max');
    await focusNext('zoom-in');
    await page.keyboard.press('Enter');
    await page.waitForFunction((was) => document.querySelector('figure[data-panel="rer"]')?.getAttribute('data-x-max') !== was, before);
    await focusNext('reading-time');
    await page.keyboard.press('ArrowRight');
    expect(await page.locator('#reading-readout').textContent())
      .to.contain('Reading aid at')
      .and.contain("not the model's answer");
    await screenshot(page, '11-keyboard-upload');
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('drags a threshold line to read values there without moving the model’s line or entering any export', async () => {
    const { page, errors } = await open();
    await loadSample(page);
    const truth = await apiVt(await cpetId(page));
    const readDownload = async (button: string) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
      return readFileSync((await download.path()) as string);
    };
    const jsonBefore = JSON.parse((await readDownload('#export-json')).toString('utf8'));
    await page.locator('figure[data-panel="ve"]').scrollIntoViewIfNeeded();
    const scan = await scanPanel(page, 've', rgb(ENGINE_COLORS[0]));
    const canvasBox = (await page.locator('figure[data-panel="ve"] canvas').boundingBox())!;
    const overBox = (await page.locator('figure[data-panel="ve"] .u-over').boundingBox())!;
    const k = scan.width / overBox.width;
    const x = canvasBox.x + expectedX(scan, truth.vt1_time_s) / k;
    const y = overBox.y + overBox.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 40, y, { steps: 5 });
    await page.mouse.up();
    const readout = (await page.locator('#reading-readout').textContent()) as string;
    expect(readout)
      .to.match(/Reading aid at \d+:\d\d/)
      .and.contain('VO2')
      .and.contain('HR')
      .and.contain('load')
      .and.contain('of VO2peak');
    const after = await scanPanel(page, 've', rgb(ENGINE_COLORS[0]));
    expect(Math.abs((lineAt(after, expectedX(after, truth.vt1_time_s)) ?? -99) - expectedX(after, truth.vt1_time_s))).to.be.at.most(1);
    const jsonAfter = JSON.parse((await readDownload('#export-json')).toString('utf8'));
    delete jsonBefore.generated_at;
    delete jsonAfter.generated_at;
    expect(jsonAfter).to.deep.equal(jsonBefore);
    expect(jsonAfter.recording.cpet_id).to.equal(await cpetId(page));
    expect(jsonAfter.disclaimer).to.contain('not a diagnosis');
    const csv = (await readDownload('#export-csv')).toString('utf8');
    expect(csv.split('\r\n')[0]).to.equal('section,item,value,unit,note');
    expect(csv).to.contain(`VT1 time,${truth.vt1_time_s},s`).and.contain('not a diagnosis');
    expect(csv).to.not.contain('Reading aid');
    const recording = (await readDownload('#export-recording')).toString('utf8').split('\n');
    const header = recording.find((line) => !line.startsWith('#')) as string;
    expect(header.split(',')).to.include.members(['t_s', 'VO2_ml_min', 'phase', 'flags']);
    expect(recording.filter((line) => line && !line.startsWith('#')).length - 1, 'one row per stored sample').to.equal(await storedSamples(page));
    const png = await readDownload('#export-png');
    expect(png.subarray(0, 8).toString('hex')).to.equal('89504e470d0a1a0a');
    const readingPixels = (image: string) =>
      page.evaluate(
        async ([src, [r, g, b]]) => {
          const img = new Image();
          img.src = src;
          await img.decode();
          const canvas = document.createElement('canvas');
          canvas.width = img.width;
          canvas.height = img.height;
          const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
          ctx.drawImage(img, 0, 0);
          const data = ctx.getImageData(0, 0, img.width, img.height).data;
          let n = 0;
          for (let i = 0; i < data.length; i += 4) if (data[i] === r && data[i + 1] === g && data[i + 2] === b && data[i + 3] === 255) n++;
          return n;
        },
        [image, rgb(READING)] as const,
      );
    const onScreen = await page.locator('figure[data-panel="ve"] canvas').evaluate((c) => (c as HTMLCanvasElement).toDataURL('image/png'));
    expect(await readingPixels(onScreen), 'the reading line is drawn on the page').to.be.greaterThan(50);
    expect(await readingPixels(`data:image/png;base64,${png.toString('base64')}`), 'the reading line in the exported PNG').to.equal(0);
    writeFileSync(join(OUTPUT_DIR, '12-export-plot.png'), png);
    await screenshot(page, '13-reading-aid', '#plot');
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('prints a one-page report with every note of the analyses and the research-software disclaimer', async () => {
    const { page, errors } = await open();
    await loadSample(page);
    const id = await cpetId(page);
    const all = await request(h.service.app).post(`/v1/cpet/${id}/analyze`).set('X-API-Key', key).send({}).expect(200);
    // The button's window.print() would open Chromium's own print job, which then refuses page.pdf
    // ("Page is already being printed"); the test counts the call and prints through page.pdf alone.
    await page.evaluate(() => {
      (window as unknown as { printCalls: number }).printCalls = 0;
      window.print = () => void (window as unknown as { printCalls: number }).printCalls++;
    });
    await page.click('#print-report');
    await page.waitForSelector('#report[data-ready="true"]', { state: 'attached' });
    await page.waitForFunction(() => (window as unknown as { printCalls: number }).printCalls === 1);
    await page.emulateMedia({ media: 'print' });
    const report = (await page.locator('#report').textContent()) as string;
    expect(report).to.contain('Research software: the output is not a diagnosis');
    for (const envelope of all.body.results) for (const note of envelope.notes as string[]) expect(report, note).to.contain(plain(note));
    expect(report).to.contain('corroborate').and.contain('upper bound').and.contain('beta');
    const pdf = await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
    writeFileSync(join(OUTPUT_DIR, '14-report.pdf'), pdf);
    expect((pdf.toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length, 'pages in the printed report').to.equal(1);
    await screenshot(page, '14-report');
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('is readable at phone width without scrolling sideways', async () => {
    const { page, errors } = await open(390, 844);
    await loadSample(page);
    const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(scrollWidth).to.be.at.most(innerWidth);
    for (const box of await page.locator('figure.panel').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right))) expect(box).to.be.at.most(390);
    // Narrow panels stack the labels in more rows; still none may overlap.
    for (const chart of await chartLabels(page)) expect(overlaps(chart.boxes), chart.panel).to.deep.equal([]);
    await screenshot(page, '15-phone-top', undefined);
    await page.locator('#plot').scrollIntoViewIfNeeded();
    await screenshot(page, '16-phone-plot', 'figure[data-panel="ve"]');
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('keeps the session cookie from acting for another origin of the same site, and from another site', async () => {
    const { page } = await open();
    await loadSample(page);
    const id = await cpetId(page);
    const used = async () => (await request(h.service.app).get('/v1/capabilities').set('X-API-Key', key).expect(200)).body.usage.units_used as number;
    const unitsBefore = await used();
    const other = await listen((_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end('<!doctype html><title>another origin</title><p>another origin</p>');
    });
    try {
      const sameSite = await browser.context.newPage();
      await sameSite.goto(`${other.url}/`);
      const target = `${server.url}/v1/web/cpet/${id}/analyze`;
      server.log.length = 0;
      // No helper functions inside the evaluated code: the test transpiler would wrap them in a helper the page lacks.
      const outcomes = await sameSite.evaluate(async (url) => {
        const out: string[] = [];
        const attempts: [string, RequestInit][] = [
          ['simple', { method: 'POST', mode: 'no-cors', credentials: 'include', body: '{"analyses":["vt"]}', headers: { 'Content-Type': 'text/plain' } }],
          ['guessed token', { method: 'POST', credentials: 'include', body: '{}', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': 'guess' } }],
        ];
        for (const [label, init] of attempts) {
          try {
            const r = await fetch(url, init);
            out.push(`${label}: ${r.type} ${r.status}`);
          } catch (e) {
            out.push(`${label}: ${(e as Error).name}`);
          }
        }
        const form = document.createElement('form');
        form.method = 'POST';
        form.action = url;
        form.target = 'sink';
        const frame = document.createElement('iframe');
        frame.name = 'sink';
        document.body.append(frame, form);
        const loaded = new Promise<void>((resolve) => frame.addEventListener('load', () => resolve(), { once: true }));
        form.submit();
        await loaded;
        return out;
      }, target);
      const reached = server.log.filter((r) => r.path.startsWith('/v1/web/'));
      // The no-cors post and the form post reach the server carrying the cookie (SameSite does not
      // separate two origins of one site) and are refused; the guessed token never leaves the browser.
      expect(reached.filter((r) => r.method === 'POST').map((r) => [r.status, r.headers['sec-fetch-site'], Boolean(r.headers.cookie)])).to.deep.equal([
        [403, 'same-site', true],
        [403, 'same-site', true],
      ]);
      expect(reached.filter((r) => r.method === 'OPTIONS').every((r) => r.status === 405)).to.equal(true);
      expect(outcomes).to.deep.equal(['simple: opaque 0', 'guessed token: TypeError']);
      const crossSite = await browser.context.newPage();
      await crossSite.goto(`${other.url.replace('127.0.0.1', 'localhost')}/`);
      server.log.length = 0;
      await crossSite.evaluate(async (url) => {
        await fetch(url, { method: 'POST', mode: 'no-cors', credentials: 'include', body: '{}', headers: { 'Content-Type': 'text/plain' } }).catch(() => undefined);
      }, target);
      expect(server.log.filter((r) => r.path.startsWith('/v1/web/')).map((r) => [r.status, Boolean(r.headers.cookie)])).to.deep.equal([[403, false]]);
      expect(await used()).to.equal(unitsBefore);
      await sameSite.close();
      await crossSite.close();
    } finally {
      await other.close();
    }
    await page.close();
  });
});
