import assert from 'node:assert/strict';
import { test } from 'node:test';
import { kBackoffMs, tokenKey } from '../src/client.js';
import { type FakeSocket, MemoryStorage, harness } from './fake_client.js';

const welcomeThenHello = (s: FakeSocket) => assert.equal(s.types()[0], 'hello');

test('log in, keep the token per nickname, and come back to the seat after a drop', () => {
  const h = harness();
  h.client.start();
  const s1 = h.connect();
  welcomeThenHello(s1);
  assert.deepEqual(s1.sent[0], { type: 'hello', protocol: 1, client: 'eryantis-web/0.1', updates: 'full' });
  h.client.login('alice');
  assert.deepEqual(s1.sent.at(-1), { type: 'login', nickname: 'alice', id: 2 });
  s1.push({ type: 'logged_in', id: 3, nickname: 'alice', token: 'a'.repeat(64) });
  assert.equal(h.tokens.getItem(tokenKey('alice')), 'a'.repeat(64));
  // The server goes away: a retry is scheduled with the first backoff delay.
  s1.onclose?.();
  assert.equal(h.client.connection, 'waiting');
  assert.equal(h.timers.length, 1);
  assert.equal(h.timers[0]!.ms, kBackoffMs[0]);
  // Still down: the next delay is longer.
  h.timers[0]!.fn();
  h.sockets.at(-1)!.onclose?.();
  assert.equal(h.timers[1]!.ms, kBackoffMs[1]);
  h.timers[1]!.fn();
  const s3 = h.connect();
  assert.deepEqual(s3.sent[1], { type: 'login', nickname: 'alice', token: 'a'.repeat(64), id: s3.sent[1]!['id'] });
  assert.equal(h.client.connection, 'open');
});

test('a login typed while the welcome is on its way is sent once, after it', () => {
  const h = harness();
  h.client.start();
  const s = h.sockets.at(-1)!;
  s.onopen?.(); // hello sent; the welcome has not come yet
  h.client.login('alice');
  assert.deepEqual(s.types(), ['hello']);
  s.push({ type: 'welcome', server: 'eryantis/0.1.0', protocol: 1, heartbeat_ms: 5000, timeout_ms: 15000 });
  assert.deepEqual(s.types(), ['hello', 'login']);
});

test('a reload (a new Client on the same storages) logs in again with the token', () => {
  const tokens = new MemoryStorage();
  const tab = new MemoryStorage();
  tokens.setItem(tokenKey('bob'), 'b'.repeat(64));
  tab.setItem('eryantis.nickname', 'bob');
  const h = harness(tokens, tab);
  h.client.start();
  const s = h.connect();
  assert.deepEqual(s.types(), ['hello', 'login']);
  assert.equal(s.sent[1]!['token'], 'b'.repeat(64));
});

test('a spectator watches the same match again after reconnecting', () => {
  const h = harness();
  h.client.start();
  const s1 = h.connect();
  h.client.spectate(5);
  s1.push({ type: 'spectating', id: 3, match: 5 });
  assert.equal(h.tab.getItem('eryantis.watching'), '5');
  s1.onclose?.();
  h.timers[0]!.fn();
  const s2 = h.connect();
  assert.deepEqual(s2.types(), ['hello', 'spectate']);
  assert.equal(s2.sent[1]!['match'], 5);
});

test('a logged-in spectator logs in, then watches again', () => {
  const tab = new MemoryStorage();
  tab.setItem('eryantis.nickname', 'carol');
  tab.setItem('eryantis.watching', '2');
  const h = harness(new MemoryStorage(), tab);
  h.client.start();
  const s = h.connect();
  assert.deepEqual(s.types(), ['hello', 'login']);
  s.push({ type: 'logged_in', id: 2, nickname: 'carol', token: 'c'.repeat(64) });
  assert.deepEqual(s.types(), ['hello', 'login', 'spectate', 'watch_lobby']);
});

test('replaced by another connection: no reconnect fight', () => {
  const h = harness();
  h.client.start();
  const s = h.connect();
  s.push({ type: 'shutdown', message: 'logged in from another connection' });
  s.onclose?.();
  assert.equal(h.client.replaced, true);
  assert.equal(h.timers.length, 0);
});

test('play carries expected_seq and a fresh command_id; pings get pongs', () => {
  const h = harness();
  h.client.start();
  const s = h.connect();
  s.push({ type: 'ping' });
  assert.deepEqual(s.sent.at(-1), { type: 'pong' });
  s.push({
    type: 'state', match: 1, seq: 12, status: 'running', hash: 'x', seats: [], to_act: [0], allowed: [], legal: [], seat: 0,
    view: { viewer: 0, state: { options: { players: 2, mode: 'simple' } } },
  });
  h.client.play({ type: 'choose_cloud', cloud: 1 });
  h.client.play({ type: 'choose_cloud', cloud: 0 });
  const [a, b] = s.sent.slice(-2);
  assert.equal(a!['expected_seq'], 12);
  assert.deepEqual(a!['command'], { type: 'choose_cloud', cloud: 1 });
  assert.notEqual(a!['command_id'], b!['command_id']);
});

