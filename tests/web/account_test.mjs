// Accounts in a real browser (Debian's chromium driven by playwright-core) against the
// real eryantis-server (docs/accounts.md, "The web page's cookie"; issue 26). In a first
// browser context erin registers with the page's account form: the session lands in an
// HttpOnly, SameSite=Strict cookie that `document.cookie` does not show; "log out" ends
// it and clears the cookie; she logs in again with her password and creates a 2-player
// match; a reload is back in it with no typing (the WebSocket upgrade's cookie). A second,
// fresh context logs in with the name and password and is back in that match, seat 0.
// A guest still plays beside them ([accounts] guests = true, the default).
// Usage (CTest passes these):
//   node account_test.mjs --web WEBDIR --out DIR --server BIN [--chromium PATH]
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
const out = resolve(args.out ?? join(build, 'web-artifacts', 'account'));
const chromiumPath = args.chromium ?? '/usr/bin/chromium';
const serverBin = resolve(args.server ?? join(build, 'eryantis-server'));
const kDeadlineMs = 120_000;
const started = Date.now();
const t = tally({ started, deadlineMs: kDeadlineMs, name: 'the test' });
const { check, until } = t;
mkdirSync(out, { recursive: true });

const dir = mkdtempSync(join(tmpdir(), 'eryantis-account-test-'));
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

async function account(page, kind, name, password) {
  await page.waitForSelector('[data-account-form]');
  await page.fill('input[name=account]', name);
  await page.fill('input[name=password]', password);
  await page.click(kind === 'register' ? '[data-account-register]' : '[data-account-login]');
}
const sessionCookie = async (page) => (await page.context().cookies()).find((c) => c.name === 'eryantis_session');
const scriptCookies = (page) => page.evaluate(() => document.cookie);

try {
  // libsodium's smallest Argon2id: the test checks the page, not the cost.
  running = await startWebServer({ dir, serverBin, dist, until, web: '\n[accounts]\npasses = 1\nmemory_kib = 8\n' });
  const base = running.base;

  const erin = await newPage('erin');
  await erin.goto(base);
  await erin.waitForSelector('[data-account-form]');
  await erin.screenshot({ path: join(out, 'forms.png') });
  await account(erin, 'register', 'Erin', 'correct horse');
  await erin.waitForSelector('form.create');
  await until('the page shows erin logged in to her account', async () =>
    (await erin.$eval('.who', (e) => e.textContent)).includes('Erin') && (await erin.$$('[data-logout]')).length === 1,
  );
  check(true, 'registered from the page: "Logged in as Erin (account)"');
  await until('the session cookie is set', async () => (await sessionCookie(erin)) !== undefined);
  const cookie = await sessionCookie(erin);
  check(cookie.httpOnly === true, 'the session cookie is HttpOnly');
  check(cookie.sameSite === 'Strict', `the session cookie is SameSite=Strict (${cookie.sameSite})`);
  check(/^[0-9a-f]{64}$/.test(cookie.value), 'its value is a 256-bit secret');
  const seen = await scriptCookies(erin);
  check(!seen.includes('eryantis_session') && !seen.includes(cookie.value), `document.cookie does not show it ("${seen}")`);
  const stored = await erin.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  check(!stored.includes(cookie.value), 'nor does the page keep the secret in its storage');

  // Log out: the cookie is cleared, the page offers the forms again.
  await erin.click('[data-logout]');
  await erin.waitForSelector('[data-account-form]');
  await until('the cookie is cleared', async () => (await sessionCookie(erin)) === undefined);
  check(true, '"log out" clears the session cookie');

  // Log in again with the password, and create a match.
  await account(erin, 'login', 'erin', 'correct horse');
  await erin.waitForSelector('form.create');
  await until('the new session cookie is set', async () => (await sessionCookie(erin)) !== undefined);
  check((await sessionCookie(erin)).value !== cookie.value, 'logging in again draws a new session');
  await erin.selectOption('select[name=players]', '2');
  await erin.click('[data-create]');
  await erin.waitForSelector('.match[data-seat="0"]');
  const match = Number(await erin.getAttribute('.match', 'data-match'));
  check(match > 0, `erin created match ${match}`);

  // A reload: the upgrade's cookie logs in, the seat comes back, nothing typed.
  await erin.reload();
  await erin.waitForSelector(`.match[data-match="${match}"][data-seat="0"]`);
  check(true, 'a reload is back in the match (the cookie on the WebSocket upgrade)');

  // Another browser: name and password, and the match is there.
  const other = await newPage('erin elsewhere');
  await other.goto(base);
  await account(other, 'login', 'Erin', 'correct horse');
  await other.waitForSelector(`.match[data-match="${match}"][data-seat="0"]`);
  check(true, `a fresh browser context logged in to the account is back in match ${match}, seat 0`);
  const otherSeen = await scriptCookies(other);
  check(!otherSeen.includes('eryantis_session'), 'its document.cookie does not show the session either');
  await until("the second context's cookie is set", async () => (await sessionCookie(other)) !== undefined);

  // A wrong password is refused with BAD_LOGIN.
  const mallory = await newPage('mallory');
  await mallory.goto(base);
  await account(mallory, 'login', 'Erin', 'battery staple');
  await mallory.waitForSelector('.notice[data-code="BAD_LOGIN"]');
  check((await sessionCookie(mallory)) === undefined, 'a wrong password is BAD_LOGIN, and sets no cookie');

  // Guests still play.
  const guest = await newPage('guest');
  await guest.goto(base);
  await guest.fill('input[name=nickname]', 'visitor');
  await guest.click('form.login button[type=submit]');
  await guest.waitForSelector('form.create');
  check(true, 'a guest still logs in with a nickname');
  await other.screenshot({ path: join(out, 'account.png') });
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
