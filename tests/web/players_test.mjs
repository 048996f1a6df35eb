// What a player sees, in a real browser (Debian's chromium driven by playwright-core;
// no browser is downloaded) — the "Players" items of issue 23:
//   A. a page on a scripted WebSocket (no server): the Jester's and the Minstrel's
//      picks marked on the board before "Use"; the turn line offers a character only
//      when one is usable; a dropped connection makes the board inert and says so;
//   B. the real eryantis-server: in a 4-player match on a 390x844 phone your own
//      board comes first after the islands; resigning says what it does with 4
//      players, and the partner is told who resigned; "Play again" after a game with
//      computers opens a match with as many computers at the same level;
//   C. eryantis-replay DB serve on a damaged match: every stored event on the
//      timeline, the first divergent one marked, a link past it kept;
// and in every state tested no "null" or "undefined" in the text the page shows.
// Usage (CTest passes these):
//   node players_test.mjs --web WEBDIR --out DIR --server BIN --replay BIN --selfplay BIN [--chromium PATH]
//                         [--only ABC]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { freePort, launchChromium, sleep, tally } from './harness.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const build = resolve(args.build ?? 'build');
const web = resolve(args.web ?? 'web');
const dist = join(web, 'dist');
const out = resolve(args.out ?? join(build, 'web-artifacts'));
const chromiumPath = args.chromium ?? '/usr/bin/chromium';
const serverBin = resolve(args.server ?? join(build, 'eryantis-server'));
const replayBin = resolve(args.replay ?? join(build, 'tools', 'eryantis-replay'));
const selfplayBin = resolve(args.selfplay ?? join(build, 'tools', 'eryantis-selfplay'));
const kDeadlineMs = 150_000;
const started = Date.now();
const t = tally({ started, deadlineMs: kDeadlineMs, name: 'the test' });
const { check, until } = t;
mkdirSync(out, { recursive: true });

const browser = await launchChromium(web, chromiumPath);
const openPages = [];
async function newPage(name, viewport = { width: 1280, height: 720 }, setup = null) {
  const ctx = await browser.newContext({ viewport });
  if (setup) await setup(ctx);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => check(false, `${name}: page error ${e.message}`));
  page.name = name;
  openPages.push(page);
  return page;
}

// No "null" or "undefined" in what the page shows: its text, and the values and
// titles of what is on screen.
async function noNullText(page, where) {
  const found = await page.evaluate(() => {
    const texts = [document.body.innerText];
    for (const el of document.querySelectorAll('[title], [aria-label], input, option')) {
      texts.push(el.getAttribute('title') ?? '', el.getAttribute('aria-label') ?? '', el.value ?? '');
    }
    return texts.join('\n').split('\n').filter((l) => /\b(null|undefined|NaN)\b/.test(l));
  });
  check(found.length === 0, `${page.name}, ${where}: no null/undefined on screen${found.length ? `: ${JSON.stringify(found.slice(0, 3))}` : ''}`);
}

// --- A. a page on a scripted socket ------------------------------------------------

