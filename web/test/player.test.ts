// The player-facing fixes of issue 23 in the pure parts and the client: the move log
// read back with `move_log`, "Play again" with the same computers, the resign
// question and notice, deadlines that name nobody, and the turn line's offer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { playAgainRequests } from '../src/computers.js';
import { type Model, type Request, firstMissing, initialModel, kMoveLogId, offered, reduce } from '../src/model.js';
import type { GameEvent, SeatInfo, ServerMessage } from '../src/protocol.js';
import { deadlineText, resultDetails, resultText } from '../src/status.js';
import { resignText, turnText } from '../src/boards/eriantys/status.js';
import { harness } from './fake_client.js';
import { actionState } from './fixtures.js';

function run(msgs: ServerMessage[], start: Model = initialModel()): { model: Model; requests: Request[] } {
  let model = start;
  const requests: Request[] = [];
  for (const msg of msgs) {
    const step = reduce(model, msg, 1000);
    model = step.model;
    requests.push(...step.requests);
  }
  return { model, requests };
}

const seats: SeatInfo[] = [
  { seat: 0, nickname: 'alice', connected: true, computer: null },
  { seat: 1, nickname: 'Computer 1', connected: true, computer: 'strong' },
];
const state = (seq: number, extra: Partial<Extract<ServerMessage, { type: 'state' }>> = {}): ServerMessage => ({
  type: 'state', match: 1, seq, status: 'running', hash: 'h', seats, to_act: [0], allowed: [], legal: [],
  seat: 0, view: { viewer: 0, state: actionState() }, ...extra,
});
const gameEvent = (type: string, seat = 0): GameEvent => ({ v: 1, type, seat, command: { type }, drawn: [], picks: [] });
const event = (seq: number, text: string, type = 'move_to_dining'): ServerMessage => ({
  type: 'event', match: 1, seq, hash: `h${seq}`, event: gameEvent(type), text, to_act: [0], allowed: [], legal: [],
  view: { viewer: 0, state: actionState() },
});
const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ({ seq: from + i, text: `line ${from + i}` }));

test('a page arriving mid-match asks for the move log and merges it with the pushes', () => {
  // A reload: logged in again, the state at seq 40, two events pushed before the answer.
  const first = run([{ type: 'logged_in', nickname: 'alice', token: 't', match: 1, seat: 0 }, state(40)]);
  assert.deepEqual(first.requests, [{ type: 'move_log', id: kMoveLogId, from: 1 }]);
  assert.equal(first.model.match!.logAsked, true);
  // Another state meanwhile (a sync) asks nothing more: one request at a time.
  const sync = run([state(40)], first.model);
  assert.deepEqual(sync.requests, []);
  const pushed = run([event(41, 'line 41'), event(42, 'line 42')], sync.model);
  const answered = run([{ type: 'move_log', id: kMoveLogId, match: 1, seq: 40, lines: lines(1, 40), more: false }], pushed.model);
  assert.deepEqual(answered.requests, []);
  const log = answered.model.match!.log;
  assert.deepEqual(log.map((l) => l.seq), Array.from({ length: 42 }, (_, i) => i + 1));
  assert.equal(log[0]!.text, 'line 1');
  assert.equal(answered.model.match!.logAsked, false);
  // Complete: a later state asks nothing.
  assert.deepEqual(run([state(42)], answered.model).requests, []);
});

test('the move log comes in pages, and a gap left by a sync is filled from where it starts', () => {
  const asked = run([state(90)]);
  const page1 = run([{ type: 'move_log', id: kMoveLogId, match: 1, seq: 90, lines: lines(1, 50), more: true }], asked.model);
  assert.deepEqual(page1.requests, [{ type: 'move_log', id: kMoveLogId, from: 51 }]);
  const page2 = run([{ type: 'move_log', id: kMoveLogId, match: 1, seq: 90, lines: lines(51, 90), more: false }], page1.model);
  assert.deepEqual(page2.requests, []);
  assert.equal(firstMissing(page2.model.match!.log, 90), null);
  // Events 91-93 missed (a dropped connection), then the state at 93 after a resume.
  const resumed = run([state(93)], page2.model);
  assert.deepEqual(resumed.requests, [{ type: 'move_log', id: kMoveLogId, from: 91 }]);
});

