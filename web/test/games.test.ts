// Which game a match is (the shell picks its board module by it): the server's word,
// the lobby's summary, our own create request, the tab's memory, the server's default.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMatchRequest, playAgainRequests, quickJoinRequest } from '../src/computers.js';
import type { ServerMessage } from '../src/protocol.js';
import { MemoryStorage, harness } from './fake_client.js';

const games = [{ name: 'cards', title: 'Cards', version: 1, min_players: 2, max_players: 2 }, { name: 'eriantys', title: 'Eriantys', version: 1, min_players: 2, max_players: 4 }];
const seats = [{ seat: 0, nickname: 'alice', connected: true, computer: null }, { seat: 1, nickname: null, connected: false, computer: null }];
const state = (match: number, extra: Partial<Extract<ServerMessage, { type: 'state' }>> = {}): ServerMessage => ({
  type: 'state', match, seq: 1, status: 'lobby', hash: 'h', seats, to_act: [0], allowed: [], legal: [], seat: 0,
  view: { viewer: 0, state: { phase: 'setup', options: { players: 2 } } }, ...extra,
});
const summary = (match: number, game?: string) => ({ match, ...(game ? { game } : {}), players: 2, mode: '', status: 'lobby', phase: 'setup', round: 0, seats });

function loggedIn(tab = new MemoryStorage(), welcomeGames: unknown = games) {
  const h = harness(new MemoryStorage(), tab);
  h.client.start();
  const s = h.sockets.at(-1)!;
  s.onopen?.();
  s.push({ type: 'welcome', server: 'eryantis/0.1.0', protocol: 1, heartbeat_ms: 5000, timeout_ms: 15000, ...(welcomeGames ? { games: welcomeGames } : {}) });
  h.client.login('alice');
  s.push({ type: 'logged_in', nickname: 'alice', token: 'a'.repeat(64) });
  return { h, s };
}

test('welcome lists the games; a match without a word of its game is the default one', () => {
  const { h, s } = loggedIn();
  assert.deepEqual(h.client.model.games.map((g) => g.name), ['cards', 'eriantys']);
  s.push(state(1));
  assert.equal(h.client.model.match!.game, 'cards');
});

test('the server\'s `game` wins; else the lobby\'s summary of that match', () => {
  const { h, s } = loggedIn();
  s.push({ type: 'match_list', open: [summary(3, 'eriantys'), summary(4)], running: [] });
  s.push(state(3));
  assert.equal(h.client.model.match!.game, 'eriantys', 'from the lobby');
  s.push(state(5, { game: 'eriantys' }));
  assert.equal(h.client.model.match!.game, 'eriantys', 'from the state message');
});

test('our own create_match names the game of the match it is answered with; a refused one does not linger', () => {
  const { h, s } = loggedIn();
  h.client.request(createMatchRequest(2, 'expert', 0, '', 'eriantys'));
  assert.deepEqual(s.sent.at(-1), { type: 'create_match', id: s.sent.at(-1)!['id'], game: 'eriantys', players: 2, mode: 'expert' });
  s.push({ type: 'joined', match: 7, seat: 0 });
  s.push(state(7));
  assert.equal(h.client.model.match!.game, 'eriantys');
  assert.equal(h.tab.getItem('eryantis.matchGame'), '7 eriantys', 'remembered for a reload');
  h.client.request(createMatchRequest(2, 'expert', 0, '', 'eriantys'));
  s.push({ type: 'error', code: 'ALREADY_IN_MATCH', message: 'you hold a seat' });
  h.client.request({ type: 'join_match', match: 8 });
  s.push({ type: 'joined', match: 8, seat: 1 });
  s.push(state(8));
  assert.equal(h.client.model.match!.game, 'cards', 'the default game, not the refused create\'s');
});

test('a reload: the tab remembers the game of its match', () => {
  const tab = new MemoryStorage();
  tab.setItem('eryantis.matchGame', '7 eriantys');
  const { h, s } = loggedIn(tab);
  s.push(state(7));
  assert.equal(h.client.model.match!.game, 'eriantys');
});

test('a server older than issue 24 names no game: null (the registry makes it Eriantys)', () => {
  const { h, s } = loggedIn(new MemoryStorage(), null);
  s.push(state(1));
  assert.equal(h.client.model.match!.game, null);
});

test('requests name the game only when one was chosen; mode only when the game has one', () => {
  assert.deepEqual(createMatchRequest(2, '', 1, 'strong', 'cards'), { type: 'create_match', game: 'cards', players: 2, computers: 1, level: 'strong' });
  assert.deepEqual(createMatchRequest(3, 'simple', 0, '', 'eriantys', { variant: 'x' }), { type: 'create_match', game: 'eriantys', players: 3, mode: 'simple', options: { variant: 'x' } });
  assert.deepEqual(quickJoinRequest(2, '', 'cards'), { type: 'quick_join', game: 'cards', players: 2 });
  const over = { match: 1, result: { reason: 'resign', winners: [1], nicknames: ['bob'], draw: false }, players: 2, mode: '', game: 'cards', computers: [], resigned: 'alice', names: ['alice', 'bob'] };
  assert.deepEqual(playAgainRequests(over).first, { type: 'quick_join', game: 'cards', players: 2 }, 'play again: the same game');
});
