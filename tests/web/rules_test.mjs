// The rules in the page (issue 26) in a real browser against the real eryantis-server:
// alice opens an Eriantys expert match against a computer at 390x844 (a phone), opens
// the Rules panel and finds the text of the current phase's topic exactly as GET
// /help/eriantys gives it (the terminal client's `help`); each character card carries
// its full text as `title` (hover) and behind its "?" (tap). Then a solo Masters of
// Renaissance match: the panel shows "setup" while leaders are chosen, and a dealt
// leader's "?" shows its full text (help L05).
// Usage (CTest passes these):
//   node rules_test.mjs --web WEBDIR --out DIR --server BIN [--chromium PATH]
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
const out = resolve(args.out ?? join(build, 'web-artifacts', 'rules'));
const chromiumPath = args.chromium ?? '/usr/bin/chromium';
const serverBin = resolve(args.server ?? join(build, 'eryantis-server'));
const kDeadlineMs = 60_000;
const started = Date.now();
const t = tally({ started, deadlineMs: kDeadlineMs, name: 'the test' });
const { check, until } = t;
mkdirSync(out, { recursive: true });


const dir = mkdtempSync(join(tmpdir(), 'eryantis-rules-test-'));
let running = null;
async function startServer() {
  running = await startWebServer({ dir, serverBin, dist, until });
  return running.base;
}

const browser = await launchChromium(web, chromiumPath);
const pages = [];
const dialogs = [];
async function newPage(name) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => check(false, `${name}: page error ${e.message}`));
  page.on('dialog', (d) => {
    dialogs.push(`${name}: ${d.type()} ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  page.name = name;
  pages.push(page);
  return page;
}

async function login(page, base, nickname) {
  await page.goto(base);
  await page.fill('input[name=nickname]', nickname);
  await page.click('form.login button[type=submit]');
  await page.waitForSelector('form.create');
}

async function help(base, game) {
  const res = await fetch(`${base}help/${game}`);
  check(res.ok && res.headers.get('content-type') === 'application/json', `GET /help/${game}: ${res.status}`);
  return res.json();
}

// The texts of the panel's "Now" part, by topic.
const nowTexts = (page) =>
  page.$$eval('.rules .rules-now', (els) => els.map((e) => [e.getAttribute('data-topic'), e.textContent]));

async function openRules(page) {
  await page.tap('.rules > summary');
  await page.waitForSelector('.rules[open] .rules-now');
}

try {
  const base = await startServer();
  const eriantys = await help(base, 'eriantys');
  const renaissance = await help(base, 'renaissance');
  const alice = await newPage('alice');
  await login(alice, base, 'alice');
  await alice.selectOption('select[name=players]', '2');
  await alice.selectOption('select[name=mode]', 'expert');
  await alice.selectOption('select[name=computers]', '1');
  await alice.click('[data-create]');
  await alice.waitForSelector('.match[data-seat="0"]');

  // Setup: choose_wizard and choose_tower_color, both explained by `help turn`.
  await openRules(alice);
  await until('the phase text', async () => (await nowTexts(alice)).length > 0);
  const now = await nowTexts(alice);
  check(JSON.stringify(now) === JSON.stringify([['turn', eriantys.topics.turn]]), `the panel shows help turn, word for word (${now.map((x) => x[0])})`);
  const topics = await alice.$$eval('.rules .rules-topic', (els) => els.map((e) => e.getAttribute('data-topic')));
  check(JSON.stringify(topics) === JSON.stringify(Object.keys(eriantys.topics)), `every topic is listed (${topics.length})`);
  check((await alice.$$('.rules img, .rules script')).length === 0, 'the panel holds text only');

  // The characters: full text on hover (title) and on tap ("?").
  await alice.waitForSelector('.characters [data-character] .card-help');
  const cards = await alice.$$eval('.characters [data-character]', (els) => els.map((e) => [e.getAttribute('data-character'), e.getAttribute('title')]));
  check(cards.length === 3, `three characters (${cards.map((c) => c[0])})`);
  const topicOf = (id) => ({ grandma_herbs: 'herbs', mushroom_hunter: 'mushroom' })[id] ?? id;
  for (const [id, title] of cards) check(title === eriantys.topics[topicOf(id)], `${id}: its title is help ${topicOf(id)}`);
  const [first] = cards[0];
  await alice.tap(`.characters [data-character="${first}"] .card-help > summary`);
  const tapped = await alice.$eval(`.characters [data-character="${first}"] .card-help[open] pre`, (e) => e.textContent);
  check(tapped === eriantys.topics[topicOf(first)], `tapping ${first}'s ? shows help ${topicOf(first)}`);
  const visible = await alice.isVisible(`.characters [data-character="${first}"] .card-help[open] pre`);
  check(visible, 'and the text is on screen');
  await alice.screenshot({ path: join(out, 'eriantys-rules.png'), fullPage: true });

  // Masters of Renaissance, solo: choosing leaders is the setup topic.
  const bob = await newPage('bob');
  await login(bob, base, 'bob');
  await bob.selectOption('select[name=game]', 'renaissance');
  await bob.selectOption('select[name=players]', '1');
  await bob.click('[data-create]');
  await bob.waitForSelector('.match[data-seat="0"] [data-dealt]');
  await openRules(bob);
  await until('the setup text', async () => (await nowTexts(bob)).some(([t]) => t === 'setup'));
  const rnow = await nowTexts(bob);
  check(rnow.every(([t, text]) => text === renaissance.topics[t]) && rnow.some(([t]) => t === 'setup'), `the panel shows help setup, word for word (${rnow.map((x) => x[0])})`);
  await bob.waitForSelector('[data-dealt][title]');
  const dealt = await bob.$$eval('[data-dealt]', (els) => els.map((e) => [Number(e.getAttribute('data-dealt')), e.getAttribute('title')]));
  const L = (id) => `L${String(id).padStart(2, '0')}`;
  for (const [id, title] of dealt) check(title === renaissance.topics[L(id)], `leader ${id}: its title is help ${L(id)}`);
  const leaderHelp = `.card-help[data-help="${L(dealt[0][0])}"]`;
  await bob.tap(`${leaderHelp} > summary`);
  const ltext = await bob.$eval(`${leaderHelp}[open] pre`, (e) => e.textContent);
  check(ltext === renaissance.topics[L(dealt[0][0])], `tapping leader ${dealt[0][0]}'s ? shows help ${L(dealt[0][0])}`);
  await bob.screenshot({ path: join(out, 'renaissance-rules.png'), fullPage: true });
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
