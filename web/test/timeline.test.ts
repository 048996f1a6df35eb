import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatHash, parseHash, step, type LogEntry } from '../src/timeline.js';

// Setup (round 0) by seats 0,1; round 1: assistants of 1 then 0, then the turns of 0 (3 events) and 1 (2 events).
const seats = [0, 1, 1, 0, 0, 0, 0, 1, 1];
const rounds = [0, 0, 1, 1, 1, 1, 1, 1, 1];
const types = ['choose_wizard', 'choose_wizard', 'play_assistant', 'play_assistant', 'move_to_dining', 'move_to_island', 'move_mother_nature', 'move_to_dining', 'choose_cloud'];
const log: LogEntry[] = seats.map((seat, i) => ({ seq: i + 2, round: rounds[i]!, seat, type: types[i]!, text: `e${i + 2}` }));

test('event steps stay within 0..last', () => {
  assert.equal(step(log, 0, 'event', -1), 0);
  assert.equal(step(log, 0, 'event', 1), 1);
  assert.equal(step(log, 10, 'event', 1), 10);
});

test('turn steps stop at the end of each run of one seat', () => {
  assert.equal(step(log, 0, 'turn', 1), 2);
  assert.equal(step(log, 2, 'turn', 1), 3);
  assert.equal(step(log, 3, 'turn', 1), 4); // round changes: a new run although the seat is the same
  assert.equal(step(log, 4, 'turn', 1), 5);
  assert.equal(step(log, 5, 'turn', 1), 8); // seat 0's assistant (5) and its action turn (6-8) are two turns
  assert.equal(step(log, 8, 'turn', 1), 10);
  assert.equal(step(log, 10, 'turn', 1), 10);
  assert.equal(step(log, 10, 'turn', -1), 8);
  assert.equal(step(log, 7, 'turn', -1), 5);
  assert.equal(step(log, 2, 'turn', -1), 0);
});

test('round steps', () => {
  assert.equal(step(log, 0, 'round', 1), 3);
  assert.equal(step(log, 3, 'round', 1), 10);
  assert.equal(step(log, 10, 'round', -1), 3);
  assert.equal(step(log, 3, 'round', -1), 0);
});

test('the position URL', () => {
  assert.equal(formatHash(12, 87), '#match=12&seq=87');
  assert.deepEqual(parseHash('#match=12&seq=87'), { match: 12, seq: 87 });
  assert.deepEqual(parseHash('#match=12'), { match: 12, seq: null });
  assert.deepEqual(parseHash('#match=x&seq=-1'), { match: null, seq: null });
  assert.deepEqual(parseHash(''), { match: null, seq: null });
});
