// Masters of Renaissance's view as the server sends it (docs/renaissance/protocol.md
// sections 4 and 5) and the game's constants the board draws from: the development
// cards and leaders (docs/renaissance/rules.md 1.3, 1.4), the report sections (1.5).
// Scoring is the server's: every board of the view carries its points. Pure: no DOM.
import type { Command } from '../../protocol.js';

export type { Command };
export type Resource = 'coin' | 'servant' | 'shield' | 'stone';
export type Colour = 'green' | 'blue' | 'yellow' | 'purple';
export type Marble = 'white' | 'blue' | 'grey' | 'yellow' | 'purple' | 'red';
export const RESOURCES: Resource[] = ['coin', 'servant', 'shield', 'stone'];
export const COLOURS: Colour[] = ['green', 'blue', 'yellow', 'purple'];
export type Amounts = Partial<Record<Resource | 'faith', number>>;

export interface Depot {
  type?: Resource;
  count: number;
}
export interface Leader {
  id: number;
  status: 'active' | 'hand' | 'discarded';
  stored: number;
}
// A board's victory points now, as the server's rules score them (protocol.md 4, rules.md 5.3).
export interface Points {
  total: number;
  cards: number;
  track: number;
  tiles: number;
  leaders: number;
  resources: number;
}
export interface Board {
  depots: Depot[];
  strongbox: Partial<Record<Resource, number>>;
  slots: number[][];
  dealt: number[];
  leaders: Leader[];
  faith: number;
  tiles: Array<'face_down' | 'face_up' | 'discarded'>;
  leaders_chosen: boolean;
  resources_chosen: boolean;
  points: Points;
}
export interface State {
  schema: number;
  options: { players: number };
  events_applied: number;
  phase: 'setup' | 'play' | 'game_over';
  market: { tray: Marble[]; slide: Marble };
  grid: { cards: number[][]; size: number[] };
  boards: Board[];
  lorenzo: { cross: number; tokens: number[]; revealed: number; last_token: number; discarded: number };
  inkwell: number;
  current: number;
  turn: number;
  main_action_done: boolean;
  reports: number;
  final_round: boolean;
  trigger: string;
  result: { reason: string; winners: number; lorenzo_won: boolean; scores: number[]; resigned: number };
}
export interface View {
  viewer: number;
  state: State;
}

export interface Card {
  id: number;
  level: number;
  colour: Colour;
  vp: number;
  cost: Amounts;
  input: Amounts;
  output: Amounts;
}

