// A computer takes the seat (docs/accounts.md; issue 26) in a real browser (Debian's
// chromium driven by playwright-core) against the real eryantis-server: the create
// form offers "if a player leaves" only for 3 or 4 players; alice creates a 3-player
// match whose leavers' seats a greedy computer takes; carol's lobby line says so
// before she joins. (The board's "Leave (a computer takes your seat)" button and the
// seat switch itself are covered by web/test/computers.test.ts and the server tests.)
// Usage (CTest passes these):
//   node takeover_test.mjs --web WEBDIR --out DIR --server BIN [--chromium PATH]
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchChromium, startWebServer, tally } from './harness.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const build = resolve(args.build ?? 'build');
const web = resolve(args.web ?? 'web');
const dist = join(web, 'dist');
const out = resolve(args.out ?? join(build, 'web-artifacts', 'takeover'));
const chromiumPath = args.chromium ?? '/usr/bin/chromium';
const serverBin = resolve(args.server ?? join(build, 'eryantis-server'));
const started = Date.now();
const t = tally({ started, deadlineMs: 90_000, name: 'the test' });
const { check, until } = t;
mkdirSync(out, { recursive: true });

const dir = mkdtempSync(join(tmpdir(), 'eryantis-takeover-test-'));
let running = null;
const browser = await launchChromium(web, chromiumPath);
const pages = [];
async function newPage(name) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
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

try {
  running = await startWebServer({ dir, serverBin, dist, until });
  const base = running.base;
  const carol = await newPage('carol');
  await login(carol, base, 'carol');
  await carol.waitForSelector('form.create');

  const alice = await newPage('alice');
  await login(alice, base, 'alice');
  await alice.waitForSelector('form.create');
  await alice.selectOption('select[name=players]', '2');
  check(await alice.$eval('select[name=takeover]', (e) => e.hidden), 'no takeover choice for 2 players');
  await alice.selectOption('select[name=players]', '3');
  check(!(await alice.$eval('select[name=takeover]', (e) => e.hidden)), 'the takeover choice for 3 players');
  await alice.selectOption('select[name=takeover]', 'greedy');
  await alice.click('[data-create]');
  await alice.waitForSelector('.match[data-seat="0"]');
  const match = Number(await alice.getAttribute('.match', 'data-match'));
  check(match > 0, `alice created match ${match}`);

  await until("carol's lobby lists it", async () => (await carol.$$(`.lobby li[data-match="${match}"]`)).length > 0);
  const line = await carol.$eval(`.lobby li[data-match="${match}"]`, (e) => e.textContent);
  check(line.includes("a greedy computer takes a leaver's seat"), `carol's lobby line says so (${line})`);
  await carol.screenshot({ path: join(out, 'takeover-lobby.png') });
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