test('a server without move_log is not asked again and the player sees no error', () => {
  const asked = run([state(10)]);
  const refused = run([{ type: 'error', id: kMoveLogId, code: 'UNKNOWN_TYPE', message: 'unknown message type "move_log"; see docs/protocol.md for the list' }], asked.model);
  assert.deepEqual(refused.model.notices, []);
  assert.equal(refused.model.moveLog, 'no');
  assert.deepEqual(run([state(11)], refused.model).requests, []);
  // A store failure is said in words, and the next state asks again.
  const failed = run([{ type: 'error', id: kMoveLogId, code: 'STORE_FAILURE', message: 'disk on fire' }], asked.model);
  assert.match(failed.model.notices[0]!.text, /could not be loaded: disk on fire/);
  assert.deepEqual(run([state(10)], failed.model).requests, [{ type: 'move_log', id: kMoveLogId, from: 1 }]);
});

test('the client sends the move_log request under its own id', () => {
  const h = harness();
  h.client.start();
  const s = h.connect();
  s.push(state(5, { seat: null }));
  assert.deepEqual(s.sent.at(-1), { type: 'move_log', id: kMoveLogId, from: 1 });
});

test('play again keeps the computer seats: as many, at the same level', () => {
  const over = (computers: string[], players = 2) => ({ match: 1, result: { reason: 'resign', winners: [1], nicknames: ['Computer 1'], draw: false }, players, mode: 'expert', computers, resigned: 'alice', names: [] });
  assert.deepEqual(playAgainRequests(over(['strong'])), { first: { type: 'create_match', players: 2, mode: 'expert', computers: 1, level: 'strong' }, then: [] });
  assert.deepEqual(playAgainRequests(over([], 3)), { first: { type: 'quick_join', players: 3, mode: 'expert' }, then: [] });
  assert.deepEqual(playAgainRequests(over(['greedy', 'strong'], 4)), {
    first: { type: 'create_match', players: 4, mode: 'expert' },
    then: [{ type: 'add_computer', level: 'greedy' }, { type: 'add_computer', level: 'strong' }],
  });
  // Through the client: the game over remembers the computers; the added ones follow the join.
  const h = harness();
  h.client.start();
  const s = h.connect();
  h.client.login('alice');
  s.push({ type: 'logged_in', nickname: 'alice', token: 'a'.repeat(64), match: 1, seat: 0 });
  const four: SeatInfo[] = [seats[0]!, { seat: 1, nickname: 'Computer 1', connected: true, computer: 'greedy' }, { seat: 2, nickname: 'bob', connected: true, computer: null }, { seat: 3, nickname: 'Computer 3', connected: true, computer: 'strong' }];
  s.push(state(60, { seats: four, view: { viewer: 0, state: { ...actionState(), options: { players: 4, mode: 'expert' } } } }));
  s.push({ type: 'game_over', match: 1, result: { reason: 'three_groups', winners: [1, 3], nicknames: ['Computer 1', 'Computer 3'], draw: false } });
  assert.deepEqual(h.client.model.gameOver!.computers, ['greedy', 'strong']);
  h.client.playAgain();
  const create = s.sent.at(-1)!;
  assert.deepEqual({ ...create, id: 0 }, { type: 'create_match', players: 4, mode: 'expert', id: 0 });
  s.push({ type: 'joined', id: create['id'] as number, match: 2, seat: 0 });
  assert.deepEqual(s.sent.filter((m) => m['type'] === 'add_computer').map((m) => m['level']), ['greedy', 'strong']);
});