// rules.md 1.3, row by row (ids follow victory points).
const CARDS: Card[] = [
  { id: 1, level: 1, colour: 'green', vp: 1, cost: {shield: 2}, input: {coin: 1}, output: {faith: 1} },
  { id: 2, level: 1, colour: 'purple', vp: 1, cost: {servant: 2}, input: {stone: 1}, output: {faith: 1} },
  { id: 3, level: 1, colour: 'blue', vp: 1, cost: {coin: 2}, input: {shield: 1}, output: {faith: 1} },
  { id: 4, level: 1, colour: 'yellow', vp: 1, cost: {stone: 2}, input: {servant: 1}, output: {faith: 1} },
  { id: 5, level: 1, colour: 'green', vp: 2, cost: {servant: 1, shield: 1, stone: 1}, input: {stone: 1}, output: {servant: 1} },
  { id: 6, level: 1, colour: 'purple', vp: 2, cost: {coin: 1, servant: 1, shield: 1}, input: {coin: 1}, output: {shield: 1} },
  { id: 7, level: 1, colour: 'blue', vp: 2, cost: {coin: 1, servant: 1, stone: 1}, input: {servant: 1}, output: {stone: 1} },
  { id: 8, level: 1, colour: 'yellow', vp: 2, cost: {coin: 1, shield: 1, stone: 1}, input: {shield: 1}, output: {coin: 1} },
  { id: 9, level: 1, colour: 'green', vp: 3, cost: {shield: 3}, input: {servant: 2}, output: {coin: 1, shield: 1, stone: 1} },
  { id: 10, level: 1, colour: 'purple', vp: 3, cost: {servant: 3}, input: {coin: 2}, output: {servant: 1, shield: 1, stone: 1} },
  { id: 11, level: 1, colour: 'blue', vp: 3, cost: {coin: 3}, input: {stone: 2}, output: {coin: 1, servant: 1, shield: 1} },
  { id: 12, level: 1, colour: 'yellow', vp: 3, cost: {stone: 3}, input: {shield: 2}, output: {coin: 1, servant: 1, stone: 1} },
  { id: 13, level: 1, colour: 'green', vp: 4, cost: {coin: 2, shield: 2}, input: {servant: 1, stone: 1}, output: {coin: 2, faith: 1} },
  { id: 14, level: 1, colour: 'purple', vp: 4, cost: {servant: 2, stone: 2}, input: {coin: 1, shield: 1}, output: {stone: 2, faith: 1} },
  { id: 15, level: 1, colour: 'blue', vp: 4, cost: {coin: 2, servant: 2}, input: {shield: 1, stone: 1}, output: {servant: 2, faith: 1} },
  { id: 16, level: 1, colour: 'yellow', vp: 4, cost: {shield: 2, stone: 2}, input: {coin: 1, servant: 1}, output: {shield: 2, faith: 1} },
  { id: 17, level: 2, colour: 'green', vp: 5, cost: {shield: 4}, input: {stone: 1}, output: {faith: 2} },
  { id: 18, level: 2, colour: 'purple', vp: 5, cost: {servant: 4}, input: {coin: 1}, output: {faith: 2} },
  { id: 19, level: 2, colour: 'blue', vp: 5, cost: {coin: 4}, input: {servant: 1}, output: {faith: 2} },
  { id: 20, level: 2, colour: 'yellow', vp: 5, cost: {stone: 4}, input: {shield: 1}, output: {faith: 2} },
  { id: 21, level: 2, colour: 'green', vp: 6, cost: {servant: 2, shield: 3}, input: {servant: 1, shield: 1}, output: {stone: 3} },
  { id: 22, level: 2, colour: 'purple', vp: 6, cost: {coin: 2, servant: 3}, input: {coin: 1, servant: 1}, output: {shield: 3} },
  { id: 23, level: 2, colour: 'blue', vp: 6, cost: {coin: 3, stone: 2}, input: {coin: 1, stone: 1}, output: {servant: 3} },
  { id: 24, level: 2, colour: 'yellow', vp: 6, cost: {shield: 2, stone: 3}, input: {shield: 1, stone: 1}, output: {coin: 3} },
  { id: 25, level: 2, colour: 'green', vp: 7, cost: {shield: 5}, input: {coin: 2}, output: {stone: 2, faith: 2} },
  { id: 26, level: 2, colour: 'purple', vp: 7, cost: {servant: 5}, input: {stone: 2}, output: {coin: 2, faith: 2} },
  { id: 27, level: 2, colour: 'blue', vp: 7, cost: {coin: 5}, input: {servant: 2}, output: {shield: 2, faith: 2} },
  { id: 28, level: 2, colour: 'yellow', vp: 7, cost: {stone: 5}, input: {shield: 2}, output: {servant: 2, faith: 2} },
  { id: 29, level: 2, colour: 'green', vp: 8, cost: {coin: 3, shield: 3}, input: {coin: 1}, output: {shield: 2, faith: 1} },
  { id: 30, level: 2, colour: 'purple', vp: 8, cost: {servant: 3, shield: 3}, input: {stone: 1}, output: {servant: 2, faith: 1} },
  { id: 31, level: 2, colour: 'blue', vp: 8, cost: {coin: 3, stone: 3}, input: {servant: 1}, output: {stone: 2, faith: 1} },
  { id: 32, level: 2, colour: 'yellow', vp: 8, cost: {servant: 3, stone: 3}, input: {shield: 1}, output: {coin: 2, faith: 1} },
  { id: 33, level: 3, colour: 'green', vp: 9, cost: {shield: 6}, input: {coin: 2}, output: {stone: 3, faith: 2} },
  { id: 34, level: 3, colour: 'purple', vp: 9, cost: {servant: 6}, input: {stone: 2}, output: {coin: 3, faith: 2} },
  { id: 35, level: 3, colour: 'blue', vp: 9, cost: {coin: 6}, input: {servant: 2}, output: {shield: 3, faith: 2} },
  { id: 36, level: 3, colour: 'yellow', vp: 9, cost: {stone: 6}, input: {shield: 2}, output: {servant: 3, faith: 2} },
  { id: 37, level: 3, colour: 'green', vp: 10, cost: {servant: 2, shield: 5}, input: {coin: 1, servant: 1}, output: {shield: 2, stone: 2, faith: 1} },
  { id: 38, level: 3, colour: 'purple', vp: 10, cost: {coin: 2, servant: 5}, input: {shield: 1, stone: 1}, output: {coin: 2, servant: 2, faith: 1} },
  { id: 39, level: 3, colour: 'blue', vp: 10, cost: {coin: 5, stone: 2}, input: {coin: 1, shield: 1}, output: {servant: 2, stone: 2, faith: 1} },
  { id: 40, level: 3, colour: 'yellow', vp: 10, cost: {servant: 2, stone: 5}, input: {servant: 1, stone: 1}, output: {coin: 2, shield: 2, faith: 1} },
  { id: 41, level: 3, colour: 'green', vp: 11, cost: {shield: 7}, input: {servant: 1}, output: {coin: 1, faith: 3} },
  { id: 42, level: 3, colour: 'purple', vp: 11, cost: {servant: 7}, input: {coin: 1}, output: {stone: 1, faith: 3} },
  { id: 43, level: 3, colour: 'blue', vp: 11, cost: {coin: 7}, input: {stone: 1}, output: {shield: 1, faith: 3} },
  { id: 44, level: 3, colour: 'yellow', vp: 11, cost: {stone: 7}, input: {shield: 1}, output: {servant: 1, faith: 3} },
  { id: 45, level: 3, colour: 'green', vp: 12, cost: {coin: 4, shield: 4}, input: {stone: 1}, output: {coin: 3, shield: 1} },
  { id: 46, level: 3, colour: 'purple', vp: 12, cost: {servant: 4, shield: 4}, input: {coin: 1}, output: {servant: 1, stone: 3} },
  { id: 47, level: 3, colour: 'blue', vp: 12, cost: {coin: 4, stone: 4}, input: {servant: 1}, output: {coin: 1, shield: 3} },
  { id: 48, level: 3, colour: 'yellow', vp: 12, cost: {servant: 4, stone: 4}, input: {shield: 1}, output: {servant: 3, stone: 1} },];

