// What every browser test (tests/web/*_test.mjs) needs, written once: checks counted and
// printed as "ok - ..." / "not ok - ..." lines, waits bounded by their own timeout and by
// the test's deadline (under ctest's TIMEOUT), a reproducible random sequence from --seed,
// a free port on 127.0.0.1, and Debian's Chromium driven by playwright-core (never a
// downloaded browser).
import { createRequire } from 'node:module';
import net from 'node:net';
import { join } from 'node:path';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The test's tally: check() counts and prints, until() polls fn until it returns something
// truthy. `started` is the test's start (Date.now()), `deadlineMs` its whole budget.
export function tally({ started, deadlineMs, name = 'the test' }) {
  const t = {
    passes: 0,
    failures: 0,
    check(ok, what) {
      if (ok) {
        t.passes += 1;
        console.log(`ok - ${what} [${((Date.now() - started) / 1000).toFixed(1)} s]`);
      } else {
        t.failures += 1;
        console.log(`not ok - ${what}`);
      }
      return ok;
    },
    overtime() {
      if (Date.now() - started > deadlineMs) throw new Error(`${name} ran over ${deadlineMs / 1000} s`);
    },
    async until(what, fn, timeoutMs = 15_000, everyMs = 50) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const v = await fn();
        if (v) return v;
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        t.overtime();
        await sleep(everyMs);
      }
    },
  };
  return t;
}

// xorshift32 from the seed: the same choices for the same --seed.
export function seededRandom(seed) {
  let state = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) >>> 0) || 1;
  return function random() {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x100000000;
  };
}

export function freePort() {
  return new Promise((res, rej) => {
    const s = net.createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

// playwright-core comes from web/'s node_modules (the committed lock file).
export function launchChromium(web, executablePath) {
  const require = createRequire(join(web, 'package.json'));
  const { chromium } = require('playwright-core');
  return chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// A real eryantis-server with its web listener on free ports, a SQLite file in `dir` and
// the bundle in `dist`; computers and absences slowed so that a test sets the pace.
// Resolves to { base, server, log(), tcpPort } once the page is served. `computerPauseMs`
// sets [computer] pause_ms (a test whose computers play alone: 0); `web` adds lines to [web].
export async function startWebServer({ dir, serverBin, dist, until, computerPauseMs = 60000, web = '' }) {
  const { spawn } = await import('node:child_process');
  const { writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
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

[computer]
pause_ms = ${computerPauseMs}

[web]
enabled = true
listen = "127.0.0.1"
port = ${webPort}
static_dir = "${dist}"
${web}`);
  let log = '';
  const server = spawn(serverBin, ['--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.on('data', (d) => (log += d));
  server.stderr.on('data', (d) => (log += d));
  const base = `http://127.0.0.1:${webPort}/`;
  await until('the web listener', async () => {
    if (server.exitCode !== null) throw new Error(`eryantis-server exited (${server.exitCode}):\n${log}`);
    try {
      return (await fetch(base)).ok;
    } catch {
      return false;
    }
  }, 10_000, 100);
  return { base, server, log: () => log, tcpPort };
}
