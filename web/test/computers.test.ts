// The computer-player UI (issue 15): what the create form, "Add a computer" and
// "remove" send, and how seats held by a computer are shown, through the real
// Client and model on a fake socket.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  addComputerRequest,
  canAddComputer,
  createMatchRequest,
  kLevels,
  lobbySeatsText,
  removeComputerRequest,
  seatsShown,
} from '../src/computers.js';
import type { SeatInfo, ServerMessage } from '../src/protocol.js';
import { harness } from './fake_client.js';
import { actionState } from './fixtures.js';

const alice: SeatInfo = { seat: 0, nickname: 'alice', connected: true, computer: null };
const free = (seat: number): SeatInfo => ({ seat, nickname: null, connected: false, computer: null });
const computer = (seat: number, level: string): SeatInfo => ({ seat, nickname: `Computer ${seat}`, connected: true, computer: level });

function lobbyState(seats: SeatInfo[], status = 'lobby'): ServerMessage {
  const state = { ...actionState(), options: { players: seats.length, mode: 'expert' as const } };
  return { type: 'state', match: 2, seq: 1, status, hash: 'h', seats, to_act: [0], allowed: [], legal: [], seat: 0, view: { viewer: 0, state } };
}

// alice logged in, creating from the lobby.
function session() {
  const h = harness();
  h.client.start();
  const s = h.connect();
  h.client.login('alice');
  s.push({ type: 'logged_in', nickname: 'alice', token: 'a'.repeat(64) });
  const last = () => {
    const { id: _id, ...rest } = s.sent.at(-1)!;
    return rest;
  };
  return { h, s, last };
}

test('the create form asks for computer seats and their level, never more than players - 1', () => {
  const { h, s, last } = session();
  h.client.request(createMatchRequest(3, 'expert', 1, 'strong'));
  assert.deepEqual(last(), { type: 'create_match', players: 3, mode: 'expert', computers: 1, level: 'strong' });
  h.client.request(createMatchRequest(2, 'simple', 3, 'random'));
  assert.deepEqual(last(), { type: 'create_match', players: 2, mode: 'simple', computers: 1, level: 'random' }, 'clamped: the creator keeps a seat');
  h.client.request(createMatchRequest(4, 'expert', 0, 'strong'));
  assert.deepEqual(last(), { type: 'create_match', players: 4, mode: 'expert' }, 'no computer: no level either');
  assert.equal(typeof s.sent.at(-1)!['id'], 'number', 'sent as a request with an id');
  assert.deepEqual([...kLevels].sort(), ['greedy', 'random', 'strong'], 'the three levels of docs/protocol.md');
});

test('a waiting match: add a computer at the chosen level, remove it, see it in the seats', () => {
  const { h, s, last } = session();
  s.push(lobbyState([alice, free(1), free(2)]));
  let m = h.client.model.match!;
  assert.equal(canAddComputer(m), true);
  assert.deepEqual(seatsShown(m).map((x) => x.text), ['alice', 'seat 1 free', 'seat 2 free']);
  assert.equal(seatsShown(m).some((x) => x.removable), false);

  h.client.request(addComputerRequest('strong'));
  assert.deepEqual(last(), { type: 'add_computer', level: 'strong' });
  s.push({ type: 'seats', match: 2, seats: [alice, computer(1, 'strong'), free(2)] });
  m = h.client.model.match!;
  const shown = seatsShown(m);
  assert.deepEqual(shown[1], { seat: 1, text: 'Computer 1 (computer, strong)', computer: 'strong', online: true, removable: true });
  assert.equal(shown[0]!.removable, false, 'a person is never removed from here');
  assert.equal(canAddComputer(m), true, 'seat 2 is still free');

  h.client.request(removeComputerRequest(1));
  assert.deepEqual(last(), { type: 'remove_computer', seat: 1 });
  s.push({ type: 'seats', match: 2, seats: [alice, free(1), free(2)] });
  assert.equal(seatsShown(h.client.model.match!)[1]!.text, 'seat 1 free');

  // The last free seat to a greedy computer: full, nothing more to add.
  s.push({ type: 'seats', match: 2, seats: [alice, computer(1, 'greedy'), computer(2, 'random')] });
  assert.equal(canAddComputer(h.client.model.match!), false);
});

test('once the match runs, computer seats are shown but cannot be changed', () => {
  const { h, s } = session();
  s.push(lobbyState([alice, computer(1, 'greedy')], 'running'));
  const m = h.client.model.match!;
  assert.equal(canAddComputer(m), false);
  assert.deepEqual(seatsShown(m).map((x) => [x.text, x.computer, x.removable]), [
    ['alice', null, false],
    ['Computer 1 (computer, greedy)', 'greedy', false],
  ]);
});

test('a spectator sees computer seats and gets no buttons', () => {
  const { h, s } = session();
  s.push({ ...(lobbyState([alice, computer(1, 'strong'), free(2)]) as Extract<ServerMessage, { type: 'state' }>), seat: null });
  const m = h.client.model.match!;
  assert.equal(m.mySeat, null);
  assert.equal(canAddComputer(m), false);
  assert.equal(seatsShown(m)[1]!.removable, false);
});

test('the lobby list names the computers and their level', () => {
  const { h, s } = session();
  s.push({
    type: 'match_list',
    open: [{ match: 5, players: 3, mode: 'expert', status: 'lobby', round: 0, seats: [alice, computer(1, 'strong'), free(2)] } as never],
    running: [],
  });
  assert.equal(lobbySeatsText(h.client.model.open[0]!), 'alice, Computer 1 (strong), —');
});

test('takeover: sent for 3 or 4 players only, kept from the state, and a leave hands the seat over', () => {
  const { h, s, last } = session();
  h.client.request(createMatchRequest(3, 'simple', 0, '', undefined, {}, false, 'greedy'));
  assert.deepEqual(last(), { type: 'create_match', players: 3, mode: 'simple', takeover: 'greedy' });
  h.client.request(createMatchRequest(2, 'simple', 0, '', undefined, {}, false, 'greedy'));
  assert.deepEqual(last(), { type: 'create_match', players: 2, mode: 'simple' }, 'the server refuses it for 2 players');
  h.client.request(createMatchRequest(4, 'simple', 0, '', undefined, {}, false, ''));
  assert.deepEqual(last(), { type: 'create_match', players: 4, mode: 'simple' }, 'none chosen: nothing sent');
  // The state says it; a running match's leave is a plain leave_match (the server hands the seat over).
  s.push({ ...(lobbyState([alice, computer(1, 'random'), free(2)], 'running') as Extract<ServerMessage, { type: 'state' }>), takeover: 'strong' });
  assert.equal(h.client.model.match!.takeover, 'strong');
  h.client.leave();
  assert.deepEqual(last(), { type: 'leave_match' });
  s.push(lobbyState([alice, free(1), free(2)]));
  assert.equal(h.client.model.match!.takeover, null, 'a match without takeover');
});
