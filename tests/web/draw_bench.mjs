// The draw benchmark: the same recorded server messages (a spectator's state, then
// its events) played into several builds or modes of the web client in one browser,
// each page on a fake WebSocket, timing every event from its message to its board
// drawn (the client's own `window.eryantisLivePerf`: JSON, model, DOM, style,
// layout). Variants take turns every few events, so a loaded machine slows them
// alike and their ratio is the figure to keep.
//
// Used by browser_test.mjs (in-place updates against `?redraw=full`, the old full
// rebuild, on the frames of its 4-player watcher), and by hand:
//   node tests/web/draw_bench.mjs --frames build/web-artifacts/frames-4p-expert.json \
//     --variant new=web/dist --variant full=web/dist?redraw=full [--variant old=/tmp/old/dist] \
//     [--web web] [--chromium /usr/bin/chromium] [--events N] [--rounds R]
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const kTypes = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };
const kChunk = 10; // events per turn of a variant

// frames: the server messages a spectator received (JSON texts); returns the first
// `state` and the events that follow it one seq at a time.
export function spectatorScript(frames) {
  const msgs = frames.map((f) => JSON.parse(f));
  const start = msgs.findIndex((m) => m.type === 'state' && m.view);
  if (start < 0) return null;
  const state = msgs[start];
  const events = [];
  let seq = state.seq;
  for (const m of msgs.slice(start + 1)) {
    if (m.type !== 'event' || m.match !== state.match) continue;
    if (m.seq !== seq + 1) break;
    events.push(JSON.stringify(m));
    seq = m.seq;
  }
  return { match: state.match, state: JSON.stringify(state), events };
}

// The page's WebSocket: answers hello with welcome and spectate with the recorded
// state; the benchmark delivers the events (listeners first, then onmessage, as a
// real socket does for the client's order of registration).
function fakeSocket({ match, state }) {
  sessionStorage.setItem('eryantis.watching', String(match));
  class BenchSocket {
    constructor() {
      this.listeners = [];
      this.onopen = this.onmessage = this.onclose = this.onerror = null;
      window.benchSocket = this;
      setTimeout(() => this.onopen?.(), 0);
    }
    addEventListener(type, fn) {
      if (type === 'message') this.listeners.push(fn);
    }
    removeEventListener() {}
    send(text) {
      const m = JSON.parse(text);
      const welcome = { type: 'welcome', server: 'draw-bench', protocol: 1, heartbeat_ms: 3600000, timeout_ms: 3600000 };
      if (m.type === 'hello') setTimeout(() => this.deliver(JSON.stringify(welcome)), 0);
      if (m.type === 'spectate') setTimeout(() => this.deliver(state), 0);
    }
    close() {}
    deliver(text) {
      const ev = { data: text };
      for (const fn of this.listeners) fn(ev);
      this.onmessage?.(ev);
    }
  }
  window.WebSocket = BenchSocket;
}

// The page's match screen as text: tags, attributes in name order, texts. Two ways of
// drawing the same messages must give the same text (attribute order may differ).
function canonicalPage() {
  const walk = (n) => {
    if (n.nodeType === 3) return n.nodeValue;
    if (n.nodeType !== 1) return '';
    const attrs = [...n.attributes].map((a) => `${a.name}="${a.value}"`).sort().join(' ');
    return `<${n.nodeName} ${attrs}>${[...n.childNodes].map(walk).join('')}</${n.nodeName}>`;
  };
  const m = document.querySelector('.match');
  return m ? walk(m) : '';
}

function summary(xs) {
  const v = [...xs].sort((a, b) => a - b);
  const at = (q) => v[Math.min(v.length - 1, Math.floor(v.length * q))];
  return { n: v.length, min: v[0], median: at(0.5), p95: at(0.95), max: v[v.length - 1] };
}

