// Clocks for everyone (docs/protocol.md, "Clocks"; issue 26) in a real browser (Debian's
// chromium driven by playwright-core):
//   A. against the real eryantis-server: the create form offers a clock and, with one,
//      what a seat out of time gets; alice creates a "10+5" match; its header shows the
//      control as the server wrote it back ("10m+5s") and both seats' clocks, stopped
//      while the match waits for players; bob's lobby line names the clock;
//   B. on a scripted socket: a running match's state with clocks; the running clock
//      counts down on the page (its shown time goes down between two draws a second
//      apart), the other one does not, and an event's clocks replace them.
// Usage (CTest passes these):
//   node clocks_test.mjs --web WEBDIR --out DIR --server BIN [--chromium PATH]
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { launchChromium, startWebServer, tally } from './harness.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const build = resolve(args.build ?? 'build');
const web = resolve(args.web ?? 'web');
const dist = join(web, 'dist');
const out = resolve(args.out ?? join(build, 'web-artifacts', 'clocks'));
const chromiumPath = args.chromium ?? '/usr/bin/chromium';
const serverBin = resolve(args.server ?? join(build, 'eryantis-server'));
const started = Date.now();
const t = tally({ started, deadlineMs: 90_000, name: 'the test' });
const { check, until } = t;
mkdirSync(out, { recursive: true });

const dir = mkdtempSync(join(tmpdir(), 'eryantis-clocks-test-'));
let running = null;
const browser = await launchChromium(web, chromiumPath);
const pages = [];
async function newPage(name, setup = null) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  if (setup) await setup(ctx);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => check(false, `${name}: page error ${e.message}`));
  page.name = name;
  pages.push(page);
  return page;
}
async function login(page, url, nickname) {
  await page.goto(url);
  await page.fill('input[name=nickname]', nickname);
  await page.click('form.login button[type=submit]');
}

// --- B's scripted socket: logs alice back into a running clocked match 1 ----------------
const seats = [{ seat: 0, nickname: 'alice', connected: true, computer: null }, { seat: 1, nickname: 'bob', connected: true, computer: null }];
const clockState = {
  type: 'state', match: 1, game: 'cards', seq: 4, status: 'running', hash: '0000000000000000', seats,
  clock: { control: '10m+5s', on_timeout: 'skip' },
  clocks: [
    { left_ms: 600000, delay_ms: 0, running: true, untimed: false, timeouts: 0 },
    { left_ms: 432000, delay_ms: 0, running: false, untimed: false, timeouts: 0 },
  ],
  to_act: [0], allowed: [], legal: [], deadline: null, seat: 0,
  view: { viewer: 0, state: { phase: 'play', options: { players: 2 }, score: [0, 0], winner: null } },
};
function scriptedSocket({ state }) {
  sessionStorage.setItem('eryantis.nickname', 'alice');
  localStorage.setItem('eryantis.token.alice', 'a'.repeat(64));
  window.fake = { sockets: [] };
  class ScriptedSocket {
    constructor() {
      this.listeners = [];
      this.onopen = this.onmessage = this.onclose = this.onerror = null;
      window.fake.sockets.push(this);
      setTimeout(() => this.onopen?.(), 0);
    }
    addEventListener(type, fn) {
      if (type === 'message') this.listeners.push(fn);
    }
    removeEventListener() {}
    send(text) {
      const m = JSON.parse(text);
      const reply = (o) => setTimeout(() => this.deliver(JSON.stringify(o)), 0);
      if (m.type === 'hello') {
        reply({ type: 'welcome', server: 'scripted', protocol: 1, heartbeat_ms: 3600000, timeout_ms: 3600000, max_line_bytes: 65536, games: [{ name: 'cards', title: 'Cards', version: 1, min_players: 2, max_players: 2 }] });
      }
      if (m.type === 'login') {
        reply({ type: 'logged_in', id: m.id, nickname: 'alice', token: 'a'.repeat(64), match: 1, seat: 0 });
        reply(JSON.parse(state));
      }
      if (m.type === 'move_log') reply({ type: 'move_log', id: m.id, match: 1, seq: 4, lines: [], more: false });
    }
    close() {}
    deliver(text) {
      const ev = { data: text };
      for (const fn of this.listeners) fn(ev);
      this.onmessage?.(ev);
    }
  }
  window.WebSocket = ScriptedSocket;
}
async function servedFromDist(ctx) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  await ctx.route('http://clocks.invalid/**', (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path.startsWith('/api/')) return route.fulfill({ status: 404, body: 'not found' });
    try {
      const file = join(dist, path === '/' ? 'index.html' : path.slice(1));
      return route.fulfill({ status: 200, contentType: types[extname(file)] ?? 'application/octet-stream', body: readFileSync(file) });
    } catch {
      return route.fulfill({ status: 404, body: 'not found' });
    }
  });
}
const clockOf = (page, seat) => page.$eval(`[data-clock="${seat}"]`, (e) => ({ left: Number(e.dataset.leftMs), running: e.dataset.running === '1', text: e.textContent }));