const none = { yellow: 0, blue: 0, green: 0, red: 0, pink: 0 };
const board = (over) => ({ entrance: { ...none }, dining: { ...none }, towers: 8, coins: 3, hand: 1023, played: 0, discard: 0, wizard: null, tower_color: null, holds_towers: false, skipped_planning: false, ...over });
// alice (seat 0) moves her students, the Jester and the Minstrel on the table.
const gameState = {
  options: { players: 2, mode: 'expert' }, events_applied: 9, phase: 'action', round: 1,
  boards: [
    board({ entrance: { ...none, blue: 3, green: 1, red: 3 }, dining: { ...none, red: 2, pink: 1 }, played: 3, wizard: 0, tower_color: 'black' }),
    board({ entrance: { ...none, pink: 7 }, played: 5, wizard: 1, tower_color: 'white' }),
    board(), board(),
  ],
  groups: Array.from({ length: 12 }, (_, i) => ({ students: i === 0 || i === 6 ? { ...none } : { ...none, red: 1 }, first_tile: i, tiles: 1, tower: null, towers: 0, no_entry: 0 })),
  group_count: 12, mother_nature: 0,
  clouds: [{ students: { ...none, yellow: 2, pink: 1 }, taken: false }, { students: { ...none, green: 3 }, taken: false }, { students: { ...none }, taken: false }, { students: { ...none }, taken: false }],
  bag: { yellow: 20, blue: 20, green: 20, red: 20, pink: 20 },
  professors: { yellow: -1, blue: -1, green: -1, red: 0, pink: 0 },
  characters: [
    { id: 'jester', used: false, students: { ...none, yellow: 2, blue: 1, green: 2, pink: 1 }, no_entry: 0 },
    { id: 'minstrel', used: false, students: { ...none }, no_entry: 0 },
    { id: 'knight', used: false, students: { ...none }, no_entry: 0 },
  ],
  supply: 14, first_player: 0, order: [0, 1, 0, 0], order_size: 2, turn_index: 0,
  last_round: false, last_round_reason: 'none', skip_clouds: false,
  turn: { students_moved: 0, mother_nature_moved: false, character_used: false, active: null, excluded_color: null },
  result: { reason: 'none', winners: 0 },
};
const moves = [
  { type: 'move_to_dining', color: 'red' },
  { type: 'move_to_island', color: 'red', island: 3 },
  { type: 'use_jester', from_card: { yellow: 1 }, from_entrance: { red: 1 } },
  { type: 'use_jester', from_card: { yellow: 2 }, from_entrance: { red: 2 } },
  { type: 'use_minstrel', from_entrance: { blue: 1 }, from_dining: { pink: 1 } },
  { type: 'use_minstrel', from_entrance: { blue: 2 }, from_dining: { pink: 1, red: 1 } },
];
const seats = [{ seat: 0, nickname: 'alice', connected: true, computer: null }, { seat: 1, nickname: 'bob', connected: true, computer: null }];
const stateMessage = (legal) => ({ type: 'state', match: 1, seq: 9, status: 'running', hash: '0000000000000000', seats, to_act: [0], allowed: [...new Set(legal.map((c) => c.type))], legal, deadline: null, seat: 0, view: { viewer: 0, state: gameState } });

