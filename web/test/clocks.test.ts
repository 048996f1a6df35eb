// Clocks (docs/protocol.md, "Clocks"; docs/web.md, "Clocks"): the create form's fields,
// the model keeping each message's clocks with the time they came, and the running clock
// counted down from there (its delay first).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMatchRequest } from '../src/computers.js';
import { type MatchModel, clockLeft, clockShownUntimed, clockText } from '../src/model.js';

test('the create form sends a clock only when one is chosen', () => {
  assert.deepEqual(createMatchRequest(2, '', 0, 'greedy', undefined, {}, false, '', '10+5', 'forfeit'), { type: 'create_match', players: 2, clock: '10+5', on_timeout: 'forfeit' });
  assert.deepEqual(createMatchRequest(2, '', 0, 'greedy', undefined, {}, false, '', 'none', 'forfeit'), { type: 'create_match', players: 2 });
  assert.deepEqual(createMatchRequest(2, '', 0, 'greedy'), { type: 'create_match', players: 2 });
});

test('a running clock counts down from its message, its delay first; a stopped one stands', () => {
  const seat = (left_ms: number, running: boolean, delay_ms = 0) => ({ left_ms, delay_ms, running, untimed: false, timeouts: 0 });
  const m = { clocks: { seats: [seat(60_000, true, 3_000), seat(30_000, false)], at: 1_000 } } as unknown as MatchModel;
  assert.deepEqual(clockLeft(m, 0, 1_000), { delay: 3_000, left: 60_000, running: true });
  assert.deepEqual(clockLeft(m, 0, 3_000), { delay: 1_000, left: 60_000, running: true });
  assert.deepEqual(clockLeft(m, 0, 9_000), { delay: 0, left: 55_000, running: true });
  assert.deepEqual(clockLeft(m, 0, 999_000), { delay: 0, left: 0, running: true });
  assert.deepEqual(clockLeft(m, 1, 9_000), { delay: 0, left: 30_000, running: false });
  assert.equal(clockLeft(m, 2, 9_000), null);
  assert.equal(clockLeft({} as MatchModel, 0, 9_000), null);
});

test('clock times read as m:ss, h:mm:ss or days and hours', () => {
  assert.equal(clockText(600_000), '10:00');
  assert.equal(clockText(59_001), '1:00');
  assert.equal(clockText(5_000), '0:05');
  assert.equal(clockText(3_723_000), '1:02:03');
  assert.equal(clockText(2 * 86_400_000 + 3 * 3_600_000), '2d 3h');
});

test("a computer's seat shows no time; a seat that ran out under forfeit keeps its 0:00", () => {
  const seat = (untimed: boolean, timeouts: number) => ({ left_ms: 0, delay_ms: 0, running: false, untimed, timeouts });
  assert.equal(clockShownUntimed(seat(false, 0), false), false); // a timed seat
  assert.equal(clockShownUntimed(seat(false, 1), false), false); // ran out under skip: still timed
  assert.equal(clockShownUntimed(seat(true, 0), true), true); // a computer from the start
  assert.equal(clockShownUntimed(seat(true, 1), true), true); // ran out, then a computer took it
  assert.equal(clockShownUntimed(seat(true, 1), false), false); // ran out and forfeited: 0:00
  assert.equal(clockShownUntimed(undefined, false), false);
});