export function card(id: number): Card | null {
  return CARDS[id - 1] ?? null;
}

export type LeaderKind = 'discount' | 'extra_depot' | 'white_marble' | 'production';
export interface LeaderCard {
  id: number;
  kind: LeaderKind;
  resource: Resource; // the discount, the depot's, the white marble's, the production's input
  vp: number;
  requirement: string;
}
// rules.md 1.4: four kinds, each covering each resource once.
const LEADERS: LeaderCard[] = [
  { id: 1, kind: 'discount', resource: 'servant', vp: 2, requirement: '1 yellow + 1 green card' },
  { id: 2, kind: 'discount', resource: 'shield', vp: 2, requirement: '1 blue + 1 purple card' },
  { id: 3, kind: 'discount', resource: 'stone', vp: 2, requirement: '1 green + 1 blue card' },
  { id: 4, kind: 'discount', resource: 'coin', vp: 2, requirement: '1 yellow + 1 purple card' },
  { id: 5, kind: 'extra_depot', resource: 'stone', vp: 3, requirement: '5 coin' },
  { id: 6, kind: 'extra_depot', resource: 'servant', vp: 3, requirement: '5 stone' },
  { id: 7, kind: 'extra_depot', resource: 'shield', vp: 3, requirement: '5 servant' },
  { id: 8, kind: 'extra_depot', resource: 'coin', vp: 3, requirement: '5 shield' },
  { id: 9, kind: 'white_marble', resource: 'servant', vp: 5, requirement: '2 yellow + 1 blue card' },
  { id: 10, kind: 'white_marble', resource: 'shield', vp: 5, requirement: '2 green + 1 purple card' },
  { id: 11, kind: 'white_marble', resource: 'stone', vp: 5, requirement: '2 blue + 1 yellow card' },
  { id: 12, kind: 'white_marble', resource: 'coin', vp: 5, requirement: '2 purple + 1 green card' },
  { id: 13, kind: 'production', resource: 'shield', vp: 4, requirement: '1 yellow card of level 2' },
  { id: 14, kind: 'production', resource: 'servant', vp: 4, requirement: '1 blue card of level 2' },
  { id: 15, kind: 'production', resource: 'stone', vp: 4, requirement: '1 purple card of level 2' },
  { id: 16, kind: 'production', resource: 'coin', vp: 4, requirement: '1 green card of level 2' },
];

