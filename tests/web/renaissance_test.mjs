// Masters of Renaissance's board module (web/src/boards/renaissance/) in a real browser
// (Debian's chromium driven by playwright-core; no browser is downloaded), on the real
// eryantis-server with a real SQLite file. Every move is a click on the board, never JSON:
//   S. solo: alice plays against Lorenzo to the end (the game over shows the scores and
//      whether Lorenzo won); then the replay viewer (`eryantis-replay DB serve`) shows the
//      match on this board, inert, stepping with the arrow keys;
//   T. two players: alice and bob in two pages to the end; mid-game the server is
//      SIGKILLed and restarted on the same SQLite file, and both pages carry on; at
//      1366x768 and 390x844 nothing overflows the page sideways, and on the phone
//      alice's own board comes first;
//   F. four players: alice and three computers (the lobby's "3 computers") to the end.
// A player's policy (the same for every page, random choices from --seed): the setup
// choices, then activate a leader when offered, buy a card when one is highlighted, now
// and then produce, else take a market line, else end the turn; a choice panel (what the
// warehouse keeps, the slot) takes its first, default option.
// Usage (CTest passes these):
//   node renaissance_test.mjs --web WEBDIR --out DIR --server BIN [--replay BIN]
//     [--chromium PATH] [--seed N] [--only STF] [--verbose 1] [--viewport WxH]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, launchChromium, seededRandom, sleep, tally } from './harness.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const build = resolve(args.build ?? 'build');
const web = resolve(args.web ?? 'web');
const dist = join(web, 'dist');
const out = resolve(args.out ?? join(build, 'web-artifacts', 'renaissance'));
const chromiumPath = args.chromium ?? '/usr/bin/chromium';
const serverBin = resolve(args.server ?? join(build, 'eryantis-server'));
const replayBin = args.replay ? resolve(args.replay) : null;
const only = args.only ?? 'STF';
const seed = Number(args.seed ?? Date.now() % 1_000_000);
const kDeadlineMs = 270_000; // ctest's TIMEOUT is 300 s
const kMaxClicks = 3000; // per game: a game is about 100-400 clicks
const started = Date.now();
const t = tally({ started, deadlineMs: kDeadlineMs, name: 'the test' });
const { check, until } = t;
const random = seededRandom(seed);
mkdirSync(out, { recursive: true });
console.log(`renaissance test: seed ${seed} (rerun with --seed ${seed})`);

const pick = (list) => list[Math.floor(random() * list.length)];

const browser = await launchChromium(web, chromiumPath);
// --viewport 390x844: every page at that size (to look at the screenshots of a phone).
const [vw, vh] = (args.viewport ?? '1366x768').split('x').map(Number);
async function newPage(name, viewport = { width: vw, height: vh }) {
  const ctx = await browser.newContext({ viewport });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => check(false, `${name}: page error ${e.message}`));
  page.name = name;
  return page;
}

// --- the server: one per part, each on its own SQLite file, restartable on it ---------

const dir = mkdtempSync(join(tmpdir(), 'eryantis-renaissance-test-'));
const servers = [];
let serverLog = '';

