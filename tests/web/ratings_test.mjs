// History and ratings (issue 26) in a real browser against the real eryantis-server: the
// load bot finishes a match against the server's random computer (the scale's anchor);
// the computer's profile lists it (result, opponent, length, rating change) with a link
// that opens it in the replay viewer (eryantis-replay DB serve, the server's [web]
// replay_url); the leaderboard shows the computer and, with provisional ratings shown,
// the bot; the bot's own profile, reached from the leaderboard, lists the same match.
// Usage (CTest passes these):
//   node ratings_test.mjs --web WEBDIR --out DIR --server BIN --replay BIN --bot BIN [--chromium PATH]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, launchChromium, startWebServer, tally } from './harness.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const build = resolve(args.build ?? 'build');
const web = resolve(args.web ?? 'web');
const dist = join(web, 'dist');
const out = resolve(args.out ?? join(build, 'web-artifacts', 'ratings'));
const chromiumPath = args.chromium ?? '/usr/bin/chromium';
const serverBin = resolve(args.server ?? join(build, 'eryantis-server'));
const replayBin = resolve(args.replay ?? join(build, 'tools', 'eryantis-replay'));
const botBin = resolve(args.bot ?? join(build, 'tools', 'eryantis-bot'));
const kDeadlineMs = 150_000;
const started = Date.now();
const t = tally({ started, deadlineMs: kDeadlineMs, name: 'the test' });
const { check, until } = t;
mkdirSync(out, { recursive: true });

const dir = mkdtempSync(join(tmpdir(), 'eryantis-ratings-test-'));
let running = null;
let replay = null;
const browser = await launchChromium(web, chromiumPath);
const pages = [];
async function newPage(name, ctx) {
  const page = await ctx.newPage();
  page.on('pageerror', (e) => check(false, `${name}: page error ${e.message}`));
  page.name = name;
  pages.push(page);
  return page;
}