try {
  // --- A. the real server ---------------------------------------------------------------
  running = await startWebServer({ dir, serverBin, dist, until });
  const base = running.base;
  const bob = await newPage('bob');
  await login(bob, base, 'bob');
  await bob.waitForSelector('form.create');
  const alice = await newPage('alice');
  await login(alice, base, 'alice');
  await alice.waitForSelector('form.create');
  check(await alice.$eval('select[name=on_timeout]', (e) => e.hidden), 'no "out of time" choice without a clock');
  await alice.selectOption('select[name=clock]', '10+5');
  check(!(await alice.$eval('select[name=on_timeout]', (e) => e.hidden)), 'the "out of time" choice with a clock');
  await alice.selectOption('select[name=on_timeout]', 'forfeit');
  await alice.click('[data-create]');
  await alice.waitForSelector('.match[data-seat="0"] [data-clock="1"]');
  const control = await alice.getAttribute('[data-clock-control]', 'data-clock-control');
  check(control === '10m+5s', `the header shows the control as the server wrote it (${control})`);
  const a0 = await clockOf(alice, 0);
  check(a0.left === 600000 && !a0.running && a0.text.includes('10:00'), `alice's clock, stopped in the lobby: ${JSON.stringify(a0)}`);
  const match = Number(await alice.getAttribute('.match', 'data-match'));
  await until("bob's lobby lists it", async () => (await bob.$$(`.lobby li[data-match="${match}"]`)).length > 0);
  const line = await bob.$eval(`.lobby li[data-match="${match}"]`, (e) => e.textContent);
  check(line.includes('clock 10m+5s'), `bob's lobby line names the clock (${line})`);
  await alice.screenshot({ path: join(out, 'clocks-lobby.png') });

  // --- B. a running clock counts down ----------------------------------------------------
  const page = await newPage('scripted alice', servedFromDist);
  await page.addInitScript(scriptedSocket, { state: JSON.stringify(clockState) });
  await page.goto('http://clocks.invalid/');
  await page.waitForSelector('.match [data-clock="0"]');
  const first = await clockOf(page, 0);
  check(first.running, `the seat to act's clock runs: ${JSON.stringify(first)}`);
  await until('the running clock goes down a second', async () => (await clockOf(page, 0)).left <= first.left - 1000, 5000, 100);
  const later = await clockOf(page, 0);
  check(later.text !== first.text, `its shown time changed: "${first.text}" then "${later.text}"`);
  const other = await clockOf(page, 1);
  check(!other.running && other.left === 432000 && other.text.includes('7:12'), `the other clock stands still: ${JSON.stringify(other)}`);
  // An event's clocks replace them: now bob's runs.
  await page.evaluate(() => window.fake.sockets.at(-1).deliver(JSON.stringify({
    type: 'event', match: 1, seq: 5, hash: '1111111111111111', event: { v: 1, type: 'noop', seat: 0 }, text: 'alice moves',
    to_act: [1], allowed: [], legal: [], deadline: null,
    clocks: [
      { left_ms: 590000, delay_ms: 0, running: false, untimed: false, timeouts: 0 },
      { left_ms: 432000, delay_ms: 0, running: true, untimed: false, timeouts: 0 },
    ],
  })));
  await until("bob's clock runs after the event", async () => (await clockOf(page, 1)).running, 5000, 50);
  const after = await clockOf(page, 0);
  check(!after.running && after.left === 590000, `alice's clock as the event told: ${JSON.stringify(after)}`);
  await page.screenshot({ path: join(out, 'clocks-running.png') });
} catch (e) {
  t.failures += 1;
  console.log(`not ok - ${e.message}`);
  for (const p of pages) await p.screenshot({ path: join(out, `failure-${p.name.replace(/\W+/g, '-')}.png`) }).catch(() => {});
  console.log(`# server log (tail):\n${(running ? running.log() : '').split('\n').slice(-30).join('\n')}`);
} finally {
  await browser.close().catch(() => {});
  if (running && running.server.exitCode === null) running.server.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${t.passes} passed, ${t.failures} failed`);
process.exit(t.failures ? 1 : 0);
