// Issue 26's "Done when", as a new user's path, in a real browser (Debian's chromium
// driven by playwright-core) against the real eryantis-server and its SQLite file:
//   1. alice registers from the page's account form (the session an HttpOnly cookie);
//   2. she creates a PRIVATE 3-player Eriantys match with a real-time clock (the form's
//      "clock 15 s (ultrabullet)", out of time: forfeit);
//   3. she copies the invite link ("Copy invite link"); bob opens it in a second browser
//      context, registers there, and lands in her match, seat 1;
//   4. alice adds a computer (the waiting room's "Add a computer");
//   5. they chat, alice with `<img src=x onerror=alert(1)>`: both pages show those
//      characters, no <img> is made, no dialog opens;
//   6. both choose wizard and tower; the match runs; nobody moves: the clock of the first
//      person to act runs out while both pages are connected, and under "forfeit" that seat
//      resigns, which ends a 3-player Eriantys match for everyone (the resigner last, the
//      others ranked as at the end: docs/protocol.md, "Clocks");
//   7. each player's profile (the lobby's "Your matches and ratings") has the match's rating
//      in the 3-player pool and lists the match as a private row (its result and rating
//      change, without its id, opponents or replay link: the page is public; docs/
//      accounts.md, "Private matches in ratings and histories"); the leaderboard
//      (provisional shown) has both players;
//   8. a THIRD fresh context logs in to alice's account with the password and finds her
//      rating and the private match in her history.
// Every wait is bounded (10 s each unless told); the whole test takes about 21 s (15 of them
// the clock).
// Usage (CTest passes these):
//   node walkthrough_test.mjs --web WEBDIR --out DIR --server BIN [--chromium PATH]
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
const out = resolve(args.out ?? join(build, 'web-artifacts', 'walkthrough'));
const chromiumPath = args.chromium ?? '/usr/bin/chromium';
const serverBin = resolve(args.server ?? join(build, 'eryantis-server'));
const started = Date.now();
const t = tally({ started, deadlineMs: 90_000, name: 'the walkthrough' });
const { check, until } = t;
mkdirSync(out, { recursive: true });

const kInjection = '<img src=x onerror=alert(1)>';
const kPasswords = { alice: 'alice has a long password', bob: 'bob has one too' };

const dir = mkdtempSync(join(tmpdir(), 'eryantis-walkthrough-test-'));
let running = null;
const browser = await launchChromium(web, chromiumPath);
const pages = [];
const dialogs = [];
async function newPage(name) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  page.setDefaultTimeout(10_000); // every wait bounded well inside the test's 90 s
  page.on('pageerror', (e) => check(false, `${name}: page error ${e.message}`));
  page.on('dialog', (d) => {
    dialogs.push(`${name}: ${d.type()} ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  page.name = name;
  pages.push(page);
  return page;
}
async function account(page, kind, name) {
  await page.waitForSelector('[data-account-form]');
  await page.fill('input[name=account]', name);
  await page.fill('input[name=password]', kPasswords[name]);
  await page.click(kind === 'register' ? '[data-account-register]' : '[data-account-login]');
}
const sessionCookie = async (page) => (await page.context().cookies()).find((c) => c.name === 'eryantis_session');
const chatTexts = (page) => page.$$eval('.chat-lines li .chat-text', (els) => els.map((e) => e.textContent));
const injected = (page) => page.evaluate(() => document.querySelectorAll('.chat img, .chat script').length);
const clocks = (page) => page.$$eval('[data-clock]', (els) => els.map((e) => ({ seat: Number(e.dataset.clock), left: Number(e.dataset.leftMs), running: e.dataset.running === '1', text: e.textContent })));

// The profile page from the lobby's link, once the server has rated the match (it reads
// finished matches on its 100 ms tick): the 3-player pool's rating, the private matches
// listed, and whether `match` has a row with its id. A private match is rated and listed in
// its players' histories without its id, opponents or replay link (docs/accounts.md,
// "Private matches in ratings and histories"): the history route answers anyone.
async function profileFromLobby(page, name, match) {
  await page.goto(running.base);
  await page.waitForSelector('a[data-nav="profile"]');
  await page.click('a[data-nav="profile"]');
  await page.waitForSelector(`h2[data-profile="${name}"]`);
  await until(`${name}'s profile rates the match`, async () => {
    if (await page.$('.ratings tr[data-pool="eriantys/3"]')) return true;
    await page.reload();
    await page.waitForSelector(`h2[data-profile="${name}"]`);
    return false;
  }, 10_000, 300);
  const rating = await page.$eval('.ratings tr[data-pool="eriantys/3"]', (tr) => tr.textContent);
  // A private match's row carries no id (the page is public): data-private instead.
  const listed = (await page.$(`.history tr[data-match="${match}"]`)) !== null;
  const privateRows = (await page.$$('.history tr[data-private]')).length;
  const privateCount = Number(await page.getAttribute('[data-private-matches]', 'data-private-matches').catch(() => 0));
  const heading = await page.$eval('.profile h3:last-of-type', (e) => e.textContent).catch(() => '');
  return { rating, listed, privateRows, privateCount, heading, url: page.url() };
}