async function newServer(db) {
  const tcpPort = await freePort();
  const webPort = await freePort();
  const config = join(dir, `${db}.toml`);
  // Timers far away: nothing is skipped or forfeited while a page reconnects.
  writeFileSync(config, `[network]
listen = "127.0.0.1"
port = ${tcpPort}

[storage]
database = "${join(dir, db)}"

[matches]
turn_grace_ms = 600000
forfeit_after_ms = 600000

[computer]
# The computers move as soon as they have decided (a person would want 800 ms to follow).
pause_ms = 50

[web]
enabled = true
listen = "127.0.0.1"
port = ${webPort}
static_dir = "${dist}"
`);
  const base = `http://127.0.0.1:${webPort}/`;
  const s = { base, db, proc: null };
  s.start = async () => {
    const proc = spawn(serverBin, ['--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    s.proc = proc;
    servers.push(proc);
    serverLog = '';
    proc.stdout.on('data', (d) => (serverLog += d));
    proc.stderr.on('data', (d) => (serverLog += d));
    await until('the web listener', async () => {
      if (proc.exitCode !== null) throw new Error(`${serverBin} exited (${proc.exitCode}):\n${serverLog}`);
      try {
        return (await fetch(base)).ok;
      } catch {
        return false;
      }
    }, 10_000, 100);
  };
  s.kill = (signal) => new Promise((res) => {
    if (!s.proc || s.proc.exitCode !== null) return res();
    s.proc.once('exit', () => res());
    s.proc.kill(signal);
  });
  await s.start();
  return s;
}

async function login(page, url, nickname) {
  await page.goto(url);
  await page.fill('input[name=nickname]', nickname);
  await page.click('form.login button[type=submit]');
  await page.waitForSelector('form.create');
}

async function createMatch(page, players, computers = 0) {
  await page.selectOption('select[name=game]', 'renaissance');
  await page.selectOption('select[name=players]', String(players));
  await page.selectOption('select[name=computers]', String(computers));
  if (computers) await page.selectOption('select[name=level]', 'greedy');
  await page.click('[data-create]');
  await page.waitForSelector('.match[data-seat="0"] .ren-board');
  return Number(await page.getAttribute('.match', 'data-match'));
}

// --- what a page shows, and one click of the policy --------------------------------------

function where(page) {
  return page.evaluate(() => {
    const q = (sel) => [...document.querySelectorAll(sel)];
    const enabled = (sel) => q(sel).filter((b) => !b.disabled);
    return {
      seq: Number(document.querySelector('.match')?.getAttribute('data-seq') ?? -1),
      over: document.querySelector('[data-game-over]') !== null,
      offline: document.querySelector('[data-connection]') !== null,
      choice: document.querySelector('[data-choice]')?.getAttribute('data-choice') ?? null,
      picked: q('[data-dealt][aria-pressed="true"]').length,
      dealt: q('[data-dealt]').map((b) => b.getAttribute('data-dealt')),
      keep: enabled('[data-keep]').length > 0,
      initial: q('[data-initial]').length,
      marketOptions: q('[data-market-option]').length,
      marketMore: q('[data-market-more]').length > 0,
      buySlots: q('[data-buy-slot]').map((b) => b.getAttribute('data-buy-slot')),
      produceSend: enabled('[data-produce-send]').length > 0,
      activate: q('[data-activate]').map((b) => b.getAttribute('data-activate')),
      discard: q('[data-discard]').map((b) => b.getAttribute('data-discard')),
      arrange: q('[data-open="arrange"]').length > 0,
      arrangeOptions: q('[data-arrange]').length,
      buy: q('[data-buy]').map((b) => b.getAttribute('data-buy')),
      lines: enabled('.mk-arrow').map((b) => `${b.getAttribute('data-line')}:${b.getAttribute('data-index')}`),
      produce: q('[data-open="produce"]').length > 0,
      endTurn: q('[data-end-turn]').length > 0,
      notice: document.querySelector('.notice')?.textContent ?? null,
    };
  });
}
const shots = new Set();
const sigOf = (w) => JSON.stringify([w.seq, w.choice, w.picked, w.over, w.marketOptions]);

const stats = { clicks: 0, bought: 0, market: 0, produced: 0, activated: 0, discarded: 0, arranged: 0, ended: 0 };
// One click of the policy on `page`; false when it has nothing to click.
async function step(page) {
  const w = await where(page);
  if (w.over || w.offline) return false;
  let sel = null;
  let what = '';
  if (w.choice === 'leaders') {
    if (w.keep && w.picked === 2) [sel, what] = ['[data-keep]', 'keep'];
    else [sel, what] = [`[data-dealt="${w.dealt.filter((d) => d)[w.picked]}"]`, 'pick a leader'];
  } else if (w.choice === 'initial') [sel, what] = [`[data-initial="${Math.floor(random() * w.initial)}"]`, 'initial'];
  else if (w.choice === 'market' && w.marketMore && random() < 0.3) [sel, what] = ['[data-market-more]', 'keep less'];
  else if (w.choice === 'market') [sel, what] = ['[data-market-option="0"]', 'market'];
  else if (w.choice === 'buy') [sel, what] = [`[data-buy-slot="${w.buySlots[0]}"]`, 'buy'];
  else if (w.choice === 'arrange') [sel, what] = [`[data-arrange="${Math.floor(random() * w.arrangeOptions)}"]`, 'arrange'];
  else if (w.choice === 'produce') [sel, what] = [w.produceSend ? '[data-produce-send]' : '[data-cancel]', w.produceSend ? 'produce' : 'cancel'];
  else if (page.discardLeaders && w.discard.length) [sel, what] = [`[data-discard="${w.discard[0]}"]`, 'discard'];
  else if (w.activate.length) [sel, what] = [`[data-activate="${w.activate[0]}"]`, 'activate'];
  else if (w.arrange && w.endTurn && random() < 0.3) [sel, what] = ['[data-open="arrange"]', 'open arrange'];
  else if (w.buy.length) [sel, what] = [`[data-buy="${pick(w.buy)}"]`, 'buy'];
  else if (w.produce && random() < 0.2) [sel, what] = ['[data-open="produce"]', 'open produce'];
  else if (w.lines.length) {
    const [line, index] = pick(w.lines).split(':');
    [sel, what] = [`.mk-arrow[data-line="${line}"][data-index="${index}"]`, 'market'];
  } else if (w.endTurn) [sel, what] = ['[data-end-turn]', 'end'];
  if (!sel) return false;
  if (args.verbose) console.log(`# ${page.name} at ${w.seq}: ${what} (${sel})`);
  await page.click(sel, { timeout: 10_000 });
  stats.clicks += 1;
  // The click is answered: a choice on the page alone (a leader picked, a panel opened or
  // closed) by the page; a command by the server's event (the panel closes at once, before
  // it); a market line or a card by either (a panel of choices opens, or it was sent).
  const local = ['pick a leader', 'open produce', 'open arrange', 'keep less', 'cancel'].includes(what);
  const either = sel.startsWith('.mk-arrow') || sel.startsWith('[data-buy=');
  // A setup choice is made by every seat at once: another seat's event (seq > w.seq) may come
  // while this page's command is still in flight, its panel still drawn; a click on that
  // panel would then wait for a button that the page's own event removes (a 10 s timeout
  // seen under load, seed 206626). Its answer is the panel going away.
  const setup = what === 'keep' || what === 'initial';
  const after = await until(`${page.name}'s "${what}" click to be answered`, async () => {
    const n = await where(page);
    if (n.notice || n.over) return n;
    if (setup ? n.choice !== w.choice : n.seq > w.seq) return n;
    if (local && sigOf(n) !== sigOf(w)) return n;
    if (either && (n.choice === 'market' || n.choice === 'buy')) return n;
    return null;
  }, 15_000, 20);
  if (after.notice) throw new Error(`${page.name}: "${what}" was refused: ${after.notice}`);
  if (after.choice && after.choice !== 'turn' && !shots.has(after.choice)) {
    shots.add(after.choice); // each choice panel once, for the eye: choice-market.png, ...
    await page.screenshot({ path: join(out, `choice-${after.choice}.png`) });
  }
  if (after.seq > w.seq) {
    if (what === 'buy') stats.bought += 1;
    if (what === 'market') stats.market += 1;
    if (what === 'produce') stats.produced += 1;
    if (what === 'activate') stats.activated += 1;
    if (what === 'discard') stats.discarded += 1;
    if (what === 'arrange') stats.arranged += 1;
    if (what === 'end') stats.ended += 1;
  }
  return true;
}

// Clicks on every page until each shows the game over; `hook(seq)` runs between clicks.
async function playToTheEnd(pages, hook = async () => {}) {
  for (let n = 0; n < kMaxClicks; ++n) {
    await hook(Math.max(...(await Promise.all(pages.map(where))).map((w) => w.seq)));
    let clicked = false;
    for (const p of pages) if (await step(p)) clicked = true;
    if (clicked) continue;
    const all = await Promise.all(pages.map(where));
    if (all.every((w) => w.over)) return true;
    await sleep(50); // computers or the server at work: nothing to click yet
  }
  return false;
}

async function gameOver(page) {
  await page.waitForSelector('[data-game-over]', { timeout: 15_000 });
  return {
    result: await page.textContent('[data-result]'),
    details: await page.$$eval('[data-result-details]', (l) => l.map((x) => x.textContent)),
  };
}

// Each board's "VP now" (the view's points: the server scores, protocol.md 4) against the
// game over's "Scores: alice 12, Computer 1 9" (seat order): the same at the end.
async function boardsShowTheScores(page, over) {
  const line = over.details.find((d) => d.startsWith('Scores: ')) ?? '';
  const scores = line.slice('Scores: '.length).split(', ').map((part) => Number(part.slice(part.lastIndexOf(' ') + 1)));
  const shown = await page.$$eval('.pboard', (l) => l.map((b) => [Number(b.getAttribute('data-seat')), Number(b.getAttribute('data-vp'))]));
  const bySeat = shown.sort((a, b) => a[0] - b[0]).map(([, vp]) => vp);
  check(scores.length > 0 && JSON.stringify(bySeat) === JSON.stringify(scores), `${page.name}: every board shows the view's points, the final scores (${bySeat.join(', ')} VP; "${line}")`);
}

// Nothing wider than the page, and (phone) your own board above the table.
async function layoutAt(page, width, height, label) {
  await page.setViewportSize({ width, height });
  await sleep(100);
  const m = await page.evaluate(() => {
    const top = (sel) => document.querySelector(sel)?.getBoundingClientRect().top ?? null;
    return {
      scroll: document.documentElement.scrollWidth,
      inner: window.innerWidth,
      mine: top('.ren-mine .pboard'),
      table: top('.ren-table'),
      mineSeat: document.querySelector('.ren-mine .pboard')?.getAttribute('data-seat'),
    };
  });
  check(m.scroll <= m.inner, `${label} at ${width}x${height}: the page is ${m.scroll} px wide in a ${m.inner} px window (no horizontal scroll)`);
  await page.screenshot({ path: join(out, `${label.replace(/\W+/g, '-')}-${width}x${height}.png`), fullPage: false });
  return m;
}

// --- S. solo against Lorenzo, then the replay ---------------------------------------

async function solo() {
  const server = await newServer('solo.db');
  const alice = await newPage('alice (solo)');
  await login(alice, server.base, 'alice');
  const labels = await alice.evaluate(() => {
    document.querySelector('select[name=game]').value = 'renaissance';
    document.querySelector('select[name=game]').dispatchEvent(new Event('change'));
    return [...document.querySelectorAll('select[name=players] option')].map((o) => o.textContent);
  });
  check(labels[0] === '1 player (solo against Lorenzo)' && labels.length === 4, `the create form offers ${labels.join(', ')}`);
  const match = await createMatch(alice, 1);
  const first = await where(alice);
  check(first.choice === 'leaders' && first.dealt.length === 4, `alice's solo match ${match} opens on the choice of 2 leaders among 4 dealt (${first.dealt.join(' ')})`);
  check((await alice.$('.ren-lorenzo[data-lorenzo]')) !== null, 'the table shows Lorenzo');
  const t0 = Date.now();
  const ended = await playToTheEnd([alice]);
  check(ended, `the solo game was played to its end by ${stats.clicks} clicks in ${((Date.now() - t0) / 1000).toFixed(1)} s (bought ${stats.bought}, market ${stats.market}, produced ${stats.produced}, activated ${stats.activated}, turns ended ${stats.ended})`);
  const over = await gameOver(alice);
  await boardsShowTheScores(alice, over);
  const details = over.details.join(' / ');
  check(/^Scores: alice \d+$/.test(over.details.find((d) => d.startsWith('Scores')) ?? '') && /Lorenzo won: (yes|no)/.test(details), `the game over: "${over.result}", "${details}"`);
  const lorenzoWon = /Lorenzo won: yes/.test(details);
  check(lorenzoWon ? /^Lorenzo won/.test(over.result) : /^You win/.test(over.result), `the result line says who won: "${over.result}"`);
  await alice.screenshot({ path: join(out, 'solo-game-over.png') });
  const events = Number(await alice.getAttribute('.match', 'data-seq'));
  const final = await boardSummary(alice);
  await alice.context().close();
  if (replayBin) await replay(server, match, events, final);
  await server.kill('SIGTERM');
}

// Seat 0's board as drawn: its faith, its development cards (every slot's depth) and Lorenzo's
// cross; the replay's last event must draw what the game's last screen drew.
function boardSummary(page) {
  return page.evaluate(() => ({
    faith: document.querySelector('.pboard[data-seat="0"] .faith')?.getAttribute('data-faith') ?? null,
    cards: [...document.querySelectorAll('.pboard[data-seat="0"] [data-slot]')].map((s) => Number(s.getAttribute('data-depth'))).reduce((a, b) => a + b, 0),
    cross: document.querySelector('.ren-lorenzo')?.getAttribute('data-cross') ?? null,
  }));
}

async function serveReplay(db) {
  const port = await freePort();
  const proc = spawn(replayBin, [join(dir, db), 'serve', '--port', String(port), '--static', dist], { stdio: 'ignore' });
  proc.once('error', (e) => check(false, `${replayBin}: ${e.message}`));
  const base = `http://127.0.0.1:${port}/`;
  try {
    await until('replay serve', async () => {
      try {
        return (await fetch(`${base}api/matches`)).ok;
      } catch {
        return false;
      }
    }, 10_000, 100);
  } catch (e) {
    proc.kill('SIGTERM');
    throw e;
  }
  return { proc, base };
}

async function replay(server, match, events, final) {
  const { proc, base } = await serveReplay(server.db);
  try {
    const page = await newPage('replay (solo)');
    await page.goto(`${base}#match=${match}&seq=1`);
    await page.waitForSelector('[data-replay-seq="1"]');
    await page.waitForSelector('.match.replay .ren-board');
    const inert = () => page.evaluate(() => ({
      buttons: [...document.querySelectorAll('.ren-board button')].filter((b) => !b.disabled).length,
      actions: document.querySelector('.ren-actions') !== null,
      faith: document.querySelector('.pboard[data-seat="0"] .faith')?.getAttribute('data-faith') ?? null,
      cards: [...document.querySelectorAll('.pboard[data-seat="0"] [data-slot]')].map((s) => Number(s.getAttribute('data-depth'))).reduce((a, b) => a + b, 0),
      cross: document.querySelector('.ren-lorenzo')?.getAttribute('data-cross') ?? null,
    }));
    const at1 = await inert();
    check(at1.buttons === 0 && !at1.actions && at1.cross === '0' && at1.cards === 0, `the replay viewer draws the solo match on the Renaissance board at event 1, inert: ${JSON.stringify(at1)}`);
    for (const [key, want] of [['ArrowRight', 2], ['ArrowRight', 3], ['ArrowLeft', 2], ['End', events]]) {
      await page.keyboard.press(key);
      await page.waitForSelector(`[data-replay-seq="${want}"]`);
    }
    const last = await inert();
    // Not "some card was bought": a solo game Lorenzo wins early may end with none.
    check(last.buttons === 0 && last.cards === final.cards && last.faith === final.faith && last.cross === final.cross,
      `→ → ← and End step to event ${events}, drawn as the game's last screen ${JSON.stringify(final)}: ${JSON.stringify(last)}`);
    const log = await page.$$eval('.replay-log li', (l) => l.map((x) => x.textContent));
    check(log.length === events && /kept 2 leaders/.test(log.join('\n')), `its log holds the ${events} events in the render layer's words ("${log[1]}")`);
    await page.screenshot({ path: join(out, 'solo-replay.png') });
    await page.context().close();
  } finally {
    proc.kill('SIGTERM');
  }
}

// --- T. two players, a server restart, the two sizes -------------------------------------

async function twoPlayers() {
  const server = await newServer('two.db');
  const alice = await newPage('alice (2 players)');
  const bob = await newPage('bob (2 players)');
  await login(alice, server.base, 'alice');
  const match = await createMatch(alice, 2);
  await login(bob, server.base, 'bob');
  await bob.waitForSelector(`[data-join="${match}"]`);
  await bob.click(`[data-join="${match}"]`);
  await bob.waitForSelector('.match[data-seat="1"] .ren-board');
  check(true, `alice and bob sit at the 2-player match ${match}`);
  let restarted = false;
  let sized = false;
  let fellBack = false;
  const before = { ...stats };
  const t0 = Date.now();
  const ended = await playToTheEnd([alice, bob], async (seq) => {
    if (!sized && seq >= 20) {
      sized = true;
      const wide = await layoutAt(alice, 1366, 768, 'alice mid-game');
      const phone = await layoutAt(alice, 390, 844, 'alice mid-game');
      check(phone.mineSeat === '0' && phone.mine !== null && phone.mine < phone.table, `on the phone alice's own board comes first (top ${phone.mine} px, the table at ${phone.table} px)`);
      check(wide.mine !== null && wide.mine < 400, `at 1366x768 alice's board is in the first screen (top ${wide.mine} px)`);
      await layoutAt(bob, 390, 844, 'bob mid-game');
      await bob.setViewportSize({ width: 1366, height: 768 });
      await alice.setViewportSize({ width: 1366, height: 768 });
    }
    if (!fellBack && seq >= 10) {
      // The "more moves" list: every legal command as a button, as the fallback board draws
      // them; ending the turn from it works like the board's button.
      const w = await where(alice);
      if (w.endTurn && !w.choice?.match(/market|buy|produce|arrange/)) {
        fellBack = true;
        await alice.click('[data-more-moves] > summary');
        const end = alice.locator('.ren-more button.fb-command[data-command=\'{"type":"end_turn"}\']');
        await end.waitFor({ timeout: 5000 });
        const n = await alice.$$eval('.ren-more button.fb-command', (l) => l.length);
        await end.click();
        await until('the end_turn from "more moves"', async () => (await where(alice)).seq > w.seq);
        check(true, `"More moves" lists alice's ${n} legal commands as buttons; its "end turn" ended her turn at event ${w.seq}`);
        await alice.click('[data-more-moves] > summary');
      }
    }
    if (!restarted && seq >= 40) {
      restarted = true;
      await server.kill('SIGKILL');
      await alice.waitForSelector('[data-connection]', { timeout: 10_000 });
      await server.start();
      for (const p of [alice, bob]) {
        await until(`${p.name} to reconnect`, async () => {
          const w = await where(p);
          return !w.offline && w.seq === seq;
        }, 20_000, 100);
      }
      check(true, `after SIGKILL and a restart on the same SQLite file at event ${seq}, alice and bob are back at event ${seq} and play on`);
    }
  });
  check(ended && restarted && sized && fellBack, `the 2-player game was played to its end by ${stats.clicks - before.clicks} clicks in ${((Date.now() - t0) / 1000).toFixed(1)} s (bought ${stats.bought - before.bought}, market ${stats.market - before.market}, produced ${stats.produced - before.produced}, arranged ${stats.arranged - before.arranged})`);
  const overs = await Promise.all([alice, bob].map(gameOver));
  for (const [i, p] of [alice, bob].entries()) await boardsShowTheScores(p, overs[i]);
  const scores = overs[0].details.find((d) => d.startsWith('Scores')) ?? '';
  check(/^Scores: alice \d+, bob \d+$/.test(scores) && overs.every((o) => /win|won|draw/i.test(o.result)), `the game over on both pages: "${overs[0].result}" / "${overs[1].result}", "${scores}"`);
  await alice.screenshot({ path: join(out, 'two-game-over.png') });
  for (const p of [alice, bob]) await p.context().close();
  await server.kill('SIGTERM');
}

// --- F. four players: alice and three computers -----------------------------------------

async function fourPlayers() {
  const server = await newServer('four.db');
  const alice = await newPage('alice (4 players)');
  alice.discardLeaders = true; // this time the leaders are discarded (+1 faith each)
  await login(alice, server.base, 'alice');
  const match = await createMatch(alice, 4, 3);
  await until('three computers seated', async () => (await alice.$$('.seat.computer')).length === 3, 15_000);
  check(true, `alice's 4-player match ${match} with 3 computers (greedy)`);
  const before = { ...stats };
  const t0 = Date.now();
  const ended = await playToTheEnd([alice]);
  const discarded = await alice.$$eval('.ren-mine .leader[data-status="discarded"]', (l) => l.length);
  check(discarded === 2 && stats.discarded - before.discarded === 2, `alice discarded her 2 leaders with their buttons (${discarded} shown discarded)`);
  const others = await alice.$$eval('.ren-others .pboard', (l) => l.map((b) => b.getAttribute('data-seat')));
  check(ended && JSON.stringify(others) === '["1","2","3"]', `the 4-player game was played to its end by ${stats.clicks - before.clicks} clicks in ${((Date.now() - t0) / 1000).toFixed(1)} s; the others' boards follow alice's (seats ${others.join(' ')})`);
  const over = await gameOver(alice);
  await boardsShowTheScores(alice, over);
  const scores = over.details.find((d) => d.startsWith('Scores')) ?? '';
  check(/^Scores: alice \d+, .+ \d+, .+ \d+, .+ \d+$/.test(scores), `the game over: "${over.result}", "${scores}"`);
  await alice.screenshot({ path: join(out, 'four-game-over.png') });
  await alice.context().close();
  await server.kill('SIGTERM');
}

try {
  if (only.includes('S')) await solo();
  if (only.includes('T')) await twoPlayers();
  if (only.includes('F')) await fourPlayers();
} catch (e) {
  t.failures += 1;
  console.log(`not ok - ${e.stack ?? e}`);
  if (serverLog) console.log(`# server log (tail):\n${serverLog.slice(-2000)}`);
} finally {
  await browser.close();
  for (const s of servers) if (s.exitCode === null) s.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
console.log(`# ${t.passes} passed, ${t.failures} failed, ${((Date.now() - started) / 1000).toFixed(1)} s (seed ${seed})`);
process.exit(t.failures ? 1 : 0);