test('resigning: the question says what it does for 2, 3 and 4 players; everybody is told who', () => {
  const names = ['alice', 'bob', 'carol', 'dave'];
  assert.equal(resignText(2, names, 0), 'Resign? You lose the match at once, and bob wins.');
  assert.match(resignText(3, names, 1), /^Resign\? You lose the match at once\. alice and carol are ranked by towers built, then by professors; if they are still tied, both win\.$/);
  assert.equal(resignText(4, names, 1), 'Resign for your team? You and dave lose the match at once, and alice and carol win.');
  const result = { reason: 'resign', winners: [0], nicknames: ['alice'], draw: false };
  assert.equal(resultText(result, 'alice', 'bob'), 'You win: bob resigned.');
  assert.equal(resultText(result, 'bob', 'bob'), 'alice won: you resigned.');
  // The event is a notice for everyone (a spectator too), and the game over names who.
  const watching = run([state(30, { seat: null }), event(31, 'alice resigned, GAME OVER (resign): Computer 1 wins', 'resign')]);
  assert.equal(watching.model.notices.at(-1)!.code, 'RESIGNED');
  assert.match(watching.model.notices.at(-1)!.text, /^alice resigned/);
  const over = run([{ type: 'game_over', match: 1, result: { reason: 'resign', winners: [1], nicknames: ['Computer 1'], draw: false } }], watching.model);
  assert.equal(over.model.gameOver!.resigned, 'alice');
  assert.equal(over.model.gameOver!.outOfTime, undefined);
});

test('a resignation by the clock (on_timeout "forfeit") is told as time run out', () => {
  const clock = (untimed: boolean, timeouts: number) => ({ left_ms: 0, delay_ms: 0, running: false, untimed, timeouts });
  const clocked = state(30, { clock: { control: '15s+0s', on_timeout: 'forfeit' }, clocks: [clock(false, 0), clock(false, 0)] });
  const ranOut: ServerMessage = { ...(event(31, 'alice resigned, GAME OVER (resignation): Computer 1 wins', 'resign') as Extract<ServerMessage, { type: 'event' }>), clocks: [clock(true, 1), clock(false, 0)] };
  const gameOver: ServerMessage = { type: 'game_over', match: 1, result: { reason: 'resign', winners: [1], nicknames: ['Computer 1'], draw: false } };
  const over = run([clocked, ranOut, gameOver]);
  assert.equal(over.model.gameOver!.resigned, 'alice');
  assert.equal(over.model.gameOver!.outOfTime, true);
  const result = { reason: 'resign', winners: [1], nicknames: ['Computer 1'], draw: false };
  assert.equal(resultText(result, 'alice', 'alice', {}, true), "Computer 1 won: your time ran out.");
  assert.equal(resultText(result, 'bob', 'alice', {}, true), "Computer 1 won: alice's time ran out.");
  // Her own resignation in the same clocked match: resigned, not out of time.
  const resigned: ServerMessage = { ...(ranOut as Extract<ServerMessage, { type: 'event' }>), clocks: [clock(false, 0), clock(false, 0)] };
  assert.equal(run([clocked, resigned, gameOver]).model.gameOver!.outOfTime, undefined);
});

test('deadlines that name nobody never say "null"', () => {
  const abandon = { action: 'abandon', seat: null as unknown as number, nickname: null, in_ms: 300000 };
  assert.equal(deadlineText(abandon, 300, true), 'the match is abandoned in 300 s unless a player joins');
  assert.equal(deadlineText(abandon, 300, false), 'the match is abandoned in 300 s unless a player comes back');
  for (const action of ['skip_turn', 'forfeit', 'remove', 'other'])
    assert.doesNotMatch(deadlineText({ ...abandon, action }, 5), /null|undefined/);
  assert.equal(deadlineText({ action: 'skip_turn', seat: 1, nickname: 'bob', in_ms: 1 }, 9), 'bob is offline: their turn is skipped in 9 s');
});

test('the turn line offers a character only when one is usable now', () => {
  const s = actionState(); // expert, seat 0 to move students, no character used this turn
  const names = ['alice', 'bob'];
  assert.equal(turnText(s, names, 0, [0], false), 'Your turn: move a student (0 of 3 moved)');
  assert.equal(turnText(s, names, 0, [0], true), 'Your turn: move a student (0 of 3 moved) or use a character');
  assert.doesNotMatch(turnText(s, names, 1, [0], true), /character/, "another seat's turn offers the viewer nothing");
});

