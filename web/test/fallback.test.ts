// The fallback board's reading of a view and of commands (boards/fallback/describe.ts),
// on a game the client has no board for: a small card game.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boardModuleFor, forcedBoard, legacyLegal } from '../src/boards/registry.js';
import { type TreeNode, commandGroups, commandLabel, describe, inline, kMaxButtons, kOpenChoices, turnLine } from '../src/boards/fallback/describe.js';

const cardView = {
  viewer: 0,
  state: {
    phase: 'play',
    deck: 30,
    pile: { top: 5, count: 3 },
    hands: [{ seat: 0, cards: [3, 7, 12] }, { seat: 1, cards: [0, 0, 0] }],
    score: [4, 2],
    winner: null,
    last_trick: [],
  },
};

function child(node: TreeNode, key: string): TreeNode {
  assert.equal(node.kind, 'group', `${node.key} is a group`);
  const found = (node as Extract<TreeNode, { kind: 'group' }>).children.find((c) => c.key === key);
  assert.ok(found, `${node.key} has ${key}`);
  return found!;
}

test('a card game view: a tree of groups, the hands as a table, the score and the deck as values', () => {
  const root = describe(cardView);
  assert.deepEqual({ kind: root.kind, key: root.key }, { kind: 'group', key: 'view' });
  assert.equal((root as { summary: string }).summary, 'view (2 fields)');
  assert.deepEqual(child(root, 'viewer'), { kind: 'value', key: 'viewer', text: '0' });
  const state = child(root, 'state');
  assert.equal((state as { open: boolean }).open, true, 'the view and its state are open at first');
  assert.deepEqual(child(state, 'hands'), {
    kind: 'table',
    key: 'hands',
    columns: ['#', 'seat', 'cards'],
    rows: [['0', '0', '[3, 7, 12]'], ['1', '1', '[0, 0, 0]']],
  });
  assert.deepEqual(child(state, 'score'), { kind: 'value', key: 'score', text: '[4, 2]' });
  assert.deepEqual(child(state, 'deck'), { kind: 'value', key: 'deck', text: '30' });
  assert.deepEqual(child(state, 'winner'), { kind: 'value', key: 'winner', text: '—' }, 'nothing reads "—", never "null"');
  assert.deepEqual(child(state, 'last trick'), { kind: 'value', key: 'last trick', text: '[]' }, 'keys in words');
  const pile = child(state, 'pile');
  assert.equal(pile.kind, 'group');
  assert.equal((pile as { open: boolean }).open, false, 'deeper groups start closed');
  assert.deepEqual(child(pile, 'top'), { kind: 'value', key: 'top', text: '5' });
});

test('rows whose cells are not small make groups, not tables', () => {
  const node = describe([{ a: { b: { c: 1 } } }, { a: 2 }], 'list');
  assert.equal(node.kind, 'group');
  assert.equal((node as { summary: string }).summary, 'list (2 items)');
  assert.equal(inline({ green: 2, pink: 1 }), '{green 2, pink 1}');
  assert.equal(inline('x'.repeat(80)), 'x'.repeat(80), 'a scalar is always inline');
  assert.equal(inline(Array.from({ length: 12 }, () => 'purple')), `[${Array(12).fill('purple').join(', ')}]`, 'a list of 12 marbles is one line');
  assert.equal(inline(Array.from({ length: 40 }, (_, i) => i)), null, 'a list of 40 is not');
  assert.equal(inline([[1, 2], [3, 4]]), '[[1, 2], [3, 4]]');
});

test('a command is named from its JSON', () => {
  assert.equal(commandLabel({ type: 'play_card', card: 3 }), 'play card 3');
  assert.equal(commandLabel({ type: 'end_turn' }), 'end turn');
  assert.equal(commandLabel({ type: 'choose_cloud', cloud: 1 }), 'choose cloud 1');
  assert.equal(commandLabel({ type: 'move_to_island', color: 'red', island: 3 }), 'move to island 3, color red');
  assert.equal(commandLabel({ type: 'play_assistant', value: 7 }), 'play assistant, value 7');
  assert.equal(commandLabel({ type: 'use_jester', from_card: { green: 2 }, from_entrance: { red: 1, pink: 1 } }), 'use jester, from card {green 2}, from entrance {red 1, pink 1}');
  assert.equal(commandLabel({ type: 'choose_leaders', keep: [3, 14] }), 'choose leaders, keep [3, 14]');
});

test('whose turn, in words', () => {
  const names = ['alice', 'bob', 'carol', ''];
  assert.equal(turnLine(names, [0], 0, 'running'), 'Your turn');
  assert.equal(turnLine(names, [0, 1], 0, 'lobby'), 'Your turn (with bob)');
  assert.equal(turnLine(names, [1], 0, 'running'), 'Waiting for bob');
  assert.equal(turnLine(names, [1, 3], null, 'running'), 'Waiting for bob and seat 3');
  assert.equal(turnLine(names, [], 0, 'lobby'), 'Waiting for players');
  assert.equal(turnLine(names, [], 0, 'finished'), 'Game over');
});

test('the board module of a game: its own, else the fallback; ?board=fallback forces it', () => {
  assert.equal(boardModuleFor('eriantys').game, 'eriantys');
  assert.equal(boardModuleFor(null).game, 'eriantys', 'a server that names no game is an older Eriantys one');
  assert.equal(boardModuleFor('cards').game, '', 'no module: the fallback');
  assert.equal(boardModuleFor('eriantys', 'fallback').game, '');
  assert.equal(boardModuleFor('eriantys', 'cards').game, 'eriantys', 'only "fallback" can be forced');
  assert.equal(forcedBoard('?board=fallback&x=1'), 'fallback');
  assert.equal(forcedBoard(''), null);
  assert.deepEqual(legacyLegal('cards', cardView, 0, ['play_card']), [], 'no game but Eriantys predates `legal`');
});

test('the commands by type; a type with many choices opens on demand, shows at most kMaxButtons, and the filter finds the rest', () => {
  const cards = [3, 7, 12].map((card) => ({ type: 'play_card', card }));
  const produce = Array.from({ length: 500 }, (_, i) => ({ type: 'produce', slots: [i % 3], output: `r${i}` }));
  const legal = [...cards, { type: 'end_turn' }, ...produce];
  const groups = commandGroups(legal, '', new Set());
  assert.deepEqual(groups.map((g) => [g.title, g.shown.length, g.more, g.many, g.open]), [
    ['play card: 3 choices', 3, 0, false, true],
    ['end turn: 1 choice', 1, 0, false, true],
    ['produce: 500 choices', 0, 0, true, false],
  ]);
  assert.ok(500 > kOpenChoices && 500 > kMaxButtons);
  const opened = commandGroups(legal, '', new Set(['produce']))[2]!;
  assert.deepEqual([opened.open, opened.shown.length, opened.more], [true, kMaxButtons, 500 - kMaxButtons]);
  assert.deepEqual(opened.shown[0], produce[0], 'in the server\'s order');
  const found = commandGroups(legal, 'R49', new Set());
  assert.deepEqual(found.map((g) => [g.title, g.shown.length, g.open]), [['produce: 11 of 500 choices', 11, true]], 'words of the label or JSON, any case; other types left out');
  assert.deepEqual(commandGroups(legal, 'card 7', new Set()).map((g) => g.shown), [[{ type: 'play_card', card: 7 }]], 'every word must be there');
  assert.deepEqual(commandGroups(legal, 'nothing like it', new Set()), []);
});
