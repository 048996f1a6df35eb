// The fallback board (web/src/boards/fallback/) in a real browser (Debian's chromium
// driven by playwright-core; no browser is downloaded):
//   A. a page on a scripted WebSocket whose server's default game is a card game the
//      page has no board for: the fallback board draws its view (hands as a table,
//      the score), whose turn it is, one button per legal command named from its
//      JSON, sends exactly the command clicked (by mouse and by keyboard), and
//      draws the next view and its log line;
//   B. the real eryantis-server: alice and bob play a 2-player Eriantys match with
//      `?board=fallback`, clicking only the legal-command buttons, until it ends (or
//      for at most kMaxCommands commands, then bob resigns with the header's button):
//      each command is accepted (the match's seq moves on and the log's new line is
//      the clicker's) and the view tree follows it; a spectator's page has no buttons;
//      then the replay viewer (`eryantis-replay DB serve`, with --replay) shows the stored
//      match on the fallback board, inert, stepping with the arrow keys;
//   C. Goofspiel, a game only the tests register, on the real eryantis-test-server: alice
//      picks it in the lobby, bob joins, both bid by clicking the fallback board (the
//      default for a game without a board module: no ?board=fallback) to the end; each bid
//      is accepted, a face-down bid is seen only by its bidder (the other page's view tree,
//      log and received messages), the spectator has no buttons, the game over names the
//      winner and the score; then the tests' replay tool (`eryantis-replay-test-games DB
//      serve`, with --replay-test-games) shows the match on the fallback board.
// Usage (CTest passes these):
//   node fallback_test.mjs --web WEBDIR --out DIR --server BIN [--replay BIN]
//     [--test-server BIN [--replay-test-games BIN]] [--chromium PATH] [--seed N] [--only ABC]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { freePort, launchChromium, seededRandom, sleep, tally } from './harness.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const build = resolve(args.build ?? 'build');
const web = resolve(args.web ?? 'web');
const dist = join(web, 'dist');
const out = resolve(args.out ?? join(build, 'web-artifacts', 'fallback'));
const chromiumPath = args.chromium ?? '/usr/bin/chromium';
const serverBin = resolve(args.server ?? join(build, 'eryantis-server'));
const replayBin = args.replay ? resolve(args.replay) : null; // without it, the replay part is left out
const testServerBin = args['test-server'] ? resolve(args['test-server']) : null; // part C
const replayTestGamesBin = args['replay-test-games'] ? resolve(args['replay-test-games']) : null;
const only = args.only ?? 'ABC';
const seed = Number(args.seed ?? Date.now() % 1_000_000);
const kDeadlineMs = 200_000;
const kMaxCommands = 400; // a random 2-player simple match is about 130 events
const started = Date.now();
const t = tally({ started, deadlineMs: kDeadlineMs, name: 'the test' });
const { check, until } = t;
const random = seededRandom(seed);
mkdirSync(out, { recursive: true });
console.log(`fallback test: seed ${seed} (rerun with --seed ${seed})`);

const browser = await launchChromium(web, chromiumPath);
async function newPage(name, setup = null) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (setup) await setup(ctx);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => check(false, `${name}: page error ${e.message}`));
  page.name = name;
  return page;
}

// --- A. a game the page has no board for, on a scripted socket ------------------------

// A small card game: hands (hidden cards are 0), a pile, a score per seat.
const cardView = (deck, hand, score) => ({
  viewer: 0,
  state: { phase: 'play', options: { players: 2 }, deck, pile: { top: 5, count: 3 }, hands: [{ seat: 0, cards: hand }, { seat: 1, cards: [0, 0, 0] }], score, winner: null },
});
const cardLegal = (hand) => hand.map((card) => ({ type: 'play_card', card }));
const cardSeats = [{ seat: 0, nickname: 'alice', connected: true, computer: null }, { seat: 1, nickname: 'bob', connected: true, computer: null }];
const cardState = { type: 'state', match: 1, seq: 4, status: 'running', hash: '0000000000000000', seats: cardSeats, to_act: [0], allowed: ['play_card'], legal: cardLegal([3, 7, 12]), deadline: null, seat: 0, view: cardView(30, [3, 7, 12], [4, 2]) };

