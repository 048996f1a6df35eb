// Eriantys's state and view as docs/state.md writes them (the `view` of the state
// and event messages), and small readings of them shared by its board's parts.
import type { View as WireView } from '../../protocol.js';

export const COLORS = ['yellow', 'blue', 'green', 'red', 'pink'] as const;
export type Color = (typeof COLORS)[number];
export type Students = Partial<Record<Color, number>>;
export type TowerColor = 'black' | 'white' | 'grey';
export type Phase = 'setup' | 'planning' | 'action' | 'game_over';

export interface SchoolBoard {
  entrance: Students;
  dining: Students;
  towers: number;
  coins: number;
  hand: number;
  played: number;
  discard: number;
  wizard: number | null;
  tower_color: TowerColor | null;
  holds_towers: boolean;
  skipped_planning: boolean;
}

export interface IslandGroup {
  students: Students;
  first_tile: number;
  tiles: number;
  tower: TowerColor | null;
  towers: number;
  no_entry: number;
}

export interface Cloud {
  students: Students;
  taken: boolean;
}

export interface CharacterCard {
  id: string;
  used: boolean;
  students: Students;
  no_entry: number;
}

export interface GameState {
  options: { players: number; mode: 'simple' | 'expert' };
  events_applied: number;
  phase: Phase;
  round: number;
  boards: SchoolBoard[];
  groups: IslandGroup[];
  group_count: number;
  mother_nature: number;
  clouds: Cloud[];
  bag: Students;
  professors: Record<Color, number>;
  characters: CharacterCard[];
  supply: number;
  first_player: number;
  order: number[];
  order_size: number;
  turn_index: number;
  last_round: boolean;
  last_round_reason: string;
  skip_clouds: boolean;
  turn: {
    students_moved: number;
    mother_nature_moved: boolean;
    character_used: boolean;
    active: string | null;
    excluded_color: Color | null;
  };
  result: { reason: string; winners: number };
}

export interface View extends WireView {
  viewer: number;
  state: GameState;
}

export type { Command } from '../../protocol.js';

export function count(students: Students | undefined, color: Color): number {
  return students?.[color] ?? 0;
}

export function total(students: Students | undefined): number {
  let n = 0;
  for (const c of COLORS) n += count(students, c);
  return n;
}

// "Y2 B1 R3", the render layer's compact form; "-" when empty.
export function compactStudents(students: Students | undefined): string {
  const parts: string[] = [];
  for (const c of COLORS) {
    const n = count(students, c);
    if (n > 0) parts.push(`${c[0]!.toUpperCase()}${n}`);
  }
  return parts.length ? parts.join(' ') : '-';
}

// Mother Nature's reach of an assistant: values 1-2 -> 1 ... 9-10 -> 5.
export function motherNatureSteps(value: number): number {
  return Math.ceil(value / 2);
}

// The group a tile belongs to (tiles keep their ids; groups hold consecutive runs).
export function groupOfTile(state: GameState, tile: number): number {
  for (let g = 0; g < state.group_count; ++g) {
    const grp = state.groups[g]!;
    const offset = (tile - grp.first_tile + 12) % 12;
    if (offset < grp.tiles) return g;
  }
  return -1;
}

// "7" or "6-8" (wrapping "11-1"), as render::group_label.
export function groupLabel(group: IslandGroup): string {
  if (group.tiles <= 1) return String(group.first_tile);
  return `${group.first_tile}-${(group.first_tile + group.tiles - 1) % 12}`;
}

export function currentSeat(state: GameState): number {
  if (state.phase !== 'planning' && state.phase !== 'action') return -1;
  if (state.turn_index >= state.order_size) return -1;
  return state.order[state.turn_index] ?? -1;
}

export const CHARACTER_TITLES: Record<string, string> = {
  monk: 'Monk',
  farmer: 'Farmer',
  herald: 'Herald',
  postman: 'Postman',
  grandma_herbs: 'Grandma Herbs',
  centaur: 'Centaur',
  jester: 'Jester',
  knight: 'Knight',
  mushroom_hunter: 'Mushroom Hunter',
  minstrel: 'Minstrel',
  princess: 'Princess',
  thief: 'Thief',
};

// Base costs of docs/rules.md; a used card costs one more.
export const CHARACTER_COSTS: Record<string, number> = {
  monk: 1,
  farmer: 2,
  herald: 3,
  postman: 1,
  grandma_herbs: 2,
  centaur: 3,
  jester: 1,
  knight: 2,
  mushroom_hunter: 3,
  minstrel: 1,
  princess: 2,
  thief: 3,
};

export const CHARACTER_HINTS: Record<string, string> = {
  monk: 'Move a student from this card to an island.',
  farmer: 'Take professors on ties this turn.',
  herald: 'Resolve an island as if Mother Nature ended there.',
  postman: 'Mother Nature may move 2 more steps.',
  grandma_herbs: 'Put a No-Entry tile on an island.',
  centaur: 'Towers give no influence this turn.',
  jester: 'Swap up to 3 students between this card and your entrance.',
  knight: '+2 influence this turn.',
  mushroom_hunter: 'A colour gives no influence this turn.',
  minstrel: 'Swap up to 2 students between your entrance and dining room.',
  princess: 'Put a student from this card in your dining room.',
  thief: 'Everyone returns up to 3 students of a colour to the bag.',
};

export function characterCost(card: CharacterCard): number {
  return (CHARACTER_COSTS[card.id] ?? 0) + (card.used ? 1 : 0);
}