// Runs in the page: a WebSocket that logs alice back into match 1 (the state above)
// and answers move_log; `window.fake` drives it from the test.
function scriptedSocket({ state }) {
  sessionStorage.setItem('eryantis.nickname', 'alice');
  localStorage.setItem('eryantis.token.alice', 'a'.repeat(64));
  window.fake = { sockets: [], sent: [], down: false };
  class ScriptedSocket {
    constructor() {
      this.listeners = [];
      this.onopen = this.onmessage = this.onclose = this.onerror = null;
      window.fake.sockets.push(this);
      // `down`: the server is away; the connection fails (the client retries later).
      if (window.fake.down) setTimeout(() => this.onclose?.(), 0);
      else setTimeout(() => this.onopen?.(), 0);
    }
    addEventListener(type, fn) {
      if (type === 'message') this.listeners.push(fn);
    }
    removeEventListener() {}
    send(text) {
      const m = JSON.parse(text);
      window.fake.sent.push(m);
      const reply = (o) => setTimeout(() => this.deliver(JSON.stringify(o)), 0);
      if (m.type === 'hello') reply({ type: 'welcome', server: 'scripted', protocol: 1, heartbeat_ms: 3600000, timeout_ms: 3600000, max_line_bytes: 65536 });
      if (m.type === 'login') {
        reply({ type: 'logged_in', id: m.id, nickname: 'alice', token: 'a'.repeat(64), match: 1, seat: 0 });
        reply(JSON.parse(state));
      }
      if (m.type === 'move_log') reply({ type: 'move_log', id: m.id, match: 1, seq: 9, lines: Array.from({ length: 9 }, (_, i) => ({ seq: i + 1, text: `event ${i + 1}` })), more: false });
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
  await ctx.route('http://players.invalid/**', (route) => {
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

async function scriptedPage() {
  const page = await newPage('scripted alice', { width: 1280, height: 800 }, servedFromDist);
  await page.addInitScript(scriptedSocket, { state: JSON.stringify(stateMessage(moves)) });
  await page.goto('http://players.invalid/');
  await page.waitForSelector('.match[data-seat="0"] svg.table');
  const deliver = (msg) => page.evaluate((t) => window.fake.sockets.at(-1).deliver(t), JSON.stringify(msg));
  const turnLine = () => page.textContent('[data-turn]');
  const count = (sel) => page.$$eval(sel, (l) => l.length);

  // The turn line offers a character only when `legal` holds one.
  check(/or use a character/.test(await turnLine()), `with a character usable the turn line offers it: "${await turnLine()}"`);
  await deliver(stateMessage(moves.filter((c) => !c.type.startsWith('use_'))));
  await until('the state without characters', async () => !/character/.test(await turnLine()));
  check(true, `with none usable it does not: "${await turnLine()}"`);
  await deliver(stateMessage(moves));
  await until('the state with characters again', async () => /or use a character/.test(await turnLine()));
  await noNullText(page, 'its turn');

  // The Jester: one from the card, one from the entrance, both marked before "Use".
  await page.click('.card[data-character="jester"] .card-title');
  await page.click('.card[data-character="jester"] .disc.pick.st-yellow');
  await page.click('circle.pick[data-entrance="red"]');
  await page.waitForSelector('button[data-use="jester"]');
  check((await count('.card[data-character="jester"] .disc[data-picked]')) === 1, 'Jester: the yellow student picked on the card is marked');
  check((await count('circle[data-entrance="red"][data-picked]')) === 1 && (await count('circle[data-entrance][data-picked]')) === 1, 'Jester: the red student picked in the entrance is marked (one of three)');
  check((await page.getAttribute('.picks', 'data-picks')) === 'yellow|red', `Jester: the selection bar lists the picks: "${await page.textContent('.picks')}"`);
  await page.screenshot({ path: join(out, 'jester-picks.png') });
  await page.click('.selection button:has-text("Cancel")');
  await until('the draft cancelled', async () => (await count('[data-picked]')) === 0);

  // The Minstrel: one from the entrance, one from the dining room, then "Use".
  await page.click('.card[data-character="minstrel"] .card-title');
  await page.click('circle.pick[data-entrance="blue"]');
  await page.click('g.dining-row[data-dining="pink"] rect.pick');
  await page.waitForSelector('button[data-use="minstrel"]');
  check((await count('circle[data-entrance="blue"][data-picked]')) === 1, 'Minstrel: the blue student picked in the entrance is marked');
  check((await count('g.dining-row[data-dining="pink"] circle[data-picked]')) === 1 && (await count('g.dining-row[data-picked]')) === 1, 'Minstrel: the pink student picked in the dining room is marked');
  check((await page.getAttribute('.picks', 'data-picks')) === 'blue|pink', 'Minstrel: the selection bar lists the picks');
  await noNullText(page, 'a Minstrel swap being picked');
  await page.screenshot({ path: join(out, 'minstrel-picks.png') });
  await page.click('button[data-use="minstrel"]');
  const played = await until('the Minstrel played', () => page.evaluate(() => window.fake.sent.find((m) => m.type === 'play')));
  check(JSON.stringify(played.command) === JSON.stringify(moves[4]), `"Use" sends the swap picked: ${JSON.stringify(played.command)}`);

  // The connection drops (and stays down): the board takes no click and the banner says so.
  await page.evaluate(() => {
    window.fake.down = true;
    window.fake.sockets.at(-1).onclose();
  });
  await page.waitForSelector('.match[inert]');
  const banner = await page.textContent('[data-connection]');
  check(/board is paused until the connection is back/.test(banner), `disconnected, the board is inert and the banner says so: "${banner.trim()}"`);
  const student = await page.$eval('circle.pick[data-entrance="red"]', (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });
  await page.mouse.click(student.x, student.y);
  await sleep(200);
  check((await count('.selection')) === 0 && (await count('.match[inert]')) === 1, 'a click on the inert board does nothing');
  await noNullText(page, 'disconnected');
  await page.screenshot({ path: join(out, 'disconnected.png') });
  // Back (the client retries: 0.25, 0.5, 1 s ...): clickable again.
  await page.evaluate(() => (window.fake.down = false));
  await page.waitForSelector('.match:not([inert])', { timeout: 10_000 });
  check((await count('[data-connection]')) === 0, 'connected again, the board takes clicks again');
  await page.context().close();
  openPages.splice(openPages.indexOf(page), 1);
}

// --- B. the real server: the phone board order, resigning, play again --------------

const dir = mkdtempSync(join(tmpdir(), 'eryantis-players-test-'));
let server = null;
let serverLog = '';
async function startServer() {
  const tcpPort = await freePort();
  const webPort = await freePort();
  const config = join(dir, 'eryantis.toml');
  writeFileSync(config, `[network]
listen = "127.0.0.1"
port = ${tcpPort}

[storage]
database = "${join(dir, 'eryantis.db')}"

[matches]
turn_grace_ms = 600000
forfeit_after_ms = 600000

[web]
enabled = true
listen = "127.0.0.1"
port = ${webPort}
static_dir = "${dist}"
`);
  server = spawn(serverBin, ['--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.on('data', (d) => (serverLog += d));
  server.stderr.on('data', (d) => (serverLog += d));
  const base = `http://127.0.0.1:${webPort}/`;
  await until('the web listener', async () => {
    if (server.exitCode !== null) throw new Error(`eryantis-server exited (${server.exitCode}):\n${serverLog}`);
    try {
      return (await fetch(base)).ok;
    } catch {
      return false;
    }
  }, 10_000, 100);
  return base;
}

async function login(page, base, nickname) {
  await page.goto(base);
  await page.fill('input[name=nickname]', nickname);
  await page.click('form.login button[type=submit]');
  await page.waitForSelector('form.create');
}

async function realServer() {
  const base = await startServer();
  const carol = await newPage('carol');
  const dora = await newPage('dora (phone)', { width: 390, height: 844 });
  await login(carol, base, 'carol');
  await carol.selectOption('select[name=players]', '4');
  await carol.selectOption('select[name=mode]', 'expert');
  await carol.selectOption('select[name=computers]', '0');
  await carol.click('[data-create]');
  await carol.waitForSelector('.match[data-seat="0"]');
  const match = Number(await carol.getAttribute('.match', 'data-match'));
  await noNullText(carol, 'a match waiting for players');
  await login(dora, base, 'dora');
  await dora.waitForSelector(`[data-join="${match}"][data-seat="2"]`);
  await dora.click(`[data-join="${match}"][data-seat="2"]`);
  await dora.waitForSelector('.match[data-seat="2"]');
  for (const seat of [1, 3]) {
    await carol.selectOption('select[name=add-level]', 'strong');
    await carol.click('[data-add-computer]');
    await carol.waitForSelector(`[data-seat-status="${seat}"][data-computer="strong"]`);
  }
  check(true, `carol (seat 0) and dora (seat 2, a phone) play match ${match} with two strong computers`);

  // On the phone, dora's own board comes right after the islands.
  await dora.waitForSelector('section.board[data-board="2"]');
  const layout = await dora.evaluate(() => {
    const top = (el) => el.getBoundingClientRect().top + window.scrollY;
    const tableBottom = document.querySelector('.table-wrap').getBoundingClientRect().bottom + window.scrollY;
    const boards = [...document.querySelectorAll('section.board')].map((b) => ({ seat: Number(b.dataset.board), top: top(b) }));
    const mine = boards.find((b) => b.seat === 2);
    const others = [...document.querySelectorAll('.characters, .hand, .log')].map(top);
    return { tableBottom, mine: mine.top, boards, others, order: boards.sort((a, b) => a.top - b.top).map((b) => b.seat) };
  });
  await dora.screenshot({ path: join(out, 'phone-4p-own-board.png'), fullPage: true });
  check(layout.order[0] === 2, `on a 390x844 phone the boards come in the order ${layout.order.join(', ')}: dora's (seat 2) first`);
  check(layout.mine >= layout.tableBottom - 1 && layout.mine - layout.tableBottom < 60 && layout.others.every((t) => t > layout.mine),
    `dora's board is ${Math.round(layout.mine - layout.tableBottom)} px below the islands, before her hand, the characters and the log`);

  // Setup, then the match runs.
  for (const p of [carol, dora]) {
    await p.click('button[data-wizard]');
    await p.waitForSelector('button[data-tower]');
    await p.click('button[data-tower]');
  }
  for (const p of [carol, dora]) await p.waitForSelector('[data-resign]', { timeout: 20_000 });
  await noNullText(dora, 'the match running');
  await noNullText(carol, 'the match running');

  // dora resigns: the question says the team loses; carol is told who resigned.
  let question = null;
  dora.once('dialog', (d) => {
    question = d.message();
    void d.accept();
  });
  await dora.click('[data-resign]');
  check(question === 'Resign for your team? You and carol lose the match at once, and Computer 1 and Computer 3 win.', `the resign question with 4 players: "${question}"`);
  await carol.waitForSelector('[data-game-over]');
  const notice = await carol.waitForSelector('.notice[data-code="RESIGNED"]');
  check(/^dora resigned/.test(await notice.textContent()), `carol gets a notice: "${await notice.textContent()}"`);
  const lastLine = await carol.$eval('.log li:last-child', (li) => li.textContent);
  check(/dora resigned/.test(lastLine), `carol's move log says it: "${lastLine}"`);
  const result = await carol.textContent('[data-result]');
  check(/dora resigned/.test(result), `carol's game-over screen names who resigned: "${result}"`);
  await carol.screenshot({ path: join(out, 'resigned-partner.png') });
  await noNullText(carol, 'game over');
  await noNullText(dora, 'game over');

  // Play again: the same kind of match, with two strong computers again.
  await carol.click('[data-play-again]');
  await until('a new match', async () => Number((await carol.getAttribute('.match', 'data-match').catch(() => null)) ?? match) !== match);
  const again = Number(await carol.getAttribute('.match', 'data-match'));
  await carol.waitForSelector('[data-seat-status="2"][data-computer]');
  const levels = await carol.$$eval('[data-computer]', (l) => l.map((e) => e.getAttribute('data-computer')));
  check(again !== match && levels.length === 2 && levels.every((l) => l === 'strong'), `"Play again" opened match ${again} with ${levels.length} computers (${levels.join(', ')})`);
  const deadline = (await carol.$('[data-deadline]')) ? await carol.textContent('[data-deadline]') : '(none)';
  check(!/null|undefined/.test(deadline), `its deadline reads "${deadline}"`);
  await noNullText(carol, 'the match of "Play again", waiting for a fourth player');
  await carol.screenshot({ path: join(out, 'play-again.png') });
  for (const p of [carol, dora]) {
    await p.context().close();
    openPages.splice(openPages.indexOf(p), 1);
  }
}

// --- C. the replay viewer on a damaged match ---------------------------------------

async function damagedReplay() {
  const db = join(dir, 'damaged.db');
  const sp = spawnSync(selfplayBin, ['--games', '1', '--players', '2', '--mode', 'expert', '--seed', '5', '--quiet', '--db', db], { encoding: 'utf8' });
  if (!check(sp.status === 0, 'selfplay wrote a match')) return;
  const damage = spawnSync('sqlite3', [db, "UPDATE events SET state_hash = '0000000000000000' WHERE match_id = 1 AND seq = 30"], { encoding: 'utf8' });
  if (!check(damage.status === 0, `the stored hash of event 30 damaged ${damage.stderr ?? ''}`)) return;
  const port = await freePort();
  const replay = spawn(replayBin, [db, 'serve', '--port', String(port), '--static', dist], { stdio: 'ignore' });
  try {
    const base = `http://127.0.0.1:${port}/`;
    await until('replay serve', async () => {
      try {
        return (await fetch(`${base}api/matches`)).ok;
      } catch {
        return false;
      }
    }, 10_000, 100);
    const events = (await (await fetch(`${base}api/matches`)).json())[0].events;
    check(events > 40, `the damaged match has ${events} stored events`);
    const page = await newPage('damaged replay');
    await page.goto(`${base}#match=1&seq=31`);
    await page.waitForSelector('[data-replay-seq]');
    const pos = await page.textContent('.pos');
    check(pos === `event 31 of ${events}`, `a link to event 31 stays there: "${pos}"`);
    check(new URL(page.url()).hash === '#match=1&seq=31', `and the URL keeps it: ${new URL(page.url()).hash}`);
    const error = await page.textContent('.banner.error >> nth=-1');
    check(/events 1\.\.29 are trustworthy: hash mismatch at event 30/.test(error), `past the divergence the board says why: "${error}"`);
    const log = await page.$$eval('.replay-log li', (l) => l.map((li) => ({ seq: Number(li.dataset.logSeq), cls: li.className, trusted: li.dataset.trusted })));
    check(log.length === events, `the log lists every stored event (${log.length})`);
    check(/diverged/.test(log[29]?.cls ?? '') && log.filter((e) => /diverged/.test(e.cls)).length === 1, 'event 30 is marked as the first divergent one');
    check(log.slice(30).every((e) => e.trusted === '0') && log.slice(0, 29).every((e) => e.trusted === '1'), 'events after it are marked not checked');
    const diverged = await page.textContent('li[data-log-seq="30"]');
    check(/diverges: hash mismatch at event 30: stored 0000000000000000, recomputed/.test(diverged), `and says what differs: "${diverged}"`);
    await page.keyboard.press('End');
    await page.waitForSelector(`[data-replay-seq="${events}"]`);
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('[data-replay-seq="1"]');
    await page.fill('[data-jump]', '29');
    await page.press('[data-jump]', 'Enter');
    await page.waitForSelector('[data-replay-seq="29"]');
    await page.waitForSelector('[data-drawn-seq="29"]');
    check(true, 'End reaches the last stored event; event 29, the last trusted one, is drawn');
    await noNullText(page, 'a damaged match');
    await page.screenshot({ path: join(out, 'replay-damaged.png') });
  } finally {
    replay.kill('SIGTERM');
  }
}

const only = args.only ?? 'ABC'; // --only A: the parts to run (by hand)
try {
  if (only.includes('A')) await scriptedPage();
  if (only.includes('B')) await realServer();
  if (only.includes('C')) await damagedReplay();
} catch (e) {
  t.failures += 1;
  console.log(`not ok - ${e.message}`);
  for (const p of openPages) await p.screenshot({ path: join(out, `failure-${p.name.replace(/\W+/g, '-')}.png`) }).catch(() => {});
  console.log(`# server log (tail):\n${serverLog.split('\n').slice(-30).join('\n')}`);
} finally {
  await browser.close().catch(() => {});
  if (server && server.exitCode === null) server.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${t.passes} passed, ${t.failures} failed`);
process.exit(t.failures ? 1 : 0);