// variants: [{name, dist, query}]; returns {name: summary} plus ratios against the first.
export async function drawBench(browser, { script, variants, events = Infinity, rounds = 1, viewport = { width: 1280, height: 720 } }) {
  const list = script.events.slice(0, events);
  const pages = [];
  for (const v of variants) {
    const ctx = await browser.newContext({ viewport });
    await ctx.route('http://bench.invalid/**', (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path.startsWith('/api/')) return route.fulfill({ status: 404, body: 'not found' });
      const file = join(v.dist, path === '/' ? 'index.html' : path.slice(1));
      try {
        return route.fulfill({ status: 200, contentType: kTypes[extname(file)] ?? 'application/octet-stream', body: readFileSync(file) });
      } catch {
        return route.fulfill({ status: 404, body: 'not found' });
      }
    });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => console.log(`# draw bench ${v.name}: page error ${e.message}`));
    await page.addInitScript(fakeSocket, { match: script.match, state: script.state });
    // Main-thread CPU time (Chrome's ThreadTime): other processes on a loaded machine
    // stretch wall-clock times but not this. It includes style, layout and paint.
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Performance.enable');
    const cpu = async () => (await cdp.send('Performance.getMetrics')).metrics.find((x) => x.name === 'ThreadTime')?.value ?? NaN;
    pages.push({ v, page, ms: [], cpu, cpuMs: 0 });
  }
  for (let r = 0; r < rounds; ++r) {
    for (const p of pages) {
      await p.page.goto(`http://bench.invalid/${p.v.query ?? ''}`);
      await p.page.waitForSelector('.match svg.table', { timeout: 20_000 });
      await p.page.evaluate(() => window.eryantisLivePerf.splice(0));
    }
    for (let i = 0, turn = 0; i < list.length; i += kChunk, ++turn) {
      const chunk = list.slice(i, i + kChunk);
      // Alternate who goes first, so neither always follows the other's garbage.
      const order = turn % 2 === 0 ? pages : [...pages].reverse();
      for (const p of order) {
        const c0 = await p.cpu();
        await p.page.evaluate(async (texts) => {
          for (const t of texts) {
            window.benchSocket.deliver(t);
            // A frame between events, as between the server's messages: paint and GC run.
            await new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
          }
        }, chunk);
        p.cpuMs += 1000 * ((await p.cpu()) - c0);
      }
    }
    for (const p of pages) {
      p.ms.push(...(await p.page.evaluate(() => window.eryantisLivePerf.map((x) => x.ms))));
      p.dom = await p.page.evaluate(canonicalPage);
      if (p.dom.length < 1000) throw new Error(`draw bench ${p.v.name}: no match screen drawn`);
    }
  }
  const out = {};
  for (const p of pages) out[p.v.name] = { ...summary(p.ms), cpu_per_event: p.cpuMs / (list.length * rounds) };
  // Variants of one build must end on the same page (in place = rebuilt).
  const differ = [];
  for (const p of pages) {
    const twin = pages.find((q) => q.v.dist === p.v.dist);
    if (twin !== p && twin.dom !== p.dom) differ.push(`${p.v.name} != ${twin.v.name}`);
  }
  for (const p of pages) await p.page.context().close();
  const base = out[variants[0].name];
  for (const v of variants.slice(1)) {
    const o = out[v.name];
    o.median_ratio = o.median / base.median;
    o.p95_ratio = o.p95 / base.p95;
    o.cpu_ratio = o.cpu_per_event / base.cpu_per_event;
  }
  return { result: out, differ };
}

export function formatBench(result) {
  return Object.entries(result)
    .map(([name, s]) => `${name}: ${s.n} events, min ${s.min.toFixed(1)} median ${s.median.toFixed(1)} p95 ${s.p95.toFixed(1)} max ${s.max.toFixed(1)} ms, main-thread CPU ${s.cpu_per_event.toFixed(1)} ms per event${s.median_ratio ? ` (median x${s.median_ratio.toFixed(2)}, p95 x${s.p95_ratio.toFixed(2)}, CPU x${s.cpu_ratio.toFixed(2)} of the first)` : ''}`)
    .join('\n');
}

// --- by hand ---------------------------------------------------------------------------
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argv = process.argv.slice(2);
  const opt = (k, d) => (argv.includes(`--${k}`) ? argv[argv.indexOf(`--${k}`) + 1] : d);
  const variants = argv
    .flatMap((a, i) => (a === '--variant' ? [argv[i + 1]] : []))
    .map((s) => {
      const name = s.slice(0, s.indexOf('='));
      const [dist, query] = s.slice(s.indexOf('=') + 1).split('?');
      return { name, dist: resolve(dist), query: query ? `?${query}` : '' };
    });
  if (!variants.length || !argv.includes('--frames')) {
    console.error('usage: draw_bench.mjs --frames FILE --variant NAME=DIST[?QUERY]... [--web DIR] [--chromium PATH] [--events N] [--rounds R]');
    process.exit(2);
  }
  const require = createRequire(join(resolve(opt('web', 'web')), 'package.json'));
  const { chromium } = require('playwright-core');
  const script = spectatorScript(JSON.parse(readFileSync(opt('frames'), 'utf8')));
  if (!script) throw new Error('no spectator state in the frames');
  const browser = await chromium.launch({ executablePath: opt('chromium', '/usr/bin/chromium'), args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    const { result, differ } = await drawBench(browser, { script, variants, events: Number(opt('events', 'Infinity')), rounds: Number(opt('rounds', '1')) });
    console.log(formatBench(result));
    console.log(differ.length ? `pages differ: ${differ.join(', ')}` : 'pages of the same build are equal');
    console.log(JSON.stringify(result));
    if (differ.length) process.exitCode = 1;
  } finally {
    await browser.close();
  }
}
