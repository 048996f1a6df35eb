// The rules panel's choice of topics (help.ts): the command types allowed now name
// the help topics shown first, for both games' real topic lists.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { characterTopic, leaderTopic, phaseTopics } from '../src/help.js';

// GET /help/eriantys's and /help/renaissance's topics (help_topics() on the server).
const ERIANTYS = ['turn', 'monk', 'farmer', 'herald', 'postman', 'herbs', 'centaur', 'jester', 'knight', 'mushroom', 'minstrel', 'princess', 'thief'];
const RENAISSANCE = ['turn', 'setup', 'market', 'buy', 'produce', 'activate', 'discard', 'arrange', 'end', 'resign', 'layout', 'pay', 'solo', 'board', 'L05', 'D17'];

test('Eriantys: setup and round moves show "turn", characters their own topic', () => {
  assert.deepEqual(phaseTopics(['choose_wizard', 'choose_tower_color'], ERIANTYS), ['turn']);
  assert.deepEqual(phaseTopics(['play_assistant', 'resign'], ERIANTYS), ['turn']);
  assert.deepEqual(
    phaseTopics(['move_to_dining', 'move_to_island', 'use_monk', 'use_grandma_herbs', 'use_mushroom_hunter', 'use_jester', 'resign'], ERIANTYS),
    ['turn', 'monk', 'herbs', 'mushroom', 'jester'],
  );
});

test('Renaissance: each command type shows the topic of its verb', () => {
  assert.deepEqual(phaseTopics(['choose_leaders', 'choose_initial_resources'], RENAISSANCE), ['setup']);
  assert.deepEqual(
    phaseTopics(['take_from_market', 'buy_card', 'produce', 'activate_leader', 'discard_leader', 'arrange_warehouse', 'end_turn', 'resign'], RENAISSANCE),
    ['market', 'buy', 'produce', 'activate', 'discard', 'arrange', 'end', 'resign'],
  );
});

test('nothing allowed (a spectator, a seat waiting) shows "turn"; unknown types add nothing', () => {
  assert.deepEqual(phaseTopics([], ERIANTYS), ['turn']);
  assert.deepEqual(phaseTopics(['teleport'], ERIANTYS), ['turn']);
  assert.deepEqual(phaseTopics([], ['rules']), []);
});

test('card topics: leader ids and character ids', () => {
  assert.equal(leaderTopic(5), 'L05');
  assert.equal(leaderTopic(16), 'L16');
  assert.equal(characterTopic('grandma_herbs'), 'herbs');
  assert.equal(characterTopic('mushroom_hunter'), 'mushroom');
  assert.equal(characterTopic('monk'), 'monk');
});
