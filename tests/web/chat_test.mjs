// The chat in a real browser (Debian's chromium driven by playwright-core) against the
// real eryantis-server (docs/home.md, "Chat in the platform"; issue 26): alice plays a
// computer and says `<img src=x onerror=alert(1)>` in the players' chat; the page shows
// those characters as text, no <img> appears in the chat, no dialog opens and no script
// runs (a flag the payload would set stays unset). eve watches: she reads the
// spectators' chat only, and her own line reaches no player. After a reload alice finds
// her line again (the history the server sends after the state).
// Usage (CTest passes these):
//   node chat_test.mjs --web WEBDIR --out DIR --server BIN [--chromium PATH]
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
const out = resolve(args.out ?? join(build, 'web-artifacts', 'chat'));
const chromiumPath = args.chromium ?? '/usr/bin/chromium';
const serverBin = resolve(args.server ?? join(build, 'eryantis-server'));
const kDeadlineMs = 120_000;
const started = Date.now();
const t = tally({ started, deadlineMs: kDeadlineMs, name: 'the test' });
const { check, until } = t;
mkdirSync(out, { recursive: true });

const kInjection = '<img src=x onerror=alert(1)>';
// The same markup with a payload that would leave a trace without a dialog.
const kFlagInjection = '<img src=x onerror="window.__chatInjected=1"><script>window.__chatInjected=2</script>';

const dir = mkdtempSync(join(tmpdir(), 'eryantis-chat-test-'));
let running = null;
async function startServer() {
  running = await startWebServer({ dir, serverBin, dist, until });
  return running.base;
}

const browser = await launchChromium(web, chromiumPath);
const pages = [];
const dialogs = [];
async function newPage(name) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
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

async function say(page, text) {
  await page.fill('.chat input[name=chat]', text);
  await page.click('[data-chat-send]');
}

// The texts of the chat's lines, and what the chat holds besides text.
const chatTexts = (page) => page.$$eval('.chat-lines li .chat-text', (els) => els.map((e) => e.textContent));
const chatMarkup = (page) =>
  page.evaluate(() => ({
    imgs: document.querySelectorAll('.chat img, .chat script').length,
    flag: window.__chatInjected ?? null,
  }));

try {
  const base = await startServer();
  const alice = await newPage('alice');
  await login(alice, base, 'alice');
  await alice.selectOption('select[name=players]', '2');
  await alice.selectOption('select[name=computers]', '1');
  await alice.click('[data-create]');
  await alice.waitForSelector('.match[data-seat="0"] .chat');
  const match = Number(await alice.getAttribute('.match', 'data-match'));
  check(true, `alice plays match ${match} against a computer; the players' chat is on her page`);

  await say(alice, kInjection);
  await until('alice sees her line', async () => (await chatTexts(alice)).includes(kInjection));
  await say(alice, kFlagInjection);
  await until('alice sees her second line', async () => (await chatTexts(alice)).includes(kFlagInjection));
  const seen = await chatMarkup(alice);
  check((await chatTexts(alice)).join('|') === `${kInjection}|${kFlagInjection}`, 'the page shows the characters sent, as text');
  check(seen.imgs === 0, `no <img> nor <script> in the chat (${seen.imgs})`);
  check(seen.flag === null, `no script ran (window.__chatInjected: ${seen.flag})`);
  check(dialogs.length === 0, `no dialog opened (${dialogs.join('; ')})`);
  const from = await alice.$eval('.chat-lines li .chat-from', (e) => e.textContent);
  check(from === 'alice', `the line names its sender (${from})`);

  // eve watches: the spectators' chat, without the players' lines; hers reaches no player.
  const eve = await newPage('eve');
  await login(eve, base, 'eve');
  await eve.waitForSelector(`[data-spectate="${match}"]`);
  await eve.click(`[data-spectate="${match}"]`);
  await eve.waitForSelector('.match[data-seat="-1"]');
  await eve.waitForSelector('.chat-title');
  const title = await eve.$eval('.chat-title', (e) => e.textContent);
  check(/Spectators/.test(title), `eve's panel is the spectators' chat (${title})`);
  await say(eve, 'hello spectators <b>bold?</b>');
  await until('eve sees her line', async () => (await chatTexts(eve)).includes('hello spectators <b>bold?</b>'));
  check(!(await chatTexts(eve)).includes(kInjection), "eve does not read the players' chat");
  check((await eve.$$('.chat b')).length === 0, 'no <b> in her chat either');
  await alice.waitForTimeout(500);
  check(!(await chatTexts(alice)).some((x) => x.startsWith('hello spectators')), "alice does not read the spectators' chat");

  // A refusal is told on the page: an empty line is not sent, a too long one is refused.
  await say(alice, 'x'.repeat(501));
  await alice.waitForTimeout(300); // maxlength 500 cuts what is typed: it is sent at 500
  await until('the 500-character line', async () => (await chatTexts(alice)).some((x) => x.length === 500));
  check(true, 'a line of 500 characters (the input stops there) is sent and shown');

  // A reload: the history brings her lines back, still as text.
  await alice.reload();
  await alice.waitForSelector('.match[data-seat="0"]');
  await until('the history after the reload', async () => (await chatTexts(alice)).includes(kInjection));
  const after = await chatMarkup(alice);
  check(after.imgs === 0 && after.flag === null && dialogs.length === 0, 'after a reload the history is text too');
  await alice.screenshot({ path: join(out, 'chat.png') });
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
