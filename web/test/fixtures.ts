// A 2-player expert state as the server sends it (docs/state.md), to build tests on.
import type { GameState, SchoolBoard, Students } from '../src/boards/eriantys/state.js';

const none: Students = { yellow: 0, blue: 0, green: 0, red: 0, pink: 0 };

function board(over: Partial<SchoolBoard> = {}): SchoolBoard {
  return {
    entrance: { ...none },
    dining: { ...none },
    towers: 8,
    coins: 1,
    hand: 1023,
    played: 0,
    discard: 0,
    wizard: null,
    tower_color: null,
    holds_towers: false,
    skipped_planning: false,
    ...over,
  };
}

export function actionState(): GameState {
  return {
    options: { players: 2, mode: 'expert' },
    events_applied: 7,
    phase: 'action',
    round: 1,
    boards: [
      board({ entrance: { ...none, blue: 3, green: 1, red: 3 }, played: 3, wizard: 0, tower_color: 'black' }),
      board({ entrance: { ...none, pink: 7 }, played: 5, wizard: 1, tower_color: 'white' }),
      board(),
      board(),
    ],
    groups: Array.from({ length: 12 }, (_, i) => ({
      students: i === 0 || i === 6 ? { ...none } : { ...none, red: 1 },
      first_tile: i,
      tiles: 1,
      tower: null,
      towers: 0,
      no_entry: 0,
    })),
    group_count: 12,
    mother_nature: 0,
    clouds: [
      { students: { ...none, yellow: 2, pink: 1 }, taken: false },
      { students: { ...none, green: 3 }, taken: false },
      { students: { ...none }, taken: false },
      { students: { ...none }, taken: false },
    ],
    bag: { yellow: 20, blue: 20, green: 20, red: 20, pink: 20 },
    professors: { yellow: -1, blue: -1, green: -1, red: -1, pink: -1 },
    characters: [
      { id: 'jester', used: false, students: { ...none, yellow: 2, blue: 1, green: 2, pink: 1 }, no_entry: 0 },
      { id: 'monk', used: true, students: { ...none, red: 2, blue: 2 }, no_entry: 0 },
      { id: 'grandma_herbs', used: false, students: { ...none }, no_entry: 4 },
    ],
    supply: 18,
    first_player: 1,
    order: [0, 1, 0, 0],
    order_size: 2,
    turn_index: 0,
    last_round: false,
    last_round_reason: 'none',
    skip_clouds: false,
    turn: { students_moved: 0, mother_nature_moved: false, character_used: false, active: null, excluded_color: null },
    result: { reason: 'none', winners: 0 },
  };
}