export function leader(id: number): LeaderCard | null {
  return LEADERS[id - 1] ?? null;
}

export function leaderName(id: number): string {
  return id > 0 ? `L${String(id).padStart(2, '0')}` : '?';
}

export function leaderAbility(l: LeaderCard): string {
  switch (l.kind) {
    case 'discount':
      return `cards cost 1 ${l.resource} less`;
    case 'extra_depot':
      return `depot: 2 ${l.resource}`;
    case 'white_marble':
      return `white marble → ${l.resource}`;
    case 'production':
      return `1 ${l.resource} → 1 any + 1 faith`;
  }
}

// The resource a marble gives (red: faith, white: nothing or a leader's).
export const MARBLE_RESOURCE: Record<Marble, Resource | 'faith' | null> = { white: null, blue: 'shield', grey: 'stone', yellow: 'coin', purple: 'servant', red: 'faith' };

// "2 coin + 1 faith"
export function amountsText(a: Amounts): string {
  const parts = Object.entries(a).filter(([, n]) => (n ?? 0) > 0).map(([r, n]) => `${n} ${r}`);
  return parts.length ? parts.join(' + ') : 'nothing';
}

// The deck index of (level, colour) in `grid` (protocol.md 4).
export function deckIndex(level: number, colour: Colour): number {
  return (level - 1) * 4 + COLOURS.indexOf(colour);
}

export function deckTop(state: State, level: number, colour: Colour): { id: number; left: number } {
  const d = deckIndex(level, colour);
  const left = state.grid.size[d] ?? 0;
  return { id: left > 0 ? (state.grid.cards[d]?.[left - 1] ?? 0) : 0, left };
}

// A slot's top card (the highest non-zero level) and how many cards it holds.
export function slotTop(b: Board, slot: number): { id: number; depth: number } {
  const cards = b.slots[slot] ?? [];
  const depth = cards.filter((c) => c > 0).length;
  let id = 0;
  for (const c of cards) if (c > 0) id = c;
  return { id, depth };
}

// The resources of a seat's warehouse (basic and leader depots).
export function warehouse(b: Board): Record<Resource, number> {
  const out: Record<Resource, number> = { coin: 0, servant: 0, shield: 0, stone: 0 };
  for (const d of b.depots) if (d.type && d.count > 0) out[d.type] += d.count;
  for (const l of b.leaders) {
    const lc = leader(l.id);
    if (l.status === 'active' && lc?.kind === 'extra_depot') out[lc.resource] += l.stored;
  }
  return out;
}

// rules.md 1.5: the three report sections and their favour tiles' points.
export const SECTIONS = [
  { first: 5, pope: 8, vp: 2 },
  { first: 12, pope: 16, vp: 3 },
  { first: 19, pope: 24, vp: 4 },
];
// "49 VP now: development cards 30, faith track 9, Pope's Favour tiles 5, leaders 3,
// resources 2" (rules.md 5.3's words), from the view's points.
export function pointsText(p: Points): string {
  const parts: Array<[string, number]> = [['development cards', p.cards], ['faith track', p.track], ["Pope's Favour tiles", p.tiles], ['leaders', p.leaders], ['resources', p.resources]];
  return `${p.total} VP now: ${parts.map(([what, n]) => `${what} ${n}`).join(', ')}`;
}

export function seatName(names: string[], seat: number): string {
  return names[seat] || `seat ${seat}`;
}
