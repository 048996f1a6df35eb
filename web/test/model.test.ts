import assert from 'node:assert/strict';
import { test } from 'node:test';
import { legacyLegal } from '../src/boards/registry.js';
import { deadlineSeconds, initialModel, reduce, type Model, type Request } from '../src/model.js';
import type { ServerMessage } from '../src/protocol.js';
import { actionState } from './fixtures.js';

function run(msgs: ServerMessage[], start: Model = initialModel(), now = 1000): { model: Model; requests: Request[] } {
  let model = start;
  const requests: Request[] = [];
  for (const msg of msgs) {
    const step = reduce(model, msg, now, legacyLegal);
    model = step.model;
    // The move log asked after a state is tested in player.test.ts.
    requests.push(...step.requests.filter((r) => r.type !== 'move_log'));
  }
  return { model, requests };
}

const seats = [
  { seat: 0, nickname: 'alice', connected: true },
  { seat: 1, nickname: 'bob', connected: true },
];

function stateMsg(seq: number, extra: Partial<Extract<ServerMessage, { type: 'state' }>> = {}): ServerMessage {
  return {
    type: 'state', match: 1, seq, status: 'running', hash: 'h', seats, to_act: [0], allowed: ['move_to_dining'],
    seat: 0, view: { viewer: 0, state: actionState() }, ...extra,
  };
}

test('a state then events: the log holds the server sentences, legal follows each message', () => {
  const ev = (seq: number, text?: string): ServerMessage => ({
    type: 'event', match: 1, seq, hash: `h${seq}`,
    event: { v: 1, type: 'move_to_dining', seat: 0, command: { type: 'move_to_dining', color: 'blue' }, drawn: [], picks: [] },
    to_act: [0], allowed: ['move_to_dining'], legal: [{ type: 'move_to_dining', color: 'red' }],
    view: { viewer: 0, state: actionState() }, ...(text ? { text } : {}),
  });
  const { model, requests } = run([
    { type: 'logged_in', nickname: 'alice', token: 't', match: 1, seat: 0 },
    stateMsg(7, { legal: [] }),
    ev(8, 'alice moved a blue student to her dining room'),
    ev(9),
  ]);
  assert.deepEqual(requests, []);
  const m = model.match!;
  assert.equal(m.seq, 9);
  assert.equal(m.mySeat, 0);
  assert.deepEqual(m.legal, [{ type: 'move_to_dining', color: 'red' }]);
  assert.equal(m.log[0]!.text, 'alice moved a blue student to her dining room');
  assert.match(m.log[1]!.text, /^alice: move to dining \(color blue\)$/, 'without `text` the event is named plainly');
  // A repeated event (a resume's state overtook it) is not logged twice.
  const again = reduce(model, ev(9, 'x'), 0).model;
  assert.equal(again.match!.log.length, 2);
});

test('without `legal` (an older server) the candidates come from `allowed`', () => {
  const { model } = run([stateMsg(7)]);
  assert.ok(model.match!.legal.some((c) => c.type === 'move_to_dining' && c['color'] === 'blue'));
});

test('an events-only message (no view) asks for the state', () => {
  const { requests } = run([
    stateMsg(7),
    { type: 'event', match: 1, seq: 8, hash: 'x', event: { v: 1, type: 'skip_turn', seat: 1, command: { type: 'skip_turn' }, drawn: [], picks: [] }, to_act: [0], allowed: [] },
  ]);
  assert.deepEqual(requests, [{ type: 'sync' }]);
});

test('deadlines count down from when they arrived; seats pushes update them', () => {
  const { model } = run([stateMsg(7, { deadline: { action: 'skip_turn', seat: 1, nickname: 'bob', in_ms: 30000 } })], initialModel(), 5000);
  assert.equal(deadlineSeconds(model.match!, 5000), 30);
  assert.equal(deadlineSeconds(model.match!, 20500), 15);
  assert.equal(deadlineSeconds(model.match!, 99999), 0);
  const cleared = reduce(model, { type: 'seats', match: 1, seats, deadline: null }, 6000).model;
  assert.equal(cleared.match!.deadline, null);
  const kept = reduce(model, { type: 'seats', match: 1, seats }, 6000).model;
  assert.notEqual(kept.match!.deadline, null, 'a seats push without the field keeps it');
});

test('errors become notices in words; STALE_SEQ syncs', () => {
  const { model, requests } = run([
    stateMsg(7),
    { type: 'error', id: 3, code: 'STALE_SEQ', message: 'the match is at seq 8, not 7; sync and try again', match: 1, seq: 8 },
  ]);
  assert.equal(model.notices[0]!.text, 'the match is at seq 8, not 7; sync and try again');
  assert.deepEqual(requests, [{ type: 'sync' }]);
});

