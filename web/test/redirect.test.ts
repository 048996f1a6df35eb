// Following a `redirect` (issue 16, docs/protocol.md): close, connect to its `web`,
// log in there with the same nickname and token, repeat the request it answered,
// at most 3 times in a row; driven with fake sockets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { kMaxRedirects, tokenKey } from '../src/client.js';
import { type FakeSocket, MemoryStorage, harness } from './fake_client.js';

const kToken = 'a'.repeat(64);
const redirect = (match: number, web: string | null, address = '127.0.0.1:7002') => ({ type: 'redirect', address, web, match, reason: 'served by node b' });
// What was sent, without the lobby's watch requests (the lobby push follows every login).
const asked = (s: FakeSocket) => s.types().filter((t) => t !== 'watch_lobby' && t !== 'unwatch_lobby');
const welcome = { type: 'welcome', server: 'eryantis/0.1.0', protocol: 1, heartbeat_ms: 5000, timeout_ms: 15000 };

// A logged-in page in the lobby of its own server.
function loggedIn() {
  const h = harness();
  h.client.start();
  const home = h.connect();
  assert.equal(home.url, null, 'the first connection goes to the page\'s own server');
  h.client.login('alice');
  home.push({ type: 'logged_in', nickname: 'alice', token: kToken });
  return { h, home };
}

// The socket the client opened last, once open and welcomed.
function arrive(h: ReturnType<typeof harness>): FakeSocket {
  const s = h.sockets.at(-1)!;
  s.onopen?.();
  s.push(welcome);
  return s;
}

test('a join redirected: close, connect to web, log in with the same token, join again', () => {
  const { h, home } = loggedIn();
  h.client.request({ type: 'join_match', match: 12, seat: 1 });
  home.push({ ...redirect(12, 'ws://127.0.0.1:8002/ws'), id: home.sent.at(-1)!['id'] });
  assert.equal(home.closed, true, 'the old socket is closed');
  assert.equal(h.sockets.length, 2);
  assert.equal(h.sockets[1]!.url, 'ws://127.0.0.1:8002/ws');
  assert.deepEqual(h.client.redirecting, { match: 12, to: 'ws://127.0.0.1:8002/ws', hop: 1, reason: 'served by node b' });
  assert.equal(h.client.connection, 'connecting');
  assert.equal(h.timers.length, 0, 'closing the old socket schedules no reconnect');
  const b = arrive(h);
  assert.deepEqual(b.types(), ['hello', 'login']);
  assert.equal(b.sent[1]!['nickname'], 'alice');
  assert.equal(b.sent[1]!['token'], kToken);
  b.push({ type: 'logged_in', nickname: 'alice', token: kToken });
  assert.deepEqual(b.sent[2], { type: 'join_match', match: 12, seat: 1, id: b.sent[2]!['id'] });
  assert.equal(b.types().filter((t) => t === 'join_match').length, 1, 'repeated once');
  b.push({ type: 'joined', id: b.sent[2]!['id'], match: 12, seat: 1 });
  assert.equal(h.client.redirecting, null, 'progress cleared once the match is reached');
  assert.equal(h.tokens.getItem(tokenKey('alice')), kToken);
});

test('a spectator (not logged in) is sent on and watches there', () => {
  const h = harness();
  h.client.start();
  const home = h.connect();
  h.client.spectate(7);
  home.push(redirect(7, 'ws://b/ws'));
  const b = arrive(h);
  assert.deepEqual(b.types(), ['hello', 'spectate']);
  assert.equal(b.sent[1]!['match'], 7);
  b.push({ type: 'spectating', match: 7 });
  assert.equal(h.client.redirecting, null);
});

test('a logged-in spectator logs in there and spectates once', () => {
  const { h, home } = loggedIn();
  h.client.spectate(7);
  home.push(redirect(7, 'ws://b/ws'));
  const b = arrive(h);
  b.push({ type: 'logged_in', nickname: 'alice', token: kToken });
  assert.deepEqual(b.types().filter((t) => t === 'spectate' || t === 'login'), ['login', 'spectate']);
});