try {
  // libsodium's smallest Argon2id (the page is tested, not the cost); computers play at once.
  running = await startWebServer({ dir, serverBin, dist, until, computerPauseMs: 0, web: '\n[accounts]\npasses = 1\nmemory_kib = 8\n' });
  const { base } = running;

  // 1. alice registers.
  const alice = await newPage('alice');
  await alice.goto(base);
  await account(alice, 'register', 'alice');
  await alice.waitForSelector('form.create');
  await until('alice shown logged in to her account', async () => (await alice.$eval('.who', (e) => e.textContent)).includes('(account)'));
  await until("alice's session cookie", async () => (await sessionCookie(alice)) !== undefined);
  const cookie = await sessionCookie(alice);
  check(cookie.httpOnly && cookie.sameSite === 'Strict', 'step 1: alice registered from the form; her session is an HttpOnly, SameSite=Strict cookie');
  check(!(await alice.evaluate(() => document.cookie)).includes('eryantis_session'), 'step 1: page scripts cannot read it');

  // 2. A private 3-player match with a real-time clock, forfeit when out of time.
  await alice.selectOption('select[name=players]', '3');
  await alice.check('input[name=private]');
  await alice.selectOption('select[name=clock]', '15s');
  await alice.selectOption('select[name=on_timeout]', 'forfeit');
  await alice.click('[data-create]');
  await alice.waitForSelector('.match[data-seat="0"] [data-clock="2"]');
  const match = Number(await alice.getAttribute('.match', 'data-match'));
  const control = await alice.getAttribute('[data-clock-control]', 'data-clock-control');
  check(match > 0 && control === '15s+0s', `step 2: alice created private match ${match}, 3 seats, clock "${control}"`);

  // 3. The invite link, copied by its button, opened by bob in his own browser.
  await alice.waitForSelector('[data-copy-invite]');
  check((await alice.textContent('[data-copy-invite]')) === 'Copy invite link', 'step 3: the waiting room has "Copy invite link"');
  await alice.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base.replace(/\/$/, '') });
  await alice.click('[data-copy-invite]');
  const link = await alice.evaluate(() => navigator.clipboard.readText());
  check(new RegExp(`#join=${match}&code=[A-Za-z0-9_-]{22}$`).test(link), `step 3: the clipboard holds the link ${link}`);
  const bob = await newPage('bob');
  await bob.goto(link);
  await account(bob, 'register', 'bob');
  await bob.waitForSelector(`.match[data-match="${match}"][data-seat="1"]`);
  await until("bob's session cookie", async () => (await sessionCookie(bob)) !== undefined);
  check(true, `step 3: bob opened the link, registered, and sits in match ${match}, seat 1`);

  // 5 (before the match runs, so that the clock is only the players'). The chat.
  await alice.fill('.chat input[name=chat]', kInjection);
  await alice.click('[data-chat-send]');
  await until('bob reads alice\'s line', async () => (await chatTexts(bob)).includes(kInjection));
  await bob.fill('.chat input[name=chat]', 'hi alice, glhf');
  await bob.click('[data-chat-send]');
  await until('alice reads bob\'s line', async () => (await chatTexts(alice)).includes('hi alice, glhf'));
  check((await chatTexts(alice)).join('|') === `${kInjection}|hi alice, glhf`, `step 5: alice's chat shows the characters sent: ${JSON.stringify(await chatTexts(alice))}`);
  check((await injected(alice)) === 0 && (await injected(bob)) === 0, 'step 5: no <img> (nor <script>) in either chat');
  check(dialogs.length === 0, `step 5: no dialog opened (${dialogs.join('; ')})`);

  // 4. A computer in the third seat: the match is full, its setup starts.
  await alice.selectOption('select[name=add-level]', 'greedy');
  await alice.click('[data-add-computer]');
  await alice.waitForSelector('[data-seat-status="2"][data-computer="greedy"]');
  check(true, 'step 4: alice added a greedy computer in seat 2');

  // 6. Setup (a wizard and a tower each), then nobody moves: a clock runs out.
  for (const p of [alice, bob]) {
    await p.waitForSelector('button[data-wizard]');
    await p.click('button[data-wizard]');
    await p.waitForSelector('button[data-tower]');
    await p.click('button[data-tower]');
    await until(`${p.name}'s setup choices taken`, async () => (await p.$$('button[data-tower]')).length === 0, 5_000);
  }
  await until('a person\'s clock running', async () => (await clocks(alice)).some((c) => c.running && c.seat < 2), 15_000);
  const runningClock = (await clocks(alice)).find((c) => c.running);
  const loser = runningClock.seat === 0 ? alice : bob;
  const other = loser === alice ? bob : alice;
  check(runningClock.left <= 15_000, `step 6: the match runs; ${loser.name}'s clock runs (${runningClock.text})`);
  await until(`${loser.name}'s clock shown going down`, async () => (await clocks(loser)).find((c) => c.seat === runningClock.seat)?.left < runningClock.left - 1000, 5_000, 100);
  check(true, `step 6: ${loser.name}'s page counts it down; nobody moves`);
  const online = await other.$eval(`[data-seat-status="${runningClock.seat}"]`, (e) => e.classList.contains('online'));
  check(online, `step 6: ${other.name}'s page shows ${loser.name} connected while the clock runs`);
  await loser.waitForSelector('[data-game-over]', { timeout: 25_000 });
  await other.waitForSelector('[data-game-over]', { timeout: 5_000 });
  const resultLoser = await loser.textContent('[data-result]');
  const resultOther = await other.textContent('[data-result]');
  const out0 = (await clocks(other)).find((c) => c.seat === runningClock.seat);
  check(out0 && out0.left === 0 && /0:00$/.test(out0.text), `step 6: ${loser.name}'s clock ran out while connected: ${other.name}'s page shows "${out0?.text}"`);
  check(resultOther.includes(`${loser.name}'s time ran out`) && resultLoser.includes('your time ran out'), `step 6: the match is finished for everyone; ${other.name} reads "${resultOther}"; ${loser.name} reads "${resultLoser}"`);
  const lastLine = await other.$eval('.log li:last-child', (li) => li.textContent).catch(() => '(no log)');
  check(lastLine.includes(loser.name), `step 6: ${other.name}'s move log ends with "${lastLine}"`);
  check((await loser.$$('.notice[data-code="DISCONNECTED"]')).length === 0, `step 6: ${loser.name}'s page was connected throughout`);
  await other.screenshot({ path: join(out, 'game-over.png') });

  // 7. Both histories and ratings, from the lobby's link; the leaderboard.
  for (const p of [alice, bob]) {
    const { rating, listed, privateRows, privateCount, heading, url } = await profileFromLobby(p, p.name, match);
    check(/\d{3,4}/.test(rating) && (p === loser ? /0-0-1$/ : /1-0-0$|0-1-0$/).test(rating), `step 7: ${p.name}'s profile (${new URL(url).search}) rates the match in the 3-player pool: ${rating}`);
    check(!listed && privateRows === 1 && privateCount === 1, `step 7: ${p.name}'s history lists private match ${match} as a private row (no id, opponents or replay: the page is public): "${heading}"`);
  }
  await alice.screenshot({ path: join(out, 'profile.png'), fullPage: true });
  await alice.goto(`${base}?leaderboard=eriantys&players=3&provisional=1`);
  await alice.waitForSelector('table.ratings tr[data-player="computer:greedy"]');
  const board = await alice.$$eval('table.ratings tr[data-player]', (trs) => trs.map((tr) => `${tr.dataset.player} ${tr.textContent.trim()}`));
  // Accounts are rated under account:<id> and shown by their names.
  const listedAs = (name) => board.some((r) => r.startsWith('account:') && r.includes(name));
  check(listedAs('alice') && listedAs('bob'), `step 7: the 3-player leaderboard (provisional shown) lists both accounts by name: ${board.join(' | ')}`);
  await alice.screenshot({ path: join(out, 'leaderboard.png'), fullPage: true });

  // 8. A third, fresh context: alice's password, and everything is there.
  const elsewhere = await newPage('alice elsewhere');
  await elsewhere.goto(base);
  await account(elsewhere, 'login', 'alice');
  await elsewhere.waitForSelector('form.create');
  await until('the third context is logged in to alice\'s account', async () => (await elsewhere.$eval('.who', (e) => e.textContent)).includes('alice'));
  check((await elsewhere.$$('.match')).length === 0, 'step 8: a third context logged in with the password (the finished match is not reopened)');
  const again = await profileFromLobby(elsewhere, 'alice', match);
  check(again.privateCount === 1 && again.privateRows === 1 && !again.listed, `step 8: alice's history there lists the private match: "${again.heading}"`);
  check(/\d{3,4}/.test(again.rating), `step 8: and her rating: ${again.rating}`);
  check(dialogs.length === 0, `no dialog opened in the whole walk (${dialogs.join('; ')})`);
  await elsewhere.screenshot({ path: join(out, 'elsewhere.png'), fullPage: true });
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
console.log(`${t.passes} passed, ${t.failures} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
process.exit(t.failures ? 1 : 0);
