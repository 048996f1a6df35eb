// Masters of Renaissance's board module, its pure parts: the card data (rules.md 1.3), the
// points now as the view carries them (the server scores: protocol.md 4), the index of the
// legal commands and the market's choices (what a layout keeps and discards).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boardModuleFor } from '../src/boards/registry.js';
import { draftKey, indexLegal, marketGain, marketOptions, produceKey } from '../src/boards/renaissance/legal.js';
import { type Board, COLOURS, type Marble, type View, card, leader, pointsText } from '../src/boards/renaissance/state.js';
import type { MatchResult } from '../src/protocol.js';

const empty = (): Board => ({
  depots: [{ count: 0 }, { count: 0 }, { count: 0 }],
  strongbox: {},
  slots: [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
  dealt: [0, 0, 0, 0],
  leaders: [{ id: 0, status: 'hand', stored: 0 }, { id: 0, status: 'hand', stored: 0 }],
  faith: 0,
  tiles: ['face_down', 'face_down', 'face_down'],
  leaders_chosen: true,
  resources_chosen: true,
  points: { total: 0, cards: 0, track: 0, tiles: 0, leaders: 0, resources: 0 },
});

test('the 48 cards: 12 per colour worth 78 VP, levels 1-3 worth 1-4, 5-8, 9-12; 16 leaders', () => {
  for (const colour of COLOURS) {
    const cards = Array.from({ length: 48 }, (_, i) => card(i + 1)!).filter((c) => c.colour === colour);
    assert.equal(cards.length, 12, colour);
    assert.equal(cards.reduce((n, c) => n + c.vp, 0), 78, colour);
  }
  for (let id = 1; id <= 48; ++id) {
    const c = card(id)!;
    assert.ok(c.vp >= (c.level - 1) * 4 + 1 && c.vp <= c.level * 4, `D${id}`);
  }
  assert.equal(card(49), null);
  assert.equal(leader(16)?.kind, 'production');
  assert.equal(leader(0), null);
});

// The server scores (tests/renaissance/codec: rules.md 5.3's worked example, 49); the board
// reads the view's points, in the words of rules.md 5.3.
test("points now: the view's, part by part", () => {
  const board = `{"depots":[{"count":0},{"type":"coin","count":2},{"type":"stone","count":3}],"strongbox":{"coin":3,"servant":2,"shield":1,"stone":1},"slots":[[5,21,33],[1,0,0],[13,29,0]],"dealt":[0,0,0,0],"leaders":[{"id":5,"status":"active","stored":2},{"id":0,"status":"discarded","stored":0}],"faith":17,"tiles":["face_up","face_up","discarded"],"leaders_chosen":true,"resources_chosen":true,"points":{"total":49,"cards":30,"track":9,"tiles":5,"leaders":3,"resources":2}}`;
  const b = (JSON.parse(`{"viewer":0,"state":{"boards":[${board}]}}`) as View).state.boards[0]!;
  assert.equal(b.points.total, 49);
  assert.equal(pointsText(b.points), "49 VP now: development cards 30, faith track 9, Pope's Favour tiles 5, leaders 3, resources 2");
});

test('the legal index files each command once, by what the board clicks', () => {
  const legal = [
    { type: 'take_from_market', line: 'row', index: 0, white_choices: [], layout: { depots: [{ count: 0 }, { count: 0 }, { count: 0 }] } },
    { type: 'take_from_market', line: 'row', index: 0, white_choices: [], layout: { depots: [{ type: 'coin', count: 1 }, { count: 0 }, { count: 0 }] } },
    { type: 'take_from_market', line: 'column', index: 3, white_choices: [], layout: { depots: [{ count: 0 }, { count: 0 }, { count: 0 }] } },
    { type: 'buy_card', level: 1, colour: 'green', slot: 0, payment: { shield: { depot: 2 } } },
    { type: 'buy_card', level: 1, colour: 'green', slot: 1, payment: { shield: { depot: 2 } } },
    { type: 'produce', base: { inputs: ['stone', 'coin'], output: 'shield' }, slots: [2, 0], leaders: [{ leader: 16, output: 'coin' }], payment: {} },
    { type: 'activate_leader', leader: 7 },
    { type: 'discard_leader', leader: 7 },
    { type: 'arrange_warehouse', layout: { depots: [{ count: 0 }, { count: 0 }, { count: 0 }] } },
    { type: 'end_turn' },
    { type: 'something_new' },
  ];
  const ix = indexLegal(legal);
  assert.equal(ix.market.get('row:0')?.length, 2);
  assert.equal(ix.market.get('column:3')?.length, 1);
  assert.equal(ix.buy.get('1:green')?.length, 2);
  assert.deepEqual([...ix.produceSlots].sort(), [0, 2]);
  assert.ok(ix.produceBase && ix.produceLeaders.has(16));
  // The same production, whatever order the player picked its parts in.
  const key = draftKey({ slots: new Set([0, 2]), leaders: new Map([[16, 'coin']]), base: { inputs: ['coin', 'stone'], output: 'shield' } });
  assert.equal(ix.produce.get(key), legal[5]);
  assert.equal(key, produceKey({ base: { inputs: ['stone', 'coin'], output: 'shield' }, slots: [2, 0], leaders: [{ leader: 16, output: 'coin' }] }));
  assert.equal(ix.activate.get(7), legal[6]);
  assert.equal(ix.discard.get(7), legal[7]);
  assert.equal(ix.arrange.length, 1);
  assert.equal(ix.endTurn, legal[9]);
  assert.deepEqual(ix.other, [legal[10]]);
});

test('a market line: what each layout keeps and discards, the one keeping everything first', () => {
  const tray: Marble[] = ['white', 'yellow', 'yellow', 'red', 'grey', 'grey', 'grey', 'grey', 'blue', 'blue', 'blue', 'blue'];
  const b = empty();
  b.strongbox = { coin: 5 }; // the strongbox is not the warehouse: nothing of it is discarded
  b.leaders = [{ id: 12, status: 'active', stored: 0 }, { id: 0, status: 'hand', stored: 0 }]; // white -> coin
  const cmd = (depots: Board['depots']) => ({ type: 'take_from_market', line: 'row', index: 0, white_choices: [], layout: { depots } });
  const keepAll = cmd([{ count: 0 }, { count: 0 }, { type: 'coin', count: 3 }]);
  const keepTwo = cmd([{ count: 0 }, { type: 'coin', count: 2 }, { count: 0 }]);
  assert.deepEqual(marketGain(b, tray, keepAll), { gain: { coin: 3, servant: 0, shield: 0, stone: 0 }, faith: 1 });
  const options = marketOptions(b, tray, [keepTwo, keepAll]);
  assert.deepEqual(options.map((o) => [o.cmd, o.discarded, o.discards.coin]), [[keepAll, 0, 0], [keepTwo, 1, 1]]);
});

test('the module: registered for renaissance; a solo game Lorenzo won says so', () => {
  const m = boardModuleFor('renaissance');
  assert.equal(m.game, 'renaissance');
  const result: MatchResult = { reason: 'black_cross', winners: [], nicknames: [], draw: false, scores: [10, 0, 0, 0], lorenzo_won: true };
  assert.equal(m.resultLine?.(result, 'alice', null), "Lorenzo won: Lorenzo's black cross reached the end of the track.");
  assert.equal(m.resultLine?.({ ...result, lorenzo_won: false, winners: [0], nicknames: ['alice'] }, 'alice', null), null);
  assert.equal(m.playersLabel?.(1), '1 player (solo against Lorenzo)');
});