// Runs in the page: a WebSocket whose server plays "cards" first (its default game),
// logs alice back into match 1 and answers move_log; `window.fake` drives it.
function scriptedSocket({ state }) {
  sessionStorage.setItem('eryantis.nickname', 'alice');
  localStorage.setItem('eryantis.token.alice', 'a'.repeat(64));
  window.fake = { sockets: [], sent: [] };
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
      window.fake.sent.push(m);
      const reply = (o) => setTimeout(() => this.deliver(JSON.stringify(o)), 0);
      if (m.type === 'hello') {
        reply({ type: 'welcome', server: 'scripted', protocol: 1, heartbeat_ms: 3600000, timeout_ms: 3600000, max_line_bytes: 65536, games: [{ name: 'cards', title: 'Cards', version: 1, min_players: 2, max_players: 2 }, { name: 'eriantys', title: 'Eriantys', version: 1, min_players: 2, max_players: 4 }] });
      }
      if (m.type === 'login') {
        reply({ type: 'logged_in', id: m.id, nickname: 'alice', token: 'a'.repeat(64), match: 1, seat: 0 });
        reply(JSON.parse(state));
      }
      if (m.type === 'move_log') reply({ type: 'move_log', id: m.id, match: 1, seq: 4, lines: Array.from({ length: 4 }, (_, i) => ({ seq: i + 1, text: `event ${i + 1}` })), more: false });
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
  await ctx.route('http://fallback.invalid/**', (route) => {
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

async function scriptedCards() {
  const page = await newPage('scripted alice (cards)', servedFromDist);
  await page.addInitScript(scriptedSocket, { state: JSON.stringify(cardState) });
  await page.goto('http://fallback.invalid/');
  await page.waitForSelector('.match[data-seat="0"] .fallback-board');
  check(true, 'a game without a board module ("cards", the server\'s default) is drawn by the fallback board');
  check((await page.getAttribute('.match', 'data-game')) === 'cards', 'the match screen names its game');
  check((await page.textContent('[data-turn]')) === 'Your turn', `the turn line: "${await page.textContent('[data-turn]')}"`);

  // The view: a tree with the hands as a table, the score and the deck as values.
  const hands = await page.$$eval('[data-key="hands"] table tr', (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
  check(JSON.stringify(hands) === JSON.stringify([['#', 'seat', 'cards'], ['0', '0', '[3, 7, 12]'], ['1', '1', '[0, 0, 0]']]), `the hands are a table: ${JSON.stringify(hands)}`);
  const value = (key) => page.$eval(`.tv-value[data-key="${key}"] .tv-text`, (e) => e.textContent);
  check((await value('score')) === '[4, 2]' && (await value('deck')) === '30', `the score and the deck are values: ${await value('score')}, ${await value('deck')}`);
  check((await value('winner')) === '—', 'nothing is "—", not "null"');
  const open = await page.$$eval('.fallback-board details', (l) => l.map((d) => [d.dataset.key, d.open]));
  check(JSON.stringify(open) === JSON.stringify([['view', true], ['state', true], ['options', false], ['pile', false]]), `the view and its state are open groups (details), deeper ones closed: ${JSON.stringify(open)}`);

  // The commands: one button each, named from its JSON.
  const labels = await page.$$eval('button.fb-command', (l) => l.map((b) => [b.getAttribute('aria-label'), b.textContent, b.getAttribute('data-command')]));
  check(JSON.stringify(labels.map((l) => l[0])) === JSON.stringify(['play card 3', 'play card 7', 'play card 12']), `one button per legal command: ${JSON.stringify(labels.map((l) => l[0]))}`);
  check(labels.every((l) => l[0] === l[1]), 'each button reads as its label');
  check((await page.getAttribute('.fb-type', 'aria-label')) === 'play card: 3 choices', 'the buttons of a type are one labelled group');
  await page.screenshot({ path: join(out, 'cards.png') });

  // A click sends exactly that command.
  const sent = () => page.evaluate(() => window.fake.sent.filter((m) => m.type === 'play').map((m) => m.command));
  await page.click('button.fb-command[aria-label="play card 7"]');
  await until('the play message', async () => (await sent()).length === 1);
  check(JSON.stringify((await sent())[0]) === JSON.stringify({ type: 'play_card', card: 7 }), `the click sent ${JSON.stringify((await sent())[0])}`);
  const play = await page.evaluate(() => window.fake.sent.find((m) => m.type === 'play'));
  check(play.expected_seq === 4 && typeof play.command_id === 'string', 'as a play with expected_seq and a command id');

  // The event: the view, the commands and the log follow.
  const event = { type: 'event', match: 1, seq: 5, hash: '1111111111111111', event: { v: 1, type: 'play_card', seat: 0, command: { type: 'play_card', card: 7 }, drawn: [], picks: [] }, text: 'alice plays the 7', to_act: [1], allowed: [], legal: [], deadline: null, view: cardView(30, [3, 12], [5, 2]) };
  await page.evaluate((t) => window.fake.sockets.at(-1).deliver(t), JSON.stringify(event));
  await until('the next view', async () => (await page.getAttribute('.match', 'data-seq')) === '5');
  check((await value('score')) === '[5, 2]', `the view tree follows the event: score ${await value('score')}`);
  check((await page.$$('button.fb-command')).length === 0 && /Nothing to do now/.test(await page.textContent('.fb-commands')), 'no legal command: no button, and it says so');
  check((await page.textContent('[data-turn]')) === 'Waiting for bob', `the turn line: "${await page.textContent('[data-turn]')}"`);
  const log = await page.$$eval('.log li', (l) => l.map((li) => li.textContent));
  check(log.at(-1) === 'alice plays the 7' && log.length === 5, `the event log has the new line: ${JSON.stringify(log.slice(-2))}`);

  // By keyboard: Tab reaches a command's button, Enter sends it; a group's summary toggles with Enter.
  const back = { ...event, seq: 6, to_act: [0], legal: cardLegal([3, 12]), text: 'bob plays a card', event: { ...event.event, seat: 1 } };
  await page.evaluate((t) => window.fake.sockets.at(-1).deliver(t), JSON.stringify(back));
  await until('alice\'s turn again', async () => (await page.$$('button.fb-command')).length === 2);
  await page.focus('button.fb-command[aria-label="play card 3"]');
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
  await page.keyboard.press('Enter');
  await until('the second play message', async () => (await sent()).length === 2);
  check(focused === 'play card 12' && JSON.stringify((await sent())[1]) === JSON.stringify({ type: 'play_card', card: 12 }), `Tab to "${focused}" and Enter sent ${JSON.stringify((await sent())[1])}`);
  await page.focus('details[data-key="pile"] > summary');
  await page.keyboard.press('Enter');
  check((await page.$eval('details[data-key="pile"]', (d) => d.open)) === true, 'Enter on a group\'s summary opens it');
  await page.focus('details[data-key="state"] > summary');
  await page.keyboard.press('Enter');
  check((await page.$eval('details[data-key="state"]', (d) => d.open)) === false, 'and closes an open one');
  await page.keyboard.press('Enter');
  await page.evaluate((t) => window.fake.sockets.at(-1).deliver(t), JSON.stringify({ ...back, seq: 7, view: cardView(29, [3], [6, 2]) }));
  await until('seq 7', async () => (await page.getAttribute('.match', 'data-seq')) === '7');
  check((await page.$eval('details[data-key="pile"]', (d) => d.open)) === true && (await value('deck')) === '29', 'a group opened by the player stays open when the view changes');

  // Many choices (Masters of Renaissance offers up to 8,262): a type with more than 100
  // starts closed, opens with at most 200 buttons, and the filter finds the rest.
  const produce = Array.from({ length: 500 }, (_, i) => ({ type: 'produce', slots: [i % 3], output: `r${i}` }));
  await page.evaluate((t) => window.fake.sockets.at(-1).deliver(t), JSON.stringify({ ...back, seq: 8, legal: [...cardLegal([3]), ...produce] }));
  await until('seq 8', async () => (await page.getAttribute('.match', 'data-seq')) === '8');
  const many = () => page.evaluate(() => ({
    open: document.querySelector('details.fb-many[data-type="produce"]')?.open ?? null,
    summary: document.querySelector('details.fb-many[data-type="produce"] > summary')?.textContent ?? null,
    produce: document.querySelectorAll('details.fb-many button.fb-command').length,
    cards: document.querySelectorAll('button.fb-command[data-command*="play_card"]').length,
    more: document.querySelector('[data-more]')?.getAttribute('data-more') ?? null,
    filter: !document.querySelector('input.fb-filter').hidden,
  }));
  let m = await many();
  check(m.open === false && m.summary === 'produce: 500 choices' && m.produce === 0 && m.cards === 1 && m.filter, `500 productions: one closed group, no button drawn, the filter offered: ${JSON.stringify(m)}`);
  await page.click('details.fb-many[data-type="produce"] > summary');
  await until('the group opened', async () => (await many()).produce > 0);
  m = await many();
  check(m.open && m.produce === 200 && m.more === '300', `opened: 200 buttons and "300 more": ${JSON.stringify(m)}`);
  await page.fill('input.fb-filter', 'R49');
  await until('the filter applied', async () => (await many()).produce === 11);
  m = await many();
  check(m.summary === 'produce: 11 of 500 choices' && m.cards === 0, `the filter "R49": ${m.summary}, the cards left out`);
  await page.click('button.fb-command[aria-label="produce, slots [1], output r49"]');
  await until('the third play message', async () => (await sent()).length === 3);
  check(JSON.stringify((await sent())[2]) === JSON.stringify({ type: 'produce', slots: [1], output: 'r49' }), `a filtered button sends exactly its command: ${JSON.stringify((await sent())[2])}`);
  await page.fill('input.fb-filter', '');
  await until('the filter cleared', async () => (await many()).cards === 1);
  check((await many()).produce === 200, 'without the filter the group the player opened stays open');

  // Resign: the shell's button, the fallback board's question, a plain resign command.
  let question = '';
  page.once('dialog', (d) => {
    question = d.message();
    void d.accept();
  });
  await page.click('[data-resign]');
  await until('the resign', async () => (await sent()).length === 4);
  check(question === 'Resign? You lose the match at once.' && JSON.stringify((await sent())[3]) === JSON.stringify({ type: 'resign' }), `Resign asks "${question}" and sends ${JSON.stringify((await sent())[3])}`);

  // The lobby: the create form offers welcome's games, each with its player counts and options.
  await page.evaluate((t) => window.fake.sockets.at(-1).deliver(t), JSON.stringify({ type: 'left', match: 1 }));
  await page.waitForSelector('form.create select[name=game]');
  const form = () => page.evaluate(() => ({
    games: [...document.querySelectorAll('select[name=game] option')].map((o) => `${o.value}:${o.textContent}`),
    players: [...document.querySelectorAll('select[name=players] option')].map((o) => o.textContent),
    mode: document.querySelector('select[name=mode]') !== null,
  }));
  const cards = await form();
  check(JSON.stringify(cards) === JSON.stringify({ games: ['cards:Cards', 'eriantys:Eriantys'], players: ['2 players'], mode: false }), `the create form: welcome's games, the default first, with its player counts and no mode: ${JSON.stringify(cards)}`);
  await page.selectOption('select[name=game]', 'eriantys');
  const eriantys = await form();
  check(JSON.stringify(eriantys.players) === JSON.stringify(['2 players', '3 players', '4 players (teams)']) && eriantys.mode, `Eriantys: ${JSON.stringify(eriantys.players)} and a mode`);
  await page.selectOption('select[name=players]', '3');
  await page.selectOption('select[name=mode]', 'expert');
  await page.click('[data-create]');
  const creates = () => page.evaluate(() => window.fake.sent.filter((m) => m.type === 'create_match').map(({ id, ...m }) => m));
  await until('the create_match', async () => (await creates()).length === 1);
  check(JSON.stringify((await creates())[0]) === JSON.stringify({ type: 'create_match', game: 'eriantys', players: 3, mode: 'expert' }), `Create sent ${JSON.stringify((await creates())[0])}`);
  await page.selectOption('select[name=game]', 'cards');
  await page.click('[data-create]');
  await until('the second create_match', async () => (await creates()).length === 2);
  check(JSON.stringify((await creates())[1]) === JSON.stringify({ type: 'create_match', game: 'cards', players: 2 }), `and for the card game ${JSON.stringify((await creates())[1])}`);
  await page.context().close();
}

// --- B. Eriantys played through the fallback board on the real server ----------------------

const servers = []; // every server this test started, stopped at the end
let serverLog = '';
const dir = mkdtempSync(join(tmpdir(), 'eryantis-fallback-test-'));

// A real server on 127.0.0.1 with a real SQLite file `db` (in `dir`), serving web/dist.
async function startServer(bin = serverBin, db = 'eryantis.db') {
  const tcpPort = await freePort();
  const webPort = await freePort();
  const config = join(dir, `${db}.toml`);
  writeFileSync(config, `[network]
listen = "127.0.0.1"
port = ${tcpPort}

[storage]
database = "${join(dir, db)}"

[matches]
turn_grace_ms = 600000
forfeit_after_ms = 600000

[web]
enabled = true
listen = "127.0.0.1"
port = ${webPort}
static_dir = "${dist}"
`);
  const server = spawn(bin, ['--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  servers.push(server);
  serverLog = '';
  server.stdout.on('data', (d) => (serverLog += d));
  server.stderr.on('data', (d) => (serverLog += d));
  const base = `http://127.0.0.1:${webPort}/`;
  await until('the web listener', async () => {
    if (server.exitCode !== null) throw new Error(`${bin} exited (${server.exitCode}):\n${serverLog}`);
    try {
      return (await fetch(base)).ok;
    } catch {
      return false;
    }
  }, 10_000, 100);
  return base;
}

async function login(page, url, nickname) {
  await page.goto(url);
  await page.fill('input[name=nickname]', nickname);
  await page.click('form.login button[type=submit]');
  await page.waitForSelector('form.create');
}

// The page's position: seq, the legal commands on its buttons, the game over.
function where(page) {
  return page.evaluate(() => ({
    seq: Number(document.querySelector('.match')?.getAttribute('data-seq') ?? -1),
    commands: [...document.querySelectorAll('button.fb-command')].map((b) => b.getAttribute('data-command')),
    over: document.querySelector('[data-game-over]') !== null,
    notice: document.querySelector('.notice')?.textContent ?? null,
    tree: document.querySelector('.fb-tree')?.textContent ?? '',
  }));
}

async function eriantysThroughFallback() {
  const base = await startServer();
  const url = `${base}?board=fallback`;
  const alice = await newPage('alice (fallback board)');
  const bob = await newPage('bob (fallback board)');
  const eve = await newPage('eve (spectator, fallback board)');
  await login(alice, url, 'alice');
  await alice.selectOption('select[name=players]', '2');
  await alice.selectOption('select[name=mode]', 'simple');
  await alice.click('[data-create]');
  await alice.waitForSelector('.match[data-seat="0"] .fallback-board');
  const match = Number(await alice.getAttribute('.match', 'data-match'));
  check(match > 0 && (await alice.getAttribute('.match', 'data-game')) === 'eriantys', `?board=fallback: alice's Eriantys match ${match} is drawn by the fallback board`);
  await login(bob, url, 'bob');
  await bob.waitForSelector(`[data-join="${match}"]`);
  await bob.click(`[data-join="${match}"]`);
  await bob.waitForSelector('.match[data-seat="1"] .fallback-board');
  await eve.goto(url);
  await eve.waitForSelector(`[data-spectate="${match}"]`);
  await eve.click(`[data-spectate="${match}"]`);
  await eve.waitForSelector('.match[data-seat="-1"] .fallback-board');
  check((await eve.$$('button.fb-command')).length === 0, 'the spectator has no command buttons');

  const pages = [alice, bob];
  const names = ['alice', 'bob'];
  let accepted = 0;
  let rejected = 0;
  let treeMoved = 0;
  const types = new Map();
  for (let n = 0; n < kMaxCommands; ++n) {
    const here = await Promise.all(pages.map(where));
    if (here.some((w) => w.over)) break;
    const ready = here.map((w, i) => (w.commands.length ? i : -1)).filter((i) => i >= 0 && here[i].seq === Math.max(...here.map((x) => x.seq)));
    if (!ready.length) {
      await sleep(50); // the other page has not drawn the last event yet
      continue;
    }
    const who = ready[Math.floor(random() * ready.length)];
    const page = pages[who];
    const before = here[who];
    const k = Math.floor(random() * before.commands.length);
    const command = before.commands[k];
    const button = page.locator('button.fb-command').nth(k);
    if ((await button.getAttribute('data-command')) !== command) continue; // redrawn meanwhile
    await button.click();
    const after = await until(`${names[who]}'s ${command} to be answered`, async () => {
      const w = await where(page);
      return w.seq > before.seq || w.notice || w.over ? w : null;
    }, 10_000, 20);
    if (after.seq <= before.seq) {
      rejected += 1;
      console.log(`# ${names[who]}'s ${command} at seq ${before.seq} was not accepted: ${after.notice}`);
      break;
    }
    accepted += 1;
    const type = JSON.parse(command).type;
    types.set(type, (types.get(type) ?? 0) + 1);
    if (after.tree !== before.tree) treeMoved += 1;
    // The server's log line for the new event is the clicker's.
    const line = await page.evaluate((s) => document.querySelector(`.log li[value="${s}"]`)?.textContent ?? '', before.seq + 1);
    if (!line.startsWith(names[who])) {
      check(false, `event ${before.seq + 1} (${command}) is ${names[who]}'s in the log: "${line}"`);
      break;
    }
  }
  check(accepted > 0 && rejected === 0, `${accepted} commands clicked on the fallback board's buttons, every one accepted by the server (${[...types].map(([t, c]) => `${t} ×${c}`).join(', ')})`);
  check(treeMoved === accepted, `the view tree changed with each of them (${treeMoved} of ${accepted})`);
  await alice.screenshot({ path: join(out, 'eriantys-fallback.png') });
  let over = (await where(alice)).over;
  if (!over) {
    // Not over after kMaxCommands: bob resigns with the shell's button (the board's question, confirmed).
    bob.once('dialog', (d) => {
      check(/Resign\?/.test(d.message()), `the resign question: "${d.message()}"`);
      void d.accept();
    });
    await bob.click('[data-resign]');
  }
  await until('the game over on both pages', async () => (await Promise.all(pages.map(where))).every((w) => w.over), 15_000);
  const result = await alice.textContent('[data-result]');
  check(true, `the match ended (${over ? 'played to the end' : 'bob resigned'}): "${result}"`);
  const evLog = await until('the spectator\'s log to end', async () => {
    const l = await eve.$$eval('.log li', (li) => li.map((x) => x.value));
    const last = await alice.$$eval('.log li', (li) => li.map((x) => x.value));
    return l.length && l.at(-1) === last.at(-1) ? l : null;
  });
  check(evLog[0] === 1 && evLog.length === evLog.at(-1), `the spectator's event log holds every event, 1 to ${evLog.at(-1)}`);
  over = true;
  if (replayBin) await replayThroughFallback(match, evLog.at(-1));
}

// `BIN DB serve` on a free port with the built web client, once its API answers.
async function serveReplay(bin, db) {
  const port = await freePort();
  const replay = spawn(bin, [join(dir, db), 'serve', '--port', String(port), '--static', dist], { stdio: 'ignore' });
  replay.once('error', (e) => check(false, `${bin}: ${e.message}`));
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
    replay.kill('SIGTERM');
    throw e;
  }
  return { replay, base };
}

// The replay viewer's frame around the fallback board: the stored match, inert.
async function replayThroughFallback(match, events) {
  const { replay, base } = await serveReplay(replayBin, 'eryantis.db');
  try {
    const page = await newPage('replay (fallback board)');
    await page.goto(`${base}?board=fallback#match=${match}&seq=10`);
    await page.waitForSelector('[data-replay-seq="10"]');
    await page.waitForSelector('.match.replay .fallback-board');
    const applied = () => page.$eval('.tv-value[data-key="events applied"] .tv-text', (e) => e.textContent);
    const first = await applied();
    check((await page.$$('.fb-commands, button.fb-command')).length === 0, `the replay viewer at event 10 on the fallback board: the view (events applied ${first}), no commands`);
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('[data-replay-seq="11"]');
    await until('the view of event 11', async () => (await applied()) !== first);
    check(Number(await applied()) === Number(first) + 1, `→ steps to event 11 and the tree follows (events applied ${await applied()})`);
    const log = await page.$$eval('.replay-log li', (l) => l.length);
    check(log === events, `its log holds the ${events} events`);
    await page.context().close();
  } finally {
    replay.kill('SIGTERM');
  }
}

// --- C. Goofspiel, a game registered only by the tests, on the real test server ------------

// What a fallback board page shows: the values of its view tree by key, its buttons, the
// turn line, the log, and the game over.
function board(page) {
  return page.evaluate(() => ({
    seq: Number(document.querySelector('.match')?.getAttribute('data-seq') ?? -1),
    commands: [...document.querySelectorAll('button.fb-command')].map((b) => b.getAttribute('data-command')),
    hint: document.querySelector('.fb-commands .hint')?.textContent ?? null,
    turn: document.querySelector('[data-turn]')?.textContent ?? null,
    values: Object.fromEntries([...document.querySelectorAll('.fb-tree .tv-value')].map((e) => [e.getAttribute('data-key'), e.querySelector('.tv-text').textContent])),
    log: Object.fromEntries([...document.querySelectorAll('.log li')].map((li) => [li.value, li.textContent])),
    over: document.querySelector('[data-game-over]') !== null,
    notice: document.querySelector('.notice')?.textContent ?? null,
  }));
}
const numbers = (text) => JSON.parse(text ?? 'null'); // "[31, 27]" → [31, 27]
const cardsOf = (mask) => Array.from({ length: 13 }, (_, i) => i + 1).filter((v) => mask & (1 << (v - 1)));

// Every WebSocket message a page receives, for the hidden-information check on the wire.
function recordFrames(page) {
  const frames = [];
  page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(String(f.payload))));
  return frames;
}

// What seat `viewer` (-1: a spectator) may not have received: another seat's bid in a
// view (shown as -1 until both have bid, then the round resolves and bids are 0 again),
// or the card of another seat's bid event (0 to every other viewer, docs/games.md).
function leaks(frames, viewer) {
  const out = [];
  for (const text of frames) {
    const m = JSON.parse(text);
    const bids = m.view?.state?.bids;
    if (Array.isArray(bids) && bids.some((b, seat) => seat !== viewer && b > 0)) out.push(text);
    if (m.type === 'event' && m.event?.type === 'bid' && m.event.seat !== viewer && m.event.command?.card !== 0) out.push(text);
  }
  return out;
}

async function goofspielOnTheTestServer() {
  const base = await startServer(testServerBin, 'goofspiel.db');
  const alice = await newPage('alice (Goofspiel)');
  const bob = await newPage('bob (Goofspiel)');
  const eve = await newPage('eve (spectator, Goofspiel)');
  const frames = [recordFrames(alice), recordFrames(bob), recordFrames(eve)];
  await login(alice, base, 'alice');
  // The lobby offers every game the server plays (welcome's games); Goofspiel has no board
  // module, so no mode and no options: its player counts only.
  const games = await alice.$$eval('select[name=game] option', (o) => o.map((x) => `${x.value}:${x.textContent}`));
  check(games.includes('goofspiel:Goofspiel') && games.includes('eriantys:Eriantys'), `the create form offers the test server's games: ${games.join(', ')}`);
  await alice.selectOption('select[name=game]', 'goofspiel');
  const players = await alice.$$eval('select[name=players] option', (o) => o.map((x) => x.textContent));
  check(JSON.stringify(players) === '["2 players"]' && (await alice.$('select[name=mode]')) === null, `Goofspiel: ${JSON.stringify(players)}, no mode`);
  await alice.click('[data-create]');
  await alice.waitForSelector('.match[data-seat="0"] .fallback-board');
  const match = Number(await alice.getAttribute('.match', 'data-match'));
  check(new URL(alice.url()).search === '' && (await alice.getAttribute('.match', 'data-game')) === 'goofspiel', `without ?board=fallback, alice's Goofspiel match ${match} is drawn by the fallback board (the default for a game without a board module)`);
  // Waiting for bob: the server refuses every command until the seats are taken, so alice
  // is offered none, and the turn line says what she waits for.
  const waiting = await board(alice);
  check(waiting.commands.length === 0 && waiting.turn === 'Waiting for players', `waiting for bob, alice has no buttons (${waiting.commands.length}) and reads "${waiting.turn}"`);
  await login(bob, base, 'bob');
  await bob.waitForSelector(`[data-join="${match}"]`);
  const row = await bob.textContent(`li[data-match="${match}"]`);
  check(row.includes('Goofspiel'), `bob's lobby names the match's game: "${row.trim()}"`);
  await bob.click(`[data-join="${match}"]`);
  await bob.waitForSelector('.match[data-seat="1"] .fallback-board');
  await eve.goto(base);
  await eve.waitForSelector(`[data-spectate="${match}"]`);
  await eve.click(`[data-spectate="${match}"]`);
  await eve.waitForSelector('.match[data-seat="-1"] .fallback-board');

  const pages = [alice, bob];
  const names = ['alice', 'bob'];
  const all = [alice, bob, eve];
  const seqOf = async (page) => Number(await page.getAttribute('.match', 'data-seq'));
  // Every page at the same event before the next click: what each shows is then comparable.
  const settled = () => until('every page at the same event', async () => {
    const here = await Promise.all(all.map(board));
    return here.every((w) => w.seq === here[0].seq) ? here : null;
  });
  let here = await settled();
  const cards = numbers(here[0].values.cards);
  check(cards >= 3 && here.every((w) => w.values.hands === JSON.stringify([2 ** cards - 1, 2 ** cards - 1]).replace(',', ', ')), `a match of ${cards} cards, both hands full on every page (${here[0].values.hands})`);
  check(here[0].turn === 'Your turn (with bob)' && here[1].turn === 'Your turn (with alice)' && here[2].turn === 'Waiting for alice and bob', `both bid at once: "${here[0].turn}", "${here[1].turn}", "${here[2].turn}"`);
  check(here[2].commands.length === 0 && here[2].hint === 'You are watching: no commands.', `the spectator has no buttons: "${here[2].hint}"`);

  let accepted = 0;
  let hiddenChecked = 0;
  const scores = [0, 0];
  for (let n = 0; n < 4 * cards; ++n) {
    if (here.some((w) => w.over)) break;
    const ready = [0, 1].filter((i) => here[i].commands.length > 0);
    if (!ready.length) break;
    const who = ready[Math.floor(random() * ready.length)];
    const other = 1 - who;
    const before = here[who];
    const k = Math.floor(random() * before.commands.length);
    const command = before.commands[k];
    const card = JSON.parse(command).card;
    const handBefore = numbers(before.values.hands)[who];
    // The buttons are the bidder's hand, exactly.
    const offered = before.commands.map((c) => JSON.parse(c).card);
    if (!check(JSON.stringify(offered) === JSON.stringify(cardsOf(handBefore)) || n > 0, `${names[who]}'s buttons are their hand: ${offered.join(' ')}`)) break;
    const otherBid = numbers(here[other].values.bids)[other] > 0; // the other has bid already
    await pages[who].locator('button.fb-command').nth(k).click();
    await until(`${names[who]}'s bid to be answered`, async () => {
      const w = await board(pages[who]);
      return w.seq > before.seq || w.notice ? w : null;
    }, 10_000, 20);
    here = await settled();
    if (!check(here[who].seq === before.seq + 1, `${names[who]} bid ${card} at event ${before.seq}: accepted, event ${here[who].seq}`)) break;
    accepted += 1;
    if (accepted === 1) {
      // The first bid started the match (the server's status is running): a player resigns, a spectator stops watching.
      const buttons = await Promise.all(all.map((p) => p.evaluate(() => [...document.querySelectorAll('header.status button')].map((b) => b.textContent))));
      check(buttons[0].includes('Resign') && buttons[1].includes('Resign') && buttons[2].includes('Stop watching') && !buttons.flat().includes('Leave'), `once the match runs the header offers ${buttons.map((b) => `"${b.join(', ')}"`).join(' / ')}`);
    }
    const line = here.map((w) => w.log[before.seq + 1]);
    if (!otherBid) {
      // Hidden: the bidder sees her bid; the other player and the spectator see that she bid,
      // not what: her bid is -1 and the card is still counted in her hand, the log says "bid".
      const mine = here[who].values;
      const seen = [here[other].values, here[2].values];
      const ok = numbers(mine.bids)[who] === card && numbers(mine.hands)[who] === (handBefore & ~(1 << (card - 1))) &&
        seen.every((v) => numbers(v.bids)[who] === -1 && numbers(v.hands)[who] === handBefore) &&
        line.every((l) => l === `${names[who]} bid`);
      if (!check(ok, `${names[who]}'s bid of ${card} is hers alone: she sees bids ${mine.bids} hands ${mine.hands}; ${names[other]} sees bids ${seen[0].bids} hands ${seen[0].hands}, eve bids ${seen[1].bids}; log "${line.join('" / "')}"`)) break;
      if (!check(here[who].turn === `Waiting for ${names[other]}` && here[who].hint === 'Nothing to do now.' && here[other].turn === 'Your turn' && here[other].commands.length > 0, `then "${here[who].turn}" (no buttons) for ${names[who]}, "${here[other].turn}" for ${names[other]}`)) break;
      hiddenChecked += 1;
      if (hiddenChecked === 2) await pages[other].screenshot({ path: join(out, 'goofspiel-fallback.png') });
    } else {
      // The round resolves: both bids are shown to everyone, in the same words.
      const m = /^(\w+) bid (\d+) against (\d+): (?:nobody takes the (\d+)|(\w+) takes the (\d+))$/.exec(line[0] ?? '');
      const ok = m && m[1] === names[who] && Number(m[2]) === card && line.every((l) => l === line[0]);
      if (!check(ok, `the round resolves on every page: "${line[0]}"`)) break;
      if (m[5]) scores[names.indexOf(m[5])] += Number(m[6]);
      const shown = here.map((w) => w.values.scores);
      if (!check(shown.every((s) => s === `[${scores[0]}, ${scores[1]}]`), `the score on every page: ${shown.join(' / ')}`)) break;
    }
  }
  check(accepted === 2 * cards, `${accepted} bids clicked on the fallback board's buttons, each accepted (${cards} rounds)`);
  check(hiddenChecked === cards, `${hiddenChecked} face-down bids stayed hidden from the other player and the spectator`);
  const wire = [leaks(frames[0], 0), leaks(frames[1], 1), leaks(frames[2], -1)];
  // The check itself is not blind: each player's own messages do show their bids.
  check(leaks(frames[0], 1).length > 0 && leaks(frames[1], 0).length > 0, 'the wire check sees a bid in its own bidder\'s messages');
  check(wire.every((l) => l.length === 0), `no page received another seat's bid: ${frames.map((f) => f.length).join('/')} messages checked${wire.flat().length ? `, leaked: ${wire.flat()[0]}` : ''}`);

  // The game over, on both players' pages and the spectator's: the winner and the score.
  await until('the game over on every page', async () => (await Promise.all(all.map(board))).every((w) => w.over), 15_000);
  const results = await Promise.all(all.map((p) => p.textContent('[data-result]')));
  const details = await Promise.all(all.map((p) => p.$$eval('[data-result-details]', (l) => l.map((x) => x.textContent).join(' / '))));
  const winner = scores[0] === scores[1] ? null : scores[0] > scores[1] ? 0 : 1;
  const said = winner === null
    ? results.every((r) => r.startsWith('A draw between alice and bob'))
    : results[winner].startsWith('You win') && results[1 - winner].startsWith(`${names[winner]} won`) && results[2].startsWith(`${names[winner]} won`);
  check(said && details.every((d) => d === `Scores: alice ${scores[0]}, bob ${scores[1]}`), `the game over names the winner and the score (alice ${scores[0]}, bob ${scores[1]}): "${results.join('" / "')}", "${details.join('" / "')}"`);
  const turns = await Promise.all(all.map((p) => p.textContent('[data-turn]')));
  check(turns.every((t) => t === 'Game over'), `behind it the turn line reads ${turns.map((t) => `"${t}"`).join(' / ')}`);
  await alice.screenshot({ path: join(out, 'goofspiel-game-over.png') });
  const events = 1 + accepted;
  const evLog = Object.keys((await board(eve)).log).map(Number);
  check(evLog.length === events && evLog[0] === 1 && evLog.at(-1) === events, `the spectator's log holds every event, 1 to ${evLog.at(-1)}`);
  for (const p of all) await p.context().close();
  if (replayTestGamesBin) await goofspielReplay(match, events);
}

// The replay viewer of the tests' games: the stored Goofspiel match on the fallback board
// (its default there too), inert, stepping with the arrow keys.
async function goofspielReplay(match, events) {
  const { replay, base } = await serveReplay(replayTestGamesBin, 'goofspiel.db');
  try {
    const page = await newPage('replay (Goofspiel)');
    await page.goto(`${base}#match=${match}&seq=1`);
    await page.waitForSelector('[data-replay-seq="1"]');
    await page.waitForSelector('.match.replay .fallback-board');
    const applied = async () => Number((await board(page)).values.events);
    check((await page.$$('.fb-commands, button.fb-command')).length === 0 && (await applied()) === 1, `the replay viewer shows the stored Goofspiel match on the fallback board without ?board=fallback: event 1 (events ${await applied()}), no commands`);
    for (const [key, want] of [['ArrowRight', 2], ['ArrowRight', 3], ['ArrowLeft', 2], ['End', events]]) {
      await page.keyboard.press(key);
      await page.waitForSelector(`[data-replay-seq="${want}"]`);
      await until(`the view of event ${want}`, async () => (await applied()) === want);
    }
    check(true, `→ → ← and End step through it and the tree follows (events applied ${await applied()})`);
    const last = await board(page);
    check(/^\[\d+, \d+\]$/.test(last.values.scores) && last.values.end !== 'none', `its last event: scores ${last.values.scores}, end ${last.values.end}`);
    const log = await page.$$eval('.replay-log li', (l) => l.length);
    check(log === events, `its log holds the ${events} events`);
    await page.context().close();
  } finally {
    replay.kill('SIGTERM');
  }
}

try {
  if (only.includes('A')) await scriptedCards();
  if (only.includes('B')) await eriantysThroughFallback();
  if (only.includes('C') && testServerBin) await goofspielOnTheTestServer();
  else if (only.includes('C')) console.log('# C left out: no --test-server');
} catch (e) {
  t.failures += 1;
  console.log(`not ok - ${e.stack ?? e}`);
  if (serverLog) console.log(`# server log (tail):\n${serverLog.slice(-2000)}`);
} finally {
  await browser.close();
  for (const server of servers) if (server.exitCode === null) server.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
console.log(`# ${t.passes} passed, ${t.failures} failed, ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(t.failures ? 1 : 0);