test('a resuming login redirected: log in there, nothing repeated', () => {
  const tokens = new MemoryStorage();
  const tab = new MemoryStorage();
  tokens.setItem(tokenKey('bob'), 'b'.repeat(64));
  tab.setItem('eryantis.nickname', 'bob'); // a reload: the tab remembers who it was
  const h = harness(tokens, tab);
  const c = h.client;
  c.start();
  const home = h.connect();
  assert.deepEqual(home.types(), ['hello', 'login']);
  home.push(redirect(3, 'ws://b/ws'));
  const b = arrive(h);
  assert.deepEqual(b.types(), ['hello', 'login']);
  assert.equal(b.sent[1]!['token'], 'b'.repeat(64));
  b.push({ type: 'logged_in', nickname: 'bob', token: 'b'.repeat(64), match: 3, seat: 1 });
  assert.deepEqual(asked(b), ['hello', 'login'], 'the seat resumes with the login: no join');
  assert.equal(c.redirecting, null);
});

test(`at most ${kMaxRedirects} hops in a row: the next redirect is an error shown to the player`, () => {
  const { h, home } = loggedIn();
  h.client.request({ type: 'join_match', match: 12, seat: 0 });
  let sock = home;
  for (let hop = 1; hop <= kMaxRedirects; ++hop) {
    sock.push(redirect(12, `ws://node${hop}/ws`));
    assert.equal(h.client.redirecting?.hop, hop);
    sock = arrive(h);
    assert.equal(sock.url, `ws://node${hop}/ws`);
    sock.push({ type: 'logged_in', nickname: 'alice', token: kToken });
    assert.equal(asked(sock).at(-1), 'join_match');
  }
  const opened = h.sockets.length;
  sock.push(redirect(12, 'ws://node4/ws'));
  assert.equal(h.sockets.length, opened, 'no 4th hop');
  assert.equal(sock.closed, false, 'stays on the server it reached');
  assert.equal(h.client.redirecting, null);
  const n = h.client.model.notices.at(-1)!;
  assert.equal(n.code, 'REDIRECT');
  assert.match(n.text, /more than 3 times/);
  // A new request by the player starts a new count.
  h.client.request({ type: 'join_match', match: 13, seat: 0 });
  sock.push(redirect(13, 'ws://node5/ws'));
  assert.equal(h.sockets.at(-1)!.url, 'ws://node5/ws');
});

test('a redirect without a web address is an error, and the page stays', () => {
  const { h, home } = loggedIn();
  h.client.request({ type: 'join_match', match: 12, seat: 0 });
  home.push(redirect(12, null, '10.0.0.2:7001'));
  assert.equal(h.sockets.length, 1);
  assert.equal(home.closed, false);
  assert.equal(h.client.redirecting, null);
  assert.match(h.client.model.notices.at(-1)!.text, /10\.0\.0\.2:7001.*no web address/);
});

test('a drop while following goes back to the page\'s own server, which redirects again', () => {
  const { h, home } = loggedIn();
  h.client.request({ type: 'join_match', match: 12, seat: 0 });
  home.push(redirect(12, 'ws://b/ws'));
  h.sockets.at(-1)!.onclose?.(); // node b is down
  assert.equal(h.client.connection, 'waiting');
  h.timers.at(-1)!.fn();
  assert.equal(h.sockets.at(-1)!.url, null);
  const again = arrive(h);
  again.push({ type: 'logged_in', nickname: 'alice', token: kToken });
  assert.equal(asked(again).at(-1), 'join_match', 'the join is still repeated');
  again.push(redirect(12, 'ws://c/ws'));
  assert.equal(h.client.redirecting?.hop, 2, 'the hops count on');
});
