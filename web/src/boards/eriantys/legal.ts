// What the player may click, derived from the legal commands the server offers
// (`legal` of the state/event message). Pure functions: the board asks these
// which things to highlight, and a click becomes exactly one of the offered commands.
import {
  COLORS,
  type Color,
  type Command,
  type GameState,
  type Students,
  count,
  currentSeat,
  groupOfTile,
  motherNatureSteps,
  total,
} from './state.js';

// --- reading commands ---------------------------------------------------------

function num(cmd: Command, field: string): number | undefined {
  const v = cmd[field];
  return typeof v === 'number' ? v : undefined;
}

function str(cmd: Command, field: string): string | undefined {
  const v = cmd[field];
  return typeof v === 'string' ? v : undefined;
}

function students(cmd: Command, field: string): Students {
  const v = cmd[field];
  return v && typeof v === 'object' ? (v as Students) : {};
}

// Canonical text of a command (field order and zero counts do not matter).
export function commandKey(cmd: Command): string {
  const keys = Object.keys(cmd).sort();
  const parts = keys.map((k) => {
    const v = cmd[k];
    if (v && typeof v === 'object') {
      const s = v as Students;
      return `${k}=${COLORS.map((c) => count(s, c)).join('.')}`;
    }
    return `${k}=${String(v)}`;
  });
  return parts.join(',');
}

// --- plain moves ---------------------------------------------------------------

export function assistantValues(legal: Command[]): Set<number> {
  const out = new Set<number>();
  for (const c of legal) if (c.type === 'play_assistant') out.add(num(c, 'value') ?? 0);
  return out;
}

export function wizardChoices(legal: Command[]): number[] {
  return legal.filter((c) => c.type === 'choose_wizard').map((c) => num(c, 'wizard') ?? 0);
}

export function towerChoices(legal: Command[]): string[] {
  return legal.filter((c) => c.type === 'choose_tower_color').map((c) => str(c, 'color') ?? '');
}

// Entrance colours that may move now (to the dining room or an island).
export function movableColors(legal: Command[]): Set<Color> {
  const out = new Set<Color>();
  for (const c of legal) {
    if (c.type === 'move_to_dining' || c.type === 'move_to_island') out.add(str(c, 'color') as Color);
  }
  return out;
}

export interface StudentTargets {
  dining: Command | null;
  islands: Map<number, Command>; // group index -> the move_to_island command
}

export function studentTargets(legal: Command[], state: GameState, color: Color): StudentTargets {
  const targets: StudentTargets = { dining: null, islands: new Map() };
  for (const c of legal) {
    if (str(c, 'color') !== color) continue;
    if (c.type === 'move_to_dining') targets.dining = c;
    if (c.type === 'move_to_island') {
      const g = groupOfTile(state, num(c, 'island') ?? -1);
      if (g >= 0 && !targets.islands.has(g)) targets.islands.set(g, c);
    }
  }
  return targets;
}

// Groups Mother Nature may reach -> the command moving her there.
export function motherNatureTargets(legal: Command[], state: GameState): Map<number, Command> {
  const out = new Map<number, Command>();
  for (const c of legal) {
    if (c.type !== 'move_mother_nature') continue;
    const steps = num(c, 'steps') ?? 0;
    out.set((state.mother_nature + steps) % state.group_count, c);
  }
  return out;
}

export function cloudTargets(legal: Command[]): Map<number, Command> {
  const out = new Map<number, Command>();
  for (const c of legal) if (c.type === 'choose_cloud') out.set(num(c, 'cloud') ?? -1, c);
  return out;
}

// --- characters: a command built from choices made on the board ---------------

// The parameters of each character's command, in the order the player picks them.
export type ParamKind = 'card_color' | 'color' | 'island' | 'from_card' | 'from_entrance' | 'from_dining';
export const CHARACTER_PARAMS: Record<string, ParamKind[]> = {
  monk: ['card_color', 'island'],
  herald: ['island'],
  grandma_herbs: ['island'],
  mushroom_hunter: ['color'],
  thief: ['color'],
  princess: ['card_color'],
  jester: ['from_card', 'from_entrance'],
  minstrel: ['from_entrance', 'from_dining'],
};

