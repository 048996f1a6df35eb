// Private matches and invite links in a real browser (Debian's chromium driven by
// playwright-core) against the real eryantis-server (docs/accounts.md, "Invite links
// and private matches"; issue 26). Three browser contexts: alice ticks "private" and
// creates a 2-player match; her waiting room shows "Copy invite link" and the link
// (http://host:port/#join=<match>&code=<code>). bob opens that link, gives his nickname
// and lands in alice's match, seat 1. carol's lobby never lists the match, before or
// after (dave's public match is listed beside it), and a link with a wrong code leaves her
// in the lobby with NO_SUCH_MATCH (a wrong code reads as no match). After alice's "new link" the old one is INVITE_REVOKED.
// Usage (CTest passes these):
//   node invite_test.mjs --web WEBDIR --out DIR --server BIN [--chromium PATH]
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
const out = resolve(args.out ?? join(build, 'web-artifacts', 'invite'));
const chromiumPath = args.chromium ?? '/usr/bin/chromium';
const serverBin = resolve(args.server ?? join(build, 'eryantis-server'));
const kDeadlineMs = 120_000;
const started = Date.now();
const t = tally({ started, deadlineMs: kDeadlineMs, name: 'the test' });
const { check, until } = t;
mkdirSync(out, { recursive: true });

const dir = mkdtempSync(join(tmpdir(), 'eryantis-invite-test-'));
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

// The match ids the lobby lists (open and running).
const listed = (page) => page.$$eval('.lobby li[data-match]', (els) => els.map((e) => Number(e.getAttribute('data-match'))));

try {
  running = await startWebServer({ dir, serverBin, dist, until });
  const base = running.base;

  // carol watches the lobby the whole time.
  const carol = await newPage('carol');
  await login(carol, base, 'carol');
  await carol.waitForSelector('form.create');

  const alice = await newPage('alice');
  await login(alice, base, 'alice');
  await alice.waitForSelector('form.create');
  await alice.selectOption('select[name=players]', '2');
  await alice.check('input[name=private]');
  await alice.click('[data-create]');
  await alice.waitForSelector('.match[data-seat="0"]');
  const match = Number(await alice.getAttribute('.match', 'data-match'));
  await alice.waitForSelector('[data-copy-invite]');
  const link = await alice.getAttribute('[data-invite-link]', 'data-invite-link');
  const expected = new RegExp(`^${base.replace(/\/$/, '').replace(/[.]/g, '\\.')}/#join=${match}&code=[A-Za-z0-9_-]{22}$`);
  check(expected.test(link), `alice's waiting room shows the invite link (${link})`);
  const button = await alice.$eval('[data-copy-invite]', (e) => e.textContent);
  check(button === 'Copy invite link', `with a "${button}" button`);
  // Copying: the clipboard holds the link (granted to this context for the check).
  await alice.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base.replace(/\/$/, '') });
  await alice.click('[data-copy-invite]');
  const copied = await alice.evaluate(() => navigator.clipboard.readText()).catch((e) => `(unreadable: ${e.message})`);
  check(copied === link, `the button copies the link (${copied})`);

  // dave creates a public match: carol's lobby (pushed by the server) lists his, not alice's.
  const dave = await newPage('dave');
  await login(dave, base, 'dave');
  await dave.waitForSelector('form.create');
  await dave.selectOption('select[name=players]', '3');
  await dave.click('[data-create]');
  await dave.waitForSelector('.match[data-seat="0"]');
  const open = Number(await dave.getAttribute('.match', 'data-match'));
  check((await dave.$$('[data-copy-invite]')).length === 0, "a public match's page offers no invite link");
  await until("carol's lobby lists dave's public match", async () => (await listed(carol)).includes(open));
  check(!(await listed(carol)).includes(match), `carol's lobby does not list private match ${match}`);

  // A link with a wrong code: carol stays in the lobby and is told why.
  const wrong = link.replace(/code=.*/, 'code=AAAAAAAAAAAAAAAAAAAAAA');
  await carol.goto('about:blank'); // a full load of the link, not a same-page fragment change
  await carol.goto(wrong);
  await carol.waitForSelector('form.create');
  await carol.waitForSelector('.notice[data-code="NO_SUCH_MATCH"]');
  check(true, 'a link with a wrong code is refused as a match that does not exist (NO_SUCH_MATCH)');
  check((await carol.$$('.match')).length === 0, 'carol is not in the match');

  // bob opens the link and gives his nickname: he is in alice's match, seat 1.
  const bob = await newPage('bob');
  await login(bob, link, 'bob');
  await bob.waitForSelector(`.match[data-match="${match}"][data-seat="1"]`);
  check(true, `bob joined match ${match} through the link, seat 1`);
  check(!(await bob.evaluate(() => location.hash)), 'the link is taken out of the address bar (a reload does not join again)');
  await until('alice sees bob seated', async () =>
    (await alice.$$eval('[data-seat-status]', (els) => els.map((e) => e.textContent))).some((x) => x.startsWith('bob')),
  );
  check(true, "alice's seats show bob");

  await until("carol's lobby lists dave's match again", async () => (await listed(carol)).includes(open));
  check(!(await listed(carol)).includes(match), 'carol\'s lobby still does not list it (now being played)');
  // "new link": the old link stops working (INVITE_REVOKED), the page shows the new one.
  await alice.click('[data-revoke-invite]');
  await until('alice shows a new link', async () => (await alice.getAttribute('[data-invite-link]', 'data-invite-link')) !== link);
  const fresh = await alice.getAttribute('[data-invite-link]', 'data-invite-link');
  check(expected.test(fresh), `after "new link" alice shows another link (${fresh})`);
  await carol.goto('about:blank');
  await carol.goto(link);
  await carol.waitForSelector('.notice[data-code="INVITE_REVOKED"]');
  check(true, 'the old link is refused with INVITE_REVOKED');
  await alice.screenshot({ path: join(out, 'invite.png') });
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
