// The web client in a real browser (Debian's chromium, driven by playwright-core;
// no browser is downloaded), against a real eryantis-server:
//   1. two pages log in and play a whole 2-player expert match by clicking, each
//      click chosen at random among what the page offers; a third page watches;
//   2. one player's page is reloaded mid-match and is back in its seat;
//   3. the server is SIGKILLed and restarted: the pages reconnect by themselves;
//   4. both players see the game-over screen, the spectator the final board;
//   5. eryantis-replay DB serve: the viewer steps to event N and the board in the
//      DOM equals `eryantis-replay DB show M --at N`;
//   6. the draw times: the first board after a page load, every event on a
//      4-player expert board (a selfplay match in the replay viewer), and from each
//      event's WebSocket message to its board drawn, live (the spectator of step 1,
//      and a page watching a 4-player expert match that eryantis-bots play);
//   7. the draw benchmark: the watcher's messages played again into the client
//      drawing in place and into the client rebuilding the page (?redraw=full),
//      taking turns in the same browser: the ratio of the two;
//   8. a computer player added to a waiting match at a chosen level, shown, removed.
// Screenshots go to --out. Usage (CTest passes these):
//   node browser_test.mjs --web WEBDIR --out DIR --server BIN --replay BIN --selfplay BIN
//                         --bot BIN [--chromium PATH] [--seed N]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { drawBench, formatBench, spectatorScript } from './draw_bench.mjs';
import { compareFacts, domFacts, parseShow } from './show_summary.mjs';
import { freePort, launchChromium, seededRandom, sleep, tally } from './harness.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const build = resolve(args.build ?? 'build');
const web = resolve(args.web ?? 'web');
const out = resolve(args.out ?? join(build, 'web-artifacts'));
const chromiumPath = args.chromium ?? '/usr/bin/chromium';
const serverBin = resolve(args.server ?? join(build, 'eryantis-server'));
const replayBin = resolve(args.replay ?? join(build, 'tools', 'eryantis-replay'));
const selfplayBin = resolve(args.selfplay ?? join(build, 'tools', 'eryantis-selfplay'));
const botBin = resolve(args.bot ?? join(build, 'tools', 'eryantis-bot'));
const seed = Number(args.seed ?? Date.now() % 1_000_000);
const kSkipped = 77; // CTest's SKIP_RETURN_CODE
const kDeadlineMs = 200_000; // the whole run: about a minute on an idle machine, 2.5 on a loaded one
const started = Date.now();
const t = tally({ started, deadlineMs: kDeadlineMs, name: 'the browser test' });
const { check, until, overtime } = t;
const random = seededRandom(seed);
console.log(`browser test: seed ${seed} (rerun with --seed ${seed})`);
mkdirSync(out, { recursive: true });

// --- small helpers ----------------------------------------------------------------

for (let i = 0; i < 16; ++i) random(); // small seeds start with small numbers
const pick = (list) => list[Math.floor(random() * list.length)];

// --- the server ---------------------------------------------------------------------

const dir = mkdtempSync(join(tmpdir(), 'eryantis-web-test-'));
const db = join(dir, 'eryantis.db');
const tcpPort = await freePort();
const webPort = await freePort();
const config = join(dir, 'eryantis.toml');
// Timers far away: nothing is skipped or forfeited while the pages reconnect.
writeFileSync(
  config,
  `[network]
listen = "127.0.0.1"
port = ${tcpPort}

[storage]
database = "${db}"

[matches]
turn_grace_ms = 600000
forfeit_after_ms = 600000

[web]
enabled = true
listen = "127.0.0.1"
port = ${webPort}
static_dir = "${join(web, 'dist')}"
`,
);
const base = `http://127.0.0.1:${webPort}/`;
let server = null;
let serverLog = '';