export function characterParams(id: string): ParamKind[] {
  return CHARACTER_PARAMS[id] ?? [];
}

// Characters the player may use now (cards whose `use_<id>` is offered).
export function usableCharacters(legal: Command[]): Set<string> {
  const out = new Set<string>();
  for (const c of legal) if (c.type.startsWith('use_')) out.add(c.type.slice(4));
  return out;
}

// A character command being put together: the fields chosen so far.
export interface Draft {
  character: string;
  color?: Color; // card_color or color
  group?: number; // island, as a group index
  swapA: Students; // from_card (jester) / from_entrance (minstrel)
  swapB: Students; // from_entrance (jester) / from_dining (minstrel)
}

export function newDraft(character: string): Draft {
  return { character, swapA: {}, swapB: {} };
}

function swapFields(character: string): [string, string] {
  return character === 'minstrel' ? ['from_entrance', 'from_dining'] : ['from_card', 'from_entrance'];
}

function contains(outer: Students, inner: Students): boolean {
  return COLORS.every((c) => count(inner, c) <= count(outer, c));
}

function sameStudents(a: Students, b: Students): boolean {
  return COLORS.every((c) => count(a, c) === count(b, c));
}

function addOne(s: Students, color: Color): Students {
  return { ...s, [color]: count(s, color) + 1 };
}

// The offered commands of the draft's character that agree with every choice so far.
export function draftCandidates(legal: Command[], state: GameState, draft: Draft): Command[] {
  const [a, b] = swapFields(draft.character);
  return legal.filter((c) => {
    if (c.type !== `use_${draft.character}`) return false;
    if (draft.color !== undefined && str(c, 'color') !== draft.color) return false;
    if (draft.group !== undefined && groupOfTile(state, num(c, 'island') ?? -1) !== draft.group) return false;
    if (c[a] !== undefined && !contains(students(c, a), draft.swapA)) return false;
    if (c[b] !== undefined && !contains(students(c, b), draft.swapB)) return false;
    return true;
  });
}

// The offered command the draft spells out completely, if any.
export function draftCommand(legal: Command[], state: GameState, draft: Draft): Command | null {
  const params = characterParams(draft.character);
  const [a, b] = swapFields(draft.character);
  for (const c of draftCandidates(legal, state, draft)) {
    const done = params.every((p) => {
      switch (p) {
        case 'card_color':
        case 'color':
          return draft.color !== undefined;
        case 'island':
          return draft.group !== undefined;
        default:
          return true;
      }
    });
    if (!done) continue;
    if (c[a] !== undefined && !sameStudents(students(c, a), draft.swapA)) continue;
    if (c[b] !== undefined && !sameStudents(students(c, b), draft.swapB)) continue;
    return c;
  }
  return null;
}

// What may be clicked next to extend the draft.
export interface DraftChoices {
  colors: Set<Color>; // the card's or any colour, when a colour is still to choose
  groups: Set<number>; // islands, once the colour (if any) is chosen
  swapA: Set<Color>; // students that may be added to the first side of a swap
  swapB: Set<Color>; // ... to the second side
}

export function draftChoices(legal: Command[], state: GameState, draft: Draft): DraftChoices {
  const out: DraftChoices = { colors: new Set(), groups: new Set(), swapA: new Set(), swapB: new Set() };
  const params = characterParams(draft.character);
  const cands = draftCandidates(legal, state, draft);
  const [a, b] = swapFields(draft.character);
  const needsColor = params.includes('card_color') || params.includes('color');
  for (const c of cands) {
    if (needsColor && draft.color === undefined) {
      out.colors.add(str(c, 'color') as Color);
      continue;
    }
    if (params.includes('island') && draft.group === undefined) {
      out.groups.add(groupOfTile(state, num(c, 'island') ?? -1));
    }
    if (params.includes('from_card') || params.includes('from_dining')) {
      for (const col of COLORS) {
        if (contains(students(c, a), addOne(draft.swapA, col))) out.swapA.add(col);
        if (contains(students(c, b), addOne(draft.swapB, col))) out.swapB.add(col);
      }
    }
  }
  return out;
}

export function draftAdd(draft: Draft, side: 'A' | 'B', color: Color): Draft {
  return side === 'A' ? { ...draft, swapA: addOne(draft.swapA, color) } : { ...draft, swapB: addOne(draft.swapB, color) };
}