test("the game over shows a game's own result members: the score by nickname", () => {
  // Goofspiel (tests/games) and Masters of Renaissance add `scores`, one per seat, in seat order.
  // `places` and `teams` are the platform's (ratings): not shown as the game's own.
  const goof = { reason: 'cards', winners: [1], nicknames: ['bob'], draw: false, places: [2, 1], teams: [0, 1], scores: [4, 11] };
  assert.deepEqual(resultDetails(goof, ['alice', 'bob']), ['Scores: alice 4, bob 11']);
  assert.deepEqual(resultDetails(goof, ['alice', '']), ['Scores: alice 4, seat 1 11']);
  // A list that is not one number per seat, a flag, anything else: by its name.
  const solo = { reason: 'lorenzo', winners: [], nicknames: [], draw: false, scores: [17], lorenzo_won: true };
  assert.deepEqual(resultDetails(solo, ['alice']), ['Scores: alice 17', 'Lorenzo won: yes']);
  assert.deepEqual(resultDetails({ ...solo, scores: [1, 2, 3], lorenzo_won: false }, ['alice']), ['Scores: [1, 2, 3]', 'Lorenzo won: no']);
  assert.deepEqual(resultDetails({ reason: 'resign', winners: [0], nicknames: ['alice'], draw: false }, ['alice', 'bob']), []);
  // The model keeps the ended match's nicknames by seat for it (a spectator's too).
  const goofSeats: SeatInfo[] = [{ seat: 0, nickname: 'alice', connected: true, computer: null }, { seat: 1, nickname: 'bob', connected: true, computer: null }];
  const over = run([state(10, { seats: goofSeats, seat: null }), { type: 'game_over', match: 1, result: goof }]);
  assert.deepEqual(over.model.gameOver!.names, ['alice', 'bob']);
});

test('a game whose view names no phase (Goofspiel): nothing offered while a seat is free, running from its first event, finished at the game over', () => {
  const bids = [1, 2, 3].map((card) => ({ type: 'bid', card }));
  const view = (bids: number[]) => ({ viewer: 0, state: { cards: 3, round: 0, bids, hands: [7, 7] } });
  const alone: SeatInfo[] = [{ seat: 0, nickname: 'alice', connected: true, computer: null }, { seat: 1, nickname: null, connected: false, computer: null }];
  const both: SeatInfo[] = [alone[0]!, { seat: 1, nickname: 'bob', connected: true, computer: null }];
  // The server sends the bids while bob's seat is free, and refuses them (WRONG_PHASE): none is offered.
  const waiting = run([state(1, { status: 'lobby', seats: alone, to_act: [0, 1], legal: bids, view: view([0, 0]) })]);
  assert.deepEqual(offered(waiting.model.match!), { legal: [], toAct: [] });
  const joined = run([{ type: 'seats', match: 1, seats: both, deadline: null }], waiting.model);
  assert.deepEqual(offered(joined.model.match!), { legal: bids, toAct: [0, 1] });
  assert.equal(joined.model.match!.status, 'lobby', 'no event yet: the server may still let a player leave');
  const bid: ServerMessage = { type: 'event', match: 1, seq: 2, hash: 'h2', event: { v: 1, type: 'bid', seat: 1, command: { type: 'bid', card: 0 } } as unknown as GameEvent, text: 'bob bid', to_act: [0], allowed: ['bid'], legal: bids, view: view([0, -1]) };
  const running = run([bid], joined.model);
  assert.equal(running.model.match!.status, 'running');
  const over = run([{ type: 'game_over', match: 1, result: { reason: 'cards', winners: [1], nicknames: ['bob'], draw: false, scores: [1, 5] } }], running.model);
  assert.equal(over.model.match!.status, 'finished');
  // Eriantys names its phase: an event of its setup leaves the match in the lobby, as the server does.
  const setup = run([state(1, { status: 'lobby', seats: both, view: { viewer: 0, state: { ...actionState(), phase: 'setup' } } }), { ...bid, view: { viewer: 0, state: { ...actionState(), phase: 'setup' } } } as ServerMessage]);
  assert.equal(setup.model.match!.status, 'lobby');
  // The server's own word wins over the guess: the event that ends setup says "running".
  const said = run([state(1, { status: 'lobby', seats: both, view: { viewer: 0, state: { ...actionState(), phase: 'setup' } } }), { ...bid, status: 'running', view: { viewer: 0, state: { ...actionState(), phase: 'setup' } } } as ServerMessage]);
  assert.equal(said.model.match!.status, 'running');
});