async function startServer() {
  server = spawn(serverBin, ['--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.on('data', (d) => (serverLog += d));
  server.stderr.on('data', (d) => (serverLog += d));
  await until('the web listener', async () => {
    if (server.exitCode !== null && /web: unknown section/.test(serverLog)) {
      // A server from before the web listener (issue 12's server side): nothing to test against.
      console.log('# SKIP: this eryantis-server has no [web] listener, so the browser cannot reach it');
      process.exit(kSkipped);
    }
    if (server.exitCode !== null) throw new Error(`eryantis-server exited (${server.exitCode}):\n${serverLog}`);
    try {
      return (await fetch(base)).ok;
    } catch {
      return false;
    }
  }, 10_000, 100);
}

function killServer(signal) {
  return new Promise((res) => {
    if (!server || server.exitCode !== null) return res();
    server.once('exit', () => res());
    server.kill(signal);
  });
}

// --- pages ----------------------------------------------------------------------------

const browser = await launchChromium(web, chromiumPath);

const openPages = [];
async function newPage(name, viewport = { width: 1280, height: 720 }) {
  // One context per person: each has its own localStorage (tokens) and sessionStorage.
  const ctx = await browser.newContext({ viewport });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => {
    failures += 1;
    console.log(`not ok - ${name}: page error ${e.message}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && !/WebSocket|ERR_CONNECTION_REFUSED|Failed to load resource/.test(m.text())) console.log(`# ${name} console: ${m.text()}`);
  });
  page.name = name;
  // The last WebSocket frames each way, printed when the test fails.
  page.frames_ = [];
  page.on('websocket', (ws) => {
    const keep = (dir) => (f) => {
      page.frames_.push(`${dir} ${String(f.payload).slice(0, 300)}`);
      if (page.frames_.length > 12) page.frames_.shift();
    };
    ws.on('framesent', keep('C:'));
    ws.on('framereceived', keep('S:'));
    ws.on('close', () => page.frames_.push('(closed)'));
  });
  openPages.push(page);
  return page;
}

async function shot(page, file) {
  await page.screenshot({ path: join(out, file), fullPage: false });
}

async function login(page, nickname) {
  await page.goto(base);
  await page.fill('input[name=nickname]', nickname);
  await page.click('form.login button[type=submit]');
  await page.waitForSelector('form.create');
}

// The move log as [seq, text] pairs, in the page's order.
const logOf = (page) => page.$$eval('.log li', (l) => l.map((li) => [li.value, li.textContent]));
// A page's log holds every event 1..seq, the same lines as `reference`'s (a page that saw them all).
async function wholeLog(page, reference, seq, who) {
  const want = (await logOf(reference)).filter(([s]) => s <= seq);
  const got = await until(`${page.name}'s move log to reach back to seq 1`, async () => {
    const l = await logOf(page);
    return l.length >= seq && l[0]?.[0] === 1 ? l.filter(([s]) => s <= seq) : null;
  }, 10_000);
  const same = want.length === seq && JSON.stringify(got) === JSON.stringify(want);
  check(same, `${who}: the move log holds all ${seq} events, the same lines as ${reference.name}'s ("${got[0]?.[1]}" ... "${got.at(-1)?.[1]}")`);
  if (!same) console.log(`# ${page.name}: ${JSON.stringify(got.slice(0, 3))} ... / ${reference.name}: ${JSON.stringify(want.slice(0, 3))} ...`);
}

const seqOf = (page) => page.evaluate(() => Number(document.querySelector('.match')?.getAttribute('data-seq') ?? -1));

// The things a page offers to click now, each named by a selector and its index
// among the matches: the page redraws on its own (countdowns), so an element found
// now may be replaced by an equal one before the click.
async function offers(page) {
  return page.evaluate(() => {
    const found = [];
    const sel = (s, kind) =>
      document.querySelectorAll(s).forEach((el, n) => {
        found.push({ sel: s, n, kind, label: el.getAttribute('data-entrance') ?? el.getAttribute('data-use') ?? '' });
      });
    sel('button[data-wizard]', 'wizard');
    sel('button[data-tower]', 'tower');
    sel('button.assistant.target', 'assistant');
    sel('circle.pick[data-entrance]', 'student');
    sel('g.group.target', 'island');
    sel('g.cloud.target', 'cloud');
    sel('g.dining-row.target', 'dining');
    sel('.card.target .card-title', 'character');
    sel('.card.drafting .disc.pick', 'card-student');
    sel('.selection [data-color]', 'color');
    sel('rect.pick', 'dining-student');
    sel('button[data-use]', 'use');
    return found;
  });
}

// A real mouse click in the middle of an offer (for an island: of its first tile).
async function clickOffer(page, o) {
  const point = await page.evaluate(({ sel, n }) => {
    const el = document.querySelectorAll(sel)[n];
    if (!el) return null;
    const target = el.matches('g.group') ? el.querySelector('circle.tile') : el;
    target.scrollIntoView({ block: 'center', inline: 'nearest' });
    const r = target.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }, o);
  if (!point) return false;
  await page.mouse.click(point.x, point.y);
  return true;
}

// One random click among the offers of a page whose turn it is; false when it offers nothing.
let clicks = 0;
async function playOne(page) {
  const list = await offers(page);
  if (!list.length) return false;
  // Characters: now and then (they are drafts of several clicks); finish a draft when possible.
  let choices = list;
  const use = list.filter((o) => o.kind === 'use');
  if (use.length && random() < 0.6) choices = use;
  else if (list.some((o) => o.kind === 'character') && list.some((o) => o.kind !== 'character') && random() < 0.85) {
    choices = list.filter((o) => o.kind !== 'character');
  }
  const o = pick(choices);
  const before = await seqOf(page);
  if (!(await clickOffer(page, o))) return true; // gone meanwhile (a new event): look again
  clicks += 1;
  // A click that sends a command waits for its event; a selection just redraws.
  if (!['student', 'character', 'card-student', 'color', 'dining-student'].includes(o.kind)) {
    // One round trip: the page itself waits for the event (or an error notice).
    await page
      .waitForFunction(
        (b) => Number(document.querySelector('.match')?.getAttribute('data-seq') ?? -1) > b || document.querySelector('.notice') !== null,
        before,
        { timeout: 5000, polling: 'raf' },
      )
      .catch(() => {
        throw new Error(`timed out waiting for ${page.name}'s ${o.kind} to be applied`);
      });
  }
  // A draft that cannot be finished (e.g. a swap with nothing to give back): cancel it.
  if (await page.$('.selection')) {
    const more = await offers(page);
    if (!more.length) await page.click('.selection button:has-text("Cancel")');
  }
  return true;
}

async function gameOverShown(page) {
  return (await page.$('[data-game-over]')) !== null;
}

// Seq and game over of a page in one round trip.
function where(page) {
  return page.evaluate(() => ({
    seq: Number(document.querySelector('.match')?.getAttribute('data-seq') ?? -1),
    over: document.querySelector('[data-game-over]') !== null,
  }));
}

// --- the live match --------------------------------------------------------------------

const results = { figures: {} };
try {
  await startServer();
  const alice = await newPage('alice');
  const bob = await newPage('bob');
  const eve = await newPage('eve (spectator)');
  await login(alice, 'alice');
  await shot(alice, 'lobby.png');
  await alice.selectOption('select[name=players]', '2');
  await alice.selectOption('select[name=mode]', 'expert');
  await alice.click('[data-create]');
  await alice.waitForSelector('.match[data-seat="0"]');
  const matchId = Number(await alice.getAttribute('.match', 'data-match'));
  check(matchId > 0, `alice created match ${matchId} and sits at seat 0`);

  await login(bob, 'bob');
  await bob.waitForSelector(`[data-join="${matchId}"]`, { timeout: 5000 }); // the list updates by itself
  await bob.click(`[data-join="${matchId}"][data-seat="1"]`);
  await bob.waitForSelector('.match[data-seat="1"]');
  check(true, 'bob joined seat 1 from the live match list');

  await eve.goto(base);
  await eve.waitForSelector(`[data-spectate="${matchId}"]`, { timeout: 5000 });
  await eve.click(`[data-spectate="${matchId}"]`);
  await eve.waitForSelector('.match[data-seat="-1"]');
  check(true, 'eve watches without logging in');

  let reloaded = false;
  let restarted = false;
  let phoneShot = false;
  let idle = 0;
  const seqsSeen = new Set();
  for (;;) {
    overtime();
    const [a, b] = await Promise.all([where(alice), where(bob)]);
    if (a.over && b.over) break;
    const seq = Math.max(a.seq, b.seq);
    seqsSeen.add(seq);
    if (!reloaded && seq >= 40) {
      // 2. a reload mid-match: back in the seat, board drawn again.
      reloaded = true;
      await bob.reload();
      await bob.waitForSelector('.match[data-seat="1"] svg.table', { timeout: 10_000 });
      const first = await bob.evaluate(() => window.eryantisFirstBoardMs);
      results.figures.first_board_after_reload_ms = Math.round(first);
      check((await seqOf(bob)) === seq, `bob reloaded at seq ${seq} and is back in seat 1 (board drawn ${Math.round(first)} ms after load)`);
      await wholeLog(bob, alice, seq, `bob reloaded at seq ${seq}`);
      await shot(bob, 'board-bob-after-reload.png');
    }
    if (!restarted && seq >= 80) {
      // 3. the server dies without warning and comes back.
      restarted = true;
      await shot(alice, 'board-alice-before-kill.png');
      await killServer('SIGKILL');
      await alice.waitForSelector('[data-connection]', { timeout: 10_000 });
      // Nothing clicked now would reach the server: the board is inert and says so.
      await alice.waitForSelector('.match[inert]', { timeout: 5000 });
      check(/board is paused/.test(await alice.textContent('[data-connection]')), 'with the server gone, alice\'s board is inert and the banner says why');
      await shot(alice, 'board-alice-connection-lost.png');
      await startServer();
      for (const p of [alice, bob, eve]) {
        await until(`${p.name} to reconnect`, async () => (await p.$('[data-connection]')) === null && (await seqOf(p)) === seq, 20_000, 100);
      }
      check(true, `after SIGKILL and a restart at seq ${seq}, alice, bob and eve are back on the match at seq ${seq}`);
    }
    if (!phoneShot && seq >= 60) {
      // Phone portrait: somebody watches on a 390x844 screen.
      phoneShot = true;
      const phone = await newPage('phone', { width: 390, height: 844 });
      await phone.goto(base);
      await phone.click(`[data-spectate="${matchId}"]`);
      await phone.waitForSelector('.match[data-seat="-1"] svg.table');
      await wholeLog(phone, alice, await seqOf(phone), `a spectator arriving at seq ${await seqOf(phone)}`);
      await phone.screenshot({ path: join(out, 'board-phone.png'), fullPage: true });
      check(true, 'a phone-sized page watches the match');
      await phone.context().close();
      openPages.splice(openPages.indexOf(phone), 1);
    }
    let moved = false;
    for (const [p, w] of [[alice, a], [bob, b]]) {
      if (w.over) continue;
      if (await playOne(p)) moved = true;
    }
    if (!moved) {
      idle += 1;
      if (idle > 200) throw new Error('nobody could click anything for 10 s');
      await sleep(50);
    } else idle = 0;
    if (seqsSeen.size === 20) await shot(alice, 'board-alice-early.png');
  }
  const finalSeq = await seqOf(alice);
  check(reloaded && restarted, 'the match went through a reload and a server restart');
  check(true, `the match ended at seq ${finalSeq} after ${clicks} clicks`);
  const resultText = await alice.textContent('[data-result]');
  check(/won|win|draw/i.test(resultText ?? ''), `game over screen: "${resultText}"`);
  await shot(alice, 'game-over-alice.png');
  await until('eve to see the last event', async () => (await seqOf(eve)) === finalSeq || (await gameOverShown(eve)), 5000);
  check(await gameOverShown(eve), 'the spectator saw the end too');
  await shot(eve, 'spectator-final.png');
  // The log holds the server's sentences, one per event seen.
  const logLines = await alice.$$eval('.log li', (l) => l.length);
  check(logLines > 0, `alice's move log has ${logLines} lines`);

  const alicePerf = await alice.evaluate(() => window.eryantisPerf.map((p) => p.ms));
  results.figures.live_draw_ms_max = Math.max(...alicePerf);
  alicePerf.sort((a, b) => a - b);
  results.figures.live_draw_ms_min = alicePerf[0];
  results.figures.live_draw_ms_median = alicePerf[Math.floor(alicePerf.length / 2)];

  // The WebSocket message of each event to its board drawn (JSON, model, DOM, style,
  // layout): eve's 2-player expert match above, then a 4-player expert match that four
  // eryantis-bots play over TCP while a page watches it. Reported, never asserted.
  const summary = (xs) => {
    const v = [...xs].sort((a, b) => a - b);
    return v.length ? { n: v.length, min: v[0], median: v[Math.floor(v.length / 2)], p95: v[Math.floor(v.length * 0.95)], max: v[v.length - 1] } : null;
  };
  const eveLive = summary(await eve.evaluate(() => window.eryantisLivePerf.map((p) => p.ms)));
  if (eveLive) {
    for (const [k, v] of Object.entries(eveLive)) results.figures[`message_to_board_2p_expert_ms_${k}`] = v;
    console.log(`# message to board drawn, 2-player expert (spectator, ${eveLive.n} events): min ${eveLive.min.toFixed(1)} median ${eveLive.median.toFixed(1)} p95 ${eveLive.p95.toFixed(1)} max ${eveLive.max.toFixed(1)} ms`);
  }
  if (existsSync(botBin)) {
    const watcher = await newPage('4-player watcher');
    const watcherFrames = []; // every message it receives: the draw benchmark plays them again
    watcher.on('websocket', (ws) => ws.on('framereceived', (f) => watcherFrames.push(String(f.payload))));
    await watcher.goto(base);
    // Ten plays a second per bot: each event is drawn before the next one arrives.
    const bots = spawn(botBin, ['--port', String(tcpPort), '--matches', '1', '--players', '4', '--mode', 'expert', '--games', '1', '--duration', '90', '--rate', '10', '--seed', String(seed), '--quiet', '--name-prefix', 'b4'], { stdio: 'ignore' });
    const botsDone = new Promise((res) => bots.once('exit', res));
    await watcher.waitForSelector('[data-spectate]', { timeout: 20_000 }); // the lobby push shows it
    const id4 = await watcher.getAttribute('[data-spectate]', 'data-spectate');
    await watcher.click(`[data-spectate="${id4}"]`);
    await watcher.waitForSelector('.match[data-seat="-1"] svg.table');
    await Promise.race([botsDone, sleep(60_000)]);
    await sleep(500);
    await shot(watcher, 'board-4p-expert-live.png');
    const live4 = summary(await watcher.evaluate(() => window.eryantisLivePerf.filter((p) => p.players === 4).map((p) => p.ms)));
    check(live4 !== null && live4.n > 0, `a page watched a 4-player expert match played by eryantis-bot (match ${id4}, ${live4?.n ?? 0} events drawn)`);
    if (live4) {
      for (const [k, v] of Object.entries(live4)) results.figures[`message_to_board_4p_expert_ms_${k}`] = v;
      console.log(`# message to board drawn, 4-player expert (spectator, ${live4.n} events): min ${live4.min.toFixed(1)} median ${live4.median.toFixed(1)} p95 ${live4.p95.toFixed(1)} max ${live4.max.toFixed(1)} ms`);
    }
    bots.kill('SIGTERM');
    writeFileSync(join(out, 'frames-4p-expert.json'), JSON.stringify(watcherFrames) + '\n');
    const script = spectatorScript(watcherFrames);
    if (check(script !== null && script.events.length > 0, `the watcher's messages make a benchmark script (${script?.events.length ?? 0} events)`)) {
      const dist = join(web, 'dist');
      // 60 events each way (about 6 s of the CI budget); by hand it runs on the whole recording (docs/web.md).
      const { result: bench, differ } = await drawBench(browser, { script, events: 60, variants: [{ name: 'in-place', dist }, { name: 'full-redraw', dist, query: '?redraw=full' }] });
      console.log(`# draw benchmark, 4-player expert, message to board drawn:\n# ${formatBench(bench).replace(/\n/g, '\n# ')}`);
      for (const [name, s] of Object.entries(bench)) for (const [k, v] of Object.entries(s)) results.figures[`bench_${name.replace('-', '_')}_ms_${k}`] = v;
      check(bench['in-place'].n === bench['full-redraw'].n && bench['in-place'].n > 0, `the draw benchmark timed ${bench['in-place'].n} events both ways`);
      check(differ.length === 0, 'drawn in place or rebuilt, the page is the same after those events');
    }
  } else {
    console.log(`# eryantis-bot not found at ${botBin}: no 4-player live figure`);
  }

  // Computer players in a waiting match: add one at a chosen level, see it, remove it.
  {
    const carol = await newPage('carol');
    await login(carol, 'carol');
    await carol.selectOption('select[name=players]', '3');
    await carol.selectOption('select[name=computers]', '0');
    await carol.click('[data-create]');
    await carol.waitForSelector('.match[data-seat="0"] [data-add-computer]');
    await carol.selectOption('select[name=add-level]', 'strong');
    await carol.click('[data-add-computer]');
    await carol.waitForSelector('[data-seat-status="1"][data-computer="strong"]', { timeout: 5000 });
    const seatText = await carol.textContent('[data-seat-status="1"]');
    check(/\(computer, strong\)/.test(seatText ?? ''), `carol added a strong computer to a waiting match: "${seatText}"`);
    check((await carol.inputValue('select[name=add-level]')) === 'strong', 'the level chosen survives the redraws');
    await carol.click('[data-remove-computer="1"]');
    await carol.waitForSelector('[data-seat-status="1"]:not([data-computer])', { timeout: 5000 });
    check(/free/.test((await carol.textContent('[data-seat-status="1"]')) ?? ''), 'and removed it: seat 1 is free again');
    await carol.click('[data-leave]');
    await carol.context().close();
    openPages.splice(openPages.indexOf(carol), 1);
  }

  await killServer('SIGTERM');

  // --- the replay viewer --------------------------------------------------------------
  const replayPort = await freePort();
  const replay = spawn(replayBin, [db, 'serve', '--port', String(replayPort), '--static', join(web, 'dist')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let replayLog = '';
  replay.stdout.on('data', (d) => (replayLog += d));
  replay.stderr.on('data', (d) => (replayLog += d));
  const rbase = `http://127.0.0.1:${replayPort}/`;
  try {
    await until('eryantis-replay serve', async () => {
      if (replay.exitCode !== null) throw new Error(`eryantis-replay serve exited (${replay.exitCode}):\n${replayLog}`);
      try {
        return (await fetch(`${rbase}api/matches`)).ok;
      } catch {
        return false;
      }
    }, 10_000, 100);
    const viewer = await newPage('replay');
    await viewer.goto(rbase);
    await viewer.waitForSelector(`[data-replay-match="${matchId}"]`);
    await shot(viewer, 'replay-list.png');
    await viewer.click(`[data-replay-match="${matchId}"] a`);
    await viewer.waitForSelector('[data-replay-seq="1"]');
    // Keyboard: End, then three events back; the jump box; a turn and a round forward.
    await viewer.keyboard.press('End');
    await viewer.waitForSelector(`[data-replay-seq="${finalSeq}"]`);
    for (let i = 0; i < 3; ++i) await viewer.keyboard.press('ArrowLeft');
    await viewer.waitForSelector(`[data-replay-seq="${finalSeq - 3}"]`);
    check(true, 'End and ArrowLeft move the replay');
    const n = 2 + Math.floor(random() * (finalSeq - 2));
    await viewer.fill('[data-jump]', String(n));
    await viewer.press('[data-jump]', 'Enter');
    await viewer.waitForSelector(`[data-replay-seq="${n}"]`);
    check(new URL(viewer.url()).hash === `#match=${matchId}&seq=${n}`, `the URL names the position: ${new URL(viewer.url()).hash}`);
    const shown = spawnSync(replayBin, [db, 'show', String(matchId), '--at', String(n), '--no-color'], { encoding: 'utf8' });
    check(shown.status === 0, `eryantis-replay show ${matchId} --at ${n} ran`);
    const diffs = compareFacts(parseShow(shown.stdout), await viewer.evaluate(domFacts));
    for (const d of diffs) console.log(`# ${d}`);
    check(diffs.length === 0, `the replay viewer's board at event ${n} equals eryantis-replay show (${diffs.length} differences)`);
    await shot(viewer, `replay-at-${n}.png`);
    // A shared URL opens the same position in a fresh page.
    const shared = await newPage('replay-link');
    await shared.goto(`${rbase}#match=${matchId}&seq=${Math.max(1, n - 10)}`);
    await shared.waitForSelector(`[data-replay-seq="${Math.max(1, n - 10)}"]`);
    check(true, 'a position URL opens that position');
    await shared.keyboard.press('PageDown');
    await shot(shared, 'replay-next-round.png');
  } finally {
    replay.kill('SIGTERM');
  }

  // --- 4-player expert board: every event drawn, timed --------------------------------
  const db4 = join(dir, 'four.db');
  const sp = spawnSync(selfplayBin, ['--games', '1', '--players', '4', '--mode', 'expert', '--seed', String(seed), '--quiet', '--db', db4], { encoding: 'utf8' });
  if (check(sp.status === 0, 'selfplay wrote a 4-player expert match')) {
    const port4 = await freePort();
    const replay4 = spawn(replayBin, [db4, 'serve', '--port', String(port4), '--static', join(web, 'dist')], { stdio: 'ignore' });
    try {
      const b4 = `http://127.0.0.1:${port4}/`;
      await until('replay serve (4 players)', async () => {
        try {
          return (await fetch(`${b4}api/matches`)).ok;
        } catch {
          return false;
        }
      }, 10_000, 100);
      const list = await (await fetch(`${b4}api/matches`)).json();
      const m4 = list[0];
      const page4 = await newPage('replay-4p');
      const t0 = Date.now();
      await page4.goto(`${b4}#match=${m4.match}&seq=1`);
      await page4.waitForSelector('svg.table');
      results.figures.first_board_replay_ms = Math.round(await page4.evaluate(() => window.eryantisFirstBoardMs));
      // Twenty events from the middle of the match, one key press each.
      const events = m4.events;
      const from = Math.max(1, Math.floor(events / 2) - 10);
      await page4.fill('[data-jump]', String(from));
      await page4.press('[data-jump]', 'Enter');
      await page4.waitForSelector(`[data-replay-seq="${from}"]`);
      await page4.evaluate(() => window.eryantisPerf.splice(0));
      // CPU time of the page's main thread (seconds), which other processes on a shared
      // machine do not inflate the way they inflate wall-clock times.
      const cdp = await page4.context().newCDPSession(page4);
      await cdp.send('Performance.enable');
      const threadTime = async () => (await cdp.send('Performance.getMetrics')).metrics.find((x) => x.name === 'ThreadTime')?.value ?? NaN;
      const cpu0 = await threadTime();
      await page4.locator('body').click({ position: { x: 1, y: 1 } }); // the keys go to the page, not the jump box
      const to = Math.min(events, from + 20);
      for (let i = from + 1; i <= to; ++i) {
        await page4.keyboard.press('ArrowRight');
        await page4.waitForSelector(`[data-replay-seq="${i}"]`);
      }
      const cpu1 = await threadTime();
      results.figures.step_4p_expert_cpu_ms = (1000 * (cpu1 - cpu0)) / (to - from);
      const perf4 = await page4.evaluate(() => window.eryantisPerf.map((p) => p.ms));
      perf4.sort((a, b) => a - b);
      results.figures.draw_4p_expert_events = perf4.length;
      // The minimum is the least disturbed by other processes on a shared machine.
      results.figures.draw_4p_expert_ms_min = perf4[0];
      results.figures.draw_4p_expert_ms_median = perf4[Math.floor(perf4.length / 2)];
      results.figures.draw_4p_expert_ms_p95 = perf4[Math.floor(perf4.length * 0.95)];
      results.figures.draw_4p_expert_ms_max = perf4[perf4.length - 1];
      check(perf4.length === to - from, `stepped through events ${from}..${to} of a 4-player expert match, one draw each (${Date.now() - t0} ms)`);
      await page4.keyboard.press('Home');
      await page4.keyboard.press('PageDown');
      await page4.keyboard.press('PageDown');
      await shot(page4, 'replay-4p.png');
    } finally {
      replay4.kill('SIGTERM');
    }
  }
} catch (e) {
  t.failures += 1;
  console.log(`not ok - ${e.message}`);
  for (const p of openPages) {
    await shot(p, `failure-${p.name.replace(/\W+/g, '-')}.png`).catch(() => {});
    console.log(`# ${p.name}'s last frames:\n#   ${p.frames_.join('\n#   ')}`);
  }
  console.log(`# server log (tail):\n${serverLog.split('\n').slice(-30).join('\n')}`);
} finally {
  await browser.close().catch(() => {});
  await killServer('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}

results.figures.total_s = Math.round((Date.now() - started) / 1000);
for (const k of Object.keys(results.figures)) results.figures[k] = Math.round(results.figures[k] * 10) / 10;
writeFileSync(join(out, 'figures.json'), JSON.stringify(results.figures, null, 1) + '\n');
console.log(`# figures: ${JSON.stringify(results.figures)}`);
console.log(`# screenshots in ${out}`);
console.log(`${t.passes} passed, ${t.failures} failed`);
process.exit(t.failures ? 1 : 0);