// --- an older server: no `legal`, only `allowed` types ------------------------

// Every size-1..max sub-multiset of `pool` (the students a swap may take).
export function subMultisets(pool: Students, max: number): Students[] {
  const out: Students[] = [];
  const walk = (i: number, current: Students, size: number): void => {
    if (i === COLORS.length) {
      if (size > 0) out.push(current);
      return;
    }
    const c = COLORS[i]!;
    for (let n = 0; n <= Math.min(count(pool, c), max - size); ++n) {
      walk(i + 1, n > 0 ? { ...current, [c]: n } : current, size + n);
    }
  };
  walk(0, {}, 0);
  return out;
}

function disjoint(a: Students, b: Students): boolean {
  return COLORS.every((c) => count(a, c) === 0 || count(b, c) === 0);
}

function swaps(typeName: string, fa: string, pa: Students, fb: string, pb: Students, max: number): Command[] {
  const out: Command[] = [];
  const left = subMultisets(pa, max);
  const right = subMultisets(pb, max);
  for (const x of left) {
    for (const y of right) {
      if (total(x) === total(y) && disjoint(x, y)) out.push({ type: typeName, [fa]: x, [fb]: y });
    }
  }
  return out;
}

// Candidate commands of the offered types: the server still checks each, so a
// refusal comes back in words; this only keeps the board clickable.
export function fallbackLegal(state: GameState, seat: number | null, allowed: string[]): Command[] {
  if (seat === null || seat < 0) return [];
  const board = state.boards[seat];
  if (!board) return [];
  const out: Command[] = [];
  const groups = Array.from({ length: state.group_count }, (_, g) => state.groups[g]!.first_tile);
  const has = (t: string): boolean => allowed.includes(t);
  if (has('choose_wizard')) {
    const taken = new Set(state.boards.map((b) => b.wizard));
    for (let w = 0; w < 4; ++w) if (!taken.has(w)) out.push({ type: 'choose_wizard', wizard: w });
  }
  if (has('choose_tower_color')) {
    const colors = state.options.players === 3 ? ['black', 'white', 'grey'] : ['black', 'white'];
    for (const color of colors) out.push({ type: 'choose_tower_color', color });
  }
  if (has('play_assistant')) {
    for (let v = 1; v <= 10; ++v) if (board.hand & (1 << (v - 1))) out.push({ type: 'play_assistant', value: v });
  }
  for (const color of COLORS) {
    if (count(board.entrance, color) === 0) continue;
    if (has('move_to_dining')) out.push({ type: 'move_to_dining', color });
    if (has('move_to_island')) for (const island of groups) out.push({ type: 'move_to_island', color, island });
  }
  if (has('move_mother_nature') && currentSeat(state) === seat) {
    const reach = motherNatureSteps(board.played) + (state.turn.active === 'postman' ? 2 : 0);
    for (let steps = 1; steps <= reach; ++steps) out.push({ type: 'move_mother_nature', steps });
  }
  if (has('choose_cloud')) {
    state.clouds.slice(0, state.options.players).forEach((c, i) => {
      if (!c.taken && total(c.students) > 0) out.push({ type: 'choose_cloud', cloud: i });
    });
  }
  for (const card of state.characters) {
    const t = `use_${card.id}`;
    if (!has(t)) continue;
    switch (card.id) {
      case 'monk':
        for (const color of COLORS)
          if (count(card.students, color) > 0) for (const island of groups) out.push({ type: t, color, island });
        break;
      case 'princess':
        for (const color of COLORS) if (count(card.students, color) > 0) out.push({ type: t, color });
        break;
      case 'mushroom_hunter':
      case 'thief':
        for (const color of COLORS) out.push({ type: t, color });
        break;
      case 'herald':
      case 'grandma_herbs':
        for (const island of groups) out.push({ type: t, island });
        break;
      case 'jester':
        out.push(...swaps(t, 'from_card', card.students, 'from_entrance', board.entrance, 3));
        break;
      case 'minstrel':
        out.push(...swaps(t, 'from_entrance', board.entrance, 'from_dining', board.dining, 2));
        break;
      default:
        out.push({ type: t });
    }
  }
  return out;
}