try {
  const replayPort = await freePort();
  const replayBase = `http://127.0.0.1:${replayPort}/`;
  running = await startWebServer({ dir, serverBin, dist, until, computerPauseMs: 0, web: `replay_url = "${replayBase}"\n` });
  const { base } = running;

  // A match played to its end: a bot against the random computer.
  const bot = spawnSync(botBin, ['--port', String(running.tcpPort), '--players', '2', '--computers', '1', '--level', 'random', '--matches', '1', '--games', '1', '--duration', '100', '--name-prefix', 'wr', '--quiet'], { encoding: 'utf8', timeout: 110_000 });
  if (!check(bot.status === 0, `the bot finished a match against the computer (exit ${bot.status})`)) throw new Error(bot.stderr);
  const history = await until('the finished match in the history', async () => {
    const res = await fetch(`${base}history/computer:random`);
    return res.ok ? res.json() : null;
  });
  const match = history.matches[0];
  const botName = match.seats.find((s) => !s.player.startsWith('computer:')).name;
  check(history.finished === 1 && botName.startsWith('wr'), `GET /history: match ${match.match} against ${botName}`);

  // The replay viewer over the same file (read-only, beside the running server).
  replay = spawn(replayBin, [join(dir, 'eryantis.db'), 'serve', '--port', String(replayPort), '--static', dist], { stdio: 'ignore' });
  await until('replay serve', async () => {
    try {
      return (await fetch(`${replayBase}api/matches`)).ok;
    } catch {
      return false;
    }
  }, 10_000, 100);

  const ctx = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await newPage('profile', ctx);
  // The computer's profile: the match, its result, its opponent and the replay link.
  await page.goto(`${base}?profile=computer:random`);
  await page.waitForSelector(`.history tr[data-match="${match.match}"]`);
  const row = await page.$eval(`.history tr[data-match="${match.match}"]`, (tr) => ({ result: tr.dataset.result, text: tr.textContent }));
  const place = match.seats.find((s) => s.you).place;
  check(row.result === (place === 1 ? 'won' : 'lost'), `the profile lists match ${match.match} (${row.result}, place ${place}): ${row.text}`);
  check(row.text.includes(botName), 'with its opponent by name');
  check(/\d+ moves, \d/.test(row.text), 'and its length in moves and time');
  const rating = await page.$eval('.ratings tr[data-pool="eriantys/2"]', (tr) => tr.textContent);
  check(/1000/.test(rating), `the computer's rating in the 2-player pool is the anchor's 1000: ${rating}`);
  await page.screenshot({ path: join(out, 'profile.png'), fullPage: true });

  // The replay link opens the match in the replay viewer.
  const href = await page.getAttribute(`a[data-replay="${match.match}"]`, 'href');
  check(href === `${replayBase}#match=${match.match}`, `the replay link is ${href}`);
  const [viewer] = await Promise.all([ctx.waitForEvent('page'), page.click(`a[data-replay="${match.match}"]`)]);
  viewer.on('pageerror', (e) => check(false, `replay viewer: page error ${e.message}`));
  pages.push(Object.assign(viewer, { name: 'replay viewer' }));
  await viewer.waitForSelector('[data-replay-seq]');
  const heading = await viewer.textContent('strong');
  check(heading === `Match #${match.match}`, `the replay viewer shows "${heading}"`);
  await viewer.screenshot({ path: join(out, 'replay.png') });

  // The leaderboard: the anchor, and with provisional ratings the bot (one match: provisional).
  await page.goto(`${base}`);
  await page.click('a[data-nav="leaderboard"]');
  await page.waitForSelector('table.ratings tr[data-player="computer:random"]');
  check(!(await page.$(`table.ratings tr[data-player="name:${botName}"]`)), 'the bot, provisional, is off the leaderboard');
  await page.click('a[data-provisional-toggle]');
  await page.waitForSelector(`table.ratings tr[data-player="name:${botName}"]`);
  const botRow = await page.textContent(`table.ratings tr[data-player="name:${botName}"]`);
  check(/^\?/.test(botRow.trim()), `with provisional ratings shown it is there, marked ?: ${botRow}`);
  await page.screenshot({ path: join(out, 'leaderboard.png'), fullPage: true });
  // Its profile from the leaderboard lists the same match.
  await page.click(`table.ratings tr[data-player="name:${botName}"] a`);
  await page.waitForSelector(`.history tr[data-match="${match.match}"]`);
  check((await page.textContent('h2')) === botName, `${botName}'s profile lists match ${match.match}`);
  // The bot's nickname logged in from the browser: the lobby links to its own profile.
  await page.goto(base);
  await page.fill('input[name=nickname]', botName);
  await page.click('form.login button[type=submit]');
  await page.waitForSelector('form.create');
  await page.click('a[data-nav="profile"]');
  await page.waitForSelector(`.history tr[data-match="${match.match}"]`);
  check(new URL(page.url()).searchParams.get('profile') === botName, `the lobby's "Your matches and ratings" opens ${botName}'s profile`);
  // An unknown player: the server's coded error, shown as text.
  await page.goto(`${base}?profile=nobody`);
  await page.waitForSelector('[data-error="UNKNOWN_PLAYER"]');
  check(true, 'an unknown player shows UNKNOWN_PLAYER');
} catch (e) {
  t.failures += 1;
  console.log(`not ok - ${e.message}`);
  for (const p of pages) await p.screenshot({ path: join(out, `failure-${p.name.replace(/\W+/g, '-')}.png`) }).catch(() => {});
  console.log(`# server log (tail):\n${(running ? running.log() : '').split('\n').slice(-30).join('\n')}`);
} finally {
  await browser.close().catch(() => {});
  if (replay && replay.exitCode === null) replay.kill('SIGKILL');
  if (running && running.server.exitCode === null) running.server.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${t.passes} passed, ${t.failures} failed`);
process.exit(t.failures ? 1 : 0);