test('game over keeps the last board and offers the same kind of match again', () => {
  const { model, requests } = run([
    stateMsg(7),
    { type: 'game_over', match: 1, result: { reason: 'last_tower', winners: [0], nicknames: ['alice'], draw: false } },
  ]);
  assert.equal(model.gameOver!.players, 2);
  assert.equal(model.gameOver!.mode, 'expert');
  assert.deepEqual(model.match!.legal, []);
  assert.deepEqual(requests, [{ type: 'watch_lobby' }]);
});

test('a spectator is remembered as watching; abandoning clears the match', () => {
  const { model } = run([{ type: 'spectating', match: 4 }, stateMsg(7, { match: 4, seat: null })]);
  assert.equal(model.watching, 4);
  assert.equal(model.match!.mySeat, null);
  const gone = reduce(model, { type: 'match_abandoned', match: 4, message: 'the match could not start' }, 0).model;
  assert.equal(gone.match, null);
  assert.equal(gone.watching, null);
  assert.equal(gone.notices.at(-1)!.text, 'the match could not start');
});

test('ping is answered with pong', () => {
  assert.deepEqual(run([{ type: 'ping' }]).requests, [{ type: 'pong' }]);
});

test('the lobby list is watched while in the lobby and unwatched in a match', () => {
  const login: ServerMessage = { type: 'logged_in', nickname: 'alice', token: 't' };
  const list: ServerMessage = { type: 'match_list', open: [], running: [] };
  const inLobby = run([login, list]);
  assert.deepEqual(inLobby.requests, [{ type: 'watch_lobby' }]);
  assert.equal(inLobby.model.lobbyPush, 'push');
  assert.equal(inLobby.model.watchingLobby, true);
  const playing = run([{ type: 'joined', match: 1, seat: 0 }, stateMsg(1)], inLobby.model);
  assert.deepEqual(playing.requests, [{ type: 'unwatch_lobby' }]);
  assert.equal(playing.model.watchingLobby, false);
  const back = run([{ type: 'left', match: 1 }], playing.model);
  assert.deepEqual(back.requests, [{ type: 'watch_lobby' }]);
  const watching = run([{ type: 'spectating', match: 2 }], back.model);
  assert.deepEqual(watching.requests, [{ type: 'unwatch_lobby' }]);
});

test('a server without lobby push is polled, and nothing is unwatched there', () => {
  const refused: ServerMessage = { type: 'error', code: 'UNKNOWN_TYPE', message: 'unknown message type "watch_lobby"; see docs/protocol.md for the list' };
  const { model, requests } = run([{ type: 'logged_in', nickname: 'alice', token: 't' }, refused]);
  assert.deepEqual(requests, [{ type: 'watch_lobby' }, { type: 'list_matches' }]);
  assert.equal(model.lobbyPush, 'poll');
  assert.deepEqual(model.notices, []);
  const later = run([{ type: 'joined', match: 1, seat: 0 }, { type: 'left', match: 1 }], model);
  assert.deepEqual(later.requests, [{ type: 'list_matches' }]);
  // Another unknown type is still shown to the player.
  const other = run([{ type: 'error', code: 'UNKNOWN_TYPE', message: 'unknown message type "add_computer"' }], model);
  assert.equal(other.model.notices.length, 1);
});

test('chat: the history and the pushes merged by message id, each once; another match ignored; a delete removes', () => {
  const line = (message: number, text: string) => ({ message, from: 'bob', time: 1000 + message, text });
  const { model } = run([
    stateMsg(5),
    { type: 'chat', match: 1, channel: 'players', ...line(4, 'pushed while the history was read') },
    { type: 'chat_history', match: 1, channel: 'players', messages: [line(2, 'two'), line(3, '<img src=x onerror=alert(1)>'), line(4, 'pushed while the history was read')] },
    { type: 'chat_sent', id: 9, match: 1, channel: 'players', ...line(5, 'mine') },
    { type: 'chat', match: 1, channel: 'players', ...line(5, 'mine') },
    { type: 'chat', match: 2, channel: 'players', ...line(6, 'another match') },
    { type: 'chat_deleted', match: 1, channel: 'players', message: 2 },
  ]);
  assert.deepEqual(model.match!.chat.map((c) => c.text), ['<img src=x onerror=alert(1)>', 'pushed while the history was read', 'mine']);
  // A new state of the same match keeps the chat; the lines are data, kept as sent.
  const again = run([stateMsg(6)], model).model;
  assert.equal(again.match!.chat.length, 3);
  assert.equal(again.match!.chat[0]!.text, '<img src=x onerror=alert(1)>');
});