test('while several seats choose at once, play carries no expected_seq (a computer choosing at the same moment does not make it stale)', () => {
  const h = harness();
  h.client.start();
  const s = h.connect();
  s.push({
    type: 'state', match: 1, game: 'renaissance', seq: 6, status: 'lobby', hash: 'x', seats: [], to_act: [0, 2, 3], allowed: [], legal: [], seat: 0,
    view: { viewer: 0, state: { options: { players: 4 } } },
  });
  h.client.play({ type: 'choose_leaders', keep: [1, 5] });
  assert.equal(s.sent.at(-1)!['type'], 'play');
  assert.equal('expected_seq' in s.sent.at(-1)!, false);
  s.push({
    type: 'state', match: 1, game: 'renaissance', seq: 9, status: 'running', hash: 'x', seats: [], to_act: [0], allowed: [], legal: [], seat: 0,
    view: { viewer: 0, state: { options: { players: 4 } } },
  });
  h.client.play({ type: 'end_turn' });
  assert.equal(s.sent.at(-1)!['expected_seq'], 9);
});

test('the lobby is watched, not polled: watch_lobby after welcome; an older server is polled', () => {
  const h = harness();
  h.client.start();
  const s = h.connect();
  assert.deepEqual(s.types(), ['hello', 'watch_lobby']);
  s.push({ type: 'match_list', id: s.sent[1]!['id'], open: [], running: [] });
  assert.equal(h.client.model.lobbyPush, 'push');
  s.push({ type: 'match_list', open: [], running: [] }); // a push: no request in answer
  assert.deepEqual(s.types(), ['hello', 'watch_lobby']);

  const old = harness();
  old.client.start();
  const o = old.connect();
  o.push({ type: 'error', id: o.sent[1]!['id'], code: 'UNKNOWN_TYPE', message: 'unknown message type "watch_lobby"; see docs/protocol.md for the list' });
  assert.deepEqual(o.types(), ['hello', 'watch_lobby', 'list_matches']);
  assert.equal(old.client.model.lobbyPush, 'poll');
  assert.deepEqual(old.client.model.notices, [], 'not an error for the player');
  // After a reconnect (perhaps to an upgraded server) the push is tried again.
  o.onclose?.();
  old.timers.at(-1)!.fn();
  const o2 = old.connect();
  assert.deepEqual(o2.types(), ['hello', 'watch_lobby']);
});

test('an account: the ticket becomes the cookie, a reload waits for the cookie login, logout clears it', async () => {
  const h = harness();
  h.client.start();
  const s1 = h.connect();
  assert.equal(h.client.accountLogin('login', 'Alice', 'correct horse'), true);
  const sent = s1.sent.at(-1)!;
  assert.deepEqual(sent, { type: 'login', name: 'Alice', password: 'correct horse', cookie: true, label: 'web', id: sent['id'] });
  s1.push({ type: 'logged_in', id: sent['id'] as number, nickname: 'Alice', token: 'a'.repeat(64), account: 'Alice', ticket: 't'.repeat(64) });
  assert.equal(h.client.account, 'Alice');
  assert.deepEqual(h.posts, [{ path: '/account/session', body: { ticket: 't'.repeat(64) } }]);
  // A reload: the welcome says a cookie came, so the page sends no login of its own.
  const h2 = harness(h.tokens, h.tab);
  h2.client.start();
  const s2 = h2.sockets.at(-1)!;
  s2.onopen?.();
  s2.push({ type: 'welcome', server: 'eryantis/0.1.0', protocol: 1, heartbeat_ms: 5000, timeout_ms: 15000, cookie: true });
  assert.deepEqual(s2.types(), ['hello']);
  s2.push({ type: 'logged_in', id: 'cookie', nickname: 'Alice', token: 'a'.repeat(64), account: 'Alice', match: 3, seat: 0 });
  assert.equal(h2.client.account, 'Alice');
  assert.equal(h2.client.model.loggedIn, true);
  // Log out: the session ends over the socket, then the cookie is cleared.
  h2.client.accountLogout(false);
  const out = s2.sent.at(-1)!;
  assert.deepEqual(out, { type: 'logout', all: false, id: out['id'] });
  s2.push({ type: 'logged_out', id: out['id'] as number, all: false, ended: 1 });
  assert.deepEqual(h2.posts, [{ path: '/account/logout', body: {} }]);
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(h2.client.account, null);
  assert.equal(h2.tab.getItem('eryantis.account'), null);
});

test('a cookie whose session ended: the page goes on as before the cookie', () => {
  const tab = new MemoryStorage();
  tab.setItem('eryantis.nickname', 'Alice');
  tab.setItem('eryantis.account', 'Alice');
  const h = harness(new MemoryStorage(), tab);
  h.client.start();
  const s = h.sockets.at(-1)!;
  s.onopen?.();
  s.push({ type: 'welcome', server: 'eryantis/0.1.0', protocol: 1, heartbeat_ms: 5000, timeout_ms: 15000, cookie: true });
  s.push({ type: 'error', id: 'cookie', code: 'BAD_SESSION', message: 'that session has ended' });
  assert.equal(h.client.account, null);
  // The account's name is not tried as a guest's nickname: the lobby instead.
  assert.equal(h.client.model.nickname, null);
  assert.equal(s.types().includes('login'), false);
});

test('no cookie came (it expired): the account name is not tried as a guest', () => {
  const tab = new MemoryStorage();
  tab.setItem('eryantis.nickname', 'Alice');
  tab.setItem('eryantis.account', 'Alice');
  const h = harness(new MemoryStorage(), tab);
  h.client.start();
  const s = h.connect();
  assert.equal(s.types().includes('login'), false);
  assert.equal(h.client.model.nickname, null);
  assert.equal(tab.getItem('eryantis.account'), null);
});
