import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  commandKey,
  draftAdd,
  draftChoices,
  draftCommand,
  fallbackLegal,
  motherNatureTargets,
  movableColors,
  newDraft,
  studentTargets,
  subMultisets,
} from '../src/boards/eriantys/legal.js';
import type { Command } from '../src/protocol.js';
import { actionState } from './fixtures.js';

test('a student goes only where an offered command takes it', () => {
  const s = actionState();
  const legal: Command[] = [
    { type: 'move_to_dining', color: 'blue' },
    { type: 'move_to_island', color: 'blue', island: 3 },
    { type: 'move_to_island', color: 'red', island: 4 },
  ];
  assert.deepEqual([...movableColors(legal)].sort(), ['blue', 'red']);
  const blue = studentTargets(legal, s, 'blue');
  assert.deepEqual(blue.dining, legal[0]);
  assert.deepEqual([...blue.islands.keys()], [3]);
  const red = studentTargets(legal, s, 'red');
  assert.equal(red.dining, null);
  assert.deepEqual(red.islands.get(4), legal[2]);
});

test('a merged group is one target whatever tile the command names', () => {
  const s = actionState();
  // Tiles 2-4 form group 2; the rest shift down.
  s.groups.splice(2, 3, { students: {}, first_tile: 2, tiles: 3, tower: 'black', towers: 3, no_entry: 0 });
  s.group_count = 10;
  const t = studentTargets(s ? [{ type: 'move_to_island', color: 'red', island: 4 }] : [], s, 'red');
  assert.deepEqual([...t.islands.keys()], [2]);
  s.mother_nature = 9; // tile 11
  const mn = motherNatureTargets([{ type: 'move_mother_nature', steps: 1 }, { type: 'move_mother_nature', steps: 3 }], s);
  assert.deepEqual([...mn.keys()].sort(), [0, 2]);
});

test('the monk is built from a card student then an island', () => {
  const s = actionState();
  const legal: Command[] = [
    { type: 'use_monk', color: 'red', island: 1 },
    { type: 'use_monk', color: 'red', island: 2 },
    { type: 'use_monk', color: 'blue', island: 1 },
  ];
  let d = newDraft('monk');
  assert.deepEqual([...draftChoices(legal, s, d).colors].sort(), ['blue', 'red']);
  assert.equal(draftCommand(legal, s, d), null);
  d = { ...d, color: 'red' };
  assert.deepEqual([...draftChoices(legal, s, d).groups].sort(), [1, 2]);
  d = { ...d, group: 2 };
  assert.deepEqual(draftCommand(legal, s, d), legal[1]);
});

test('a jester swap offers only students that keep an offered swap reachable', () => {
  const s = actionState();
  const legal: Command[] = [
    { type: 'use_jester', from_card: { green: 2, pink: 1 }, from_entrance: { red: 3 } },
    { type: 'use_jester', from_card: { yellow: 1 }, from_entrance: { blue: 1 } },
  ];
  let d = newDraft('jester');
  let ch = draftChoices(legal, s, d);
  assert.deepEqual([...ch.swapA].sort(), ['green', 'pink', 'yellow']);
  d = draftAdd(d, 'A', 'green');
  ch = draftChoices(legal, s, d);
  assert.deepEqual([...ch.swapA].sort(), ['green', 'pink']);
  assert.deepEqual([...ch.swapB], ['red']);
  d = draftAdd(draftAdd(d, 'A', 'green'), 'A', 'pink');
  d = draftAdd(draftAdd(draftAdd(d, 'B', 'red'), 'B', 'red'), 'B', 'red');
  assert.deepEqual(draftCommand(legal, s, d), legal[0]);
  // One student short is not a command yet.
  assert.equal(draftCommand(legal, s, draftAdd(draftAdd(newDraft('jester'), 'A', 'yellow'), 'B', 'red')), null);
});

test('an older server: candidates from `allowed` and the state', () => {
  const s = actionState();
  const legal = fallbackLegal(s, 0, ['move_to_dining', 'move_to_island', 'use_jester', 'use_monk']);
  const keys = new Set(legal.map(commandKey));
  assert.ok(keys.has(commandKey({ type: 'move_to_dining', color: 'blue' })));
  assert.ok(!keys.has(commandKey({ type: 'move_to_dining', color: 'pink' })), 'no pink in the entrance');
  assert.equal(legal.filter((c) => c.type === 'move_to_island').length, 3 * 12);
  assert.ok(keys.has(commandKey({ type: 'use_jester', from_card: { green: 2, pink: 1 }, from_entrance: { red: 3 } })));
  assert.ok(keys.has(commandKey({ type: 'use_monk', color: 'red', island: 5 })));
  assert.deepEqual(fallbackLegal(s, null, ['move_to_dining']), [], 'a spectator gets nothing');
});

test('sub-multisets of a pool', () => {
  const subs = subMultisets({ red: 2, blue: 1 }, 2);
  // {r},{rr},{b},{rb}
  assert.equal(subs.length, 4);
});
