// The board in SVG: the ring of islands (merged groups joined), clouds in the
// middle, the characters, the hand and every school board. Drawn from a state
// and what the player may click; every drawn thing also carries its facts in
// data-* attributes (read by the browser tests, never by the app).
import { cardHelp, characterTopic, helpText } from '../../help.js';
import { h, memo, morphAttrs, s } from '../../dom.js';
import { type Keyed, reconcile, slot } from '../../patch.js';
import {
  type StudentTargets,
  type Draft,
  type DraftChoices,
  assistantValues,
  cloudTargets,
  motherNatureTargets,
  movableColors,
  usableCharacters,
  characterParams,
} from './legal.js';
import {
  CHARACTER_HINTS,
  CHARACTER_TITLES,
  COLORS,
  type Color,
  type Command,
  type GameState,
  type Students,
  characterCost,
  compactStudents,
  count,
  currentSeat,
  groupLabel,
  motherNatureSteps,
  total,
} from './state.js';

export type Selection =
  | { kind: 'none' }
  | { kind: 'student'; color: Color; targets: StudentTargets }
  | { kind: 'character'; draft: Draft; choices: DraftChoices; ready: Command | null };

export interface BoardInput {
  state: GameState;
  names: string[]; // nickname per seat ('' = free)
  viewer: number; // -1 spectator
  legal: Command[];
  selection: Selection;
  changed: Set<string>; // keys of things the last event changed (highlighted)
  // Alternates with each new state: an element kept in place that changes again
  // must get a new animation name, or its flash would not play again.
  flash?: 'a' | 'b';
  onStudent(color: Color): void; // an entrance student
  onDining(): void;
  onGroup(group: number): void;
  onCloud(cloud: number): void;
  onAssistant(value: number): void;
  onCharacter(id: string): void;
  onCardStudent(color: Color): void; // a student on the drafted character's card
  onDiningStudent(color: Color): void; // a dining student (Minstrel)
}

const TILE_R = 46;
const RING_R = 250;
const CENTER = 320;

export function seatName(names: string[], seat: number): string {
  return names[seat] || `seat ${seat}`;
}

function changedClass(inp: BoardInput, key: string): string {
  return inp.changed.has(key) ? `changed flash-${inp.flash ?? 'a'}` : '';
}

function tileXY(tile: number): [number, number] {
  // Tile 0 at the top, clockwise.
  const a = (tile / 12) * 2 * Math.PI - Math.PI / 2;
  return [CENTER + RING_R * Math.cos(a), CENTER + RING_R * Math.sin(a)];
}

// Students as coloured discs with their count, laid out around (cx, cy).
function studentDiscs(st: Students, cx: number, cy: number, spread: number, r = 10): SVGElement {
  const g = s('g', { class: 'students' });
  const present = COLORS.filter((c) => count(st, c) > 0);
  present.forEach((c, i) => {
    const a = present.length === 1 ? 0 : (i / present.length) * 2 * Math.PI - Math.PI / 2;
    const d = present.length === 1 ? 0 : spread;
    const x = cx + d * Math.cos(a);
    const y = cy + d * Math.sin(a);
    g.append(
      s('circle', { cx: x, cy: y, r, class: `st st-${c}` }),
      s('text', { x, y: y + 4, class: 'st-n' }, count(st, c)),
    );
  });
  return g;
}

function tower(x: number, y: number, color: string, n: number | null): SVGElement {
  return s(
    'g',
    { class: `tower tw-${color}` },
    s('path', { d: `M${x - 7},${y + 9} L${x - 5},${y - 7} L${x},${y - 11} L${x + 5},${y - 7} L${x + 7},${y + 9} Z` }),
    n !== null && n > 1 ? s('text', { x: x + 13, y: y + 5, class: 'small' }, `×${n}`) : null,
  );
}

function groupItems(inp: BoardInput): Keyed[] {
  const { state } = inp;
  const mnTargets = motherNatureTargets(inp.legal, state);
  const sel = inp.selection;
  const items: Keyed[] = [];
  for (let g = 0; g < state.group_count; ++g) {
    const grp = state.groups[g]!;
    let target: 'mn' | 'student' | 'character' | null = null;
    if (sel.kind === 'student' && sel.targets.islands.has(g)) target = 'student';
    else if (sel.kind === 'character' && sel.choices.groups.has(g)) target = 'character';
    else if (sel.kind === 'none' && mnTargets.has(g)) target = 'mn';
    const key = `group-${grp.first_tile}`;
    const changed = inp.changed.has(key);
    items.push({
      key,
      sig: JSON.stringify([g, grp, g === state.mother_nature, target, changed && (inp.flash ?? 'a')]),
      build: () => groupNode(inp, g, target, changed),
    });
  }
  return items;
}

function groupNode(inp: BoardInput, g: number, target: string | null, changed: boolean): SVGElement {
  const { state } = inp;
  const grp = state.groups[g]!;
  const tiles = Array.from({ length: grp.tiles }, (_, i) => (grp.first_tile + i) % 12);
  const cls = ['group', target ? 'target' : '', changed ? changedClass(inp, `group-${grp.first_tile}`) : ''].join(' ');
  const node = s('g', {
    class: cls,
    'data-group': g,
    'data-tiles': groupLabel(grp),
    'data-students': compactStudents(grp.students),
    'data-tower': grp.tower ?? '',
    'data-towers': grp.towers,
    'data-no-entry': grp.no_entry,
    'data-mn': g === state.mother_nature ? 1 : 0,
    onclick: target ? () => inp.onGroup(g) : undefined,
  });
  // The band joining merged tiles, then the tiles themselves.
  for (let i = 0; i + 1 < tiles.length; ++i) {
    const [x1, y1] = tileXY(tiles[i]!);
    const [x2, y2] = tileXY(tiles[i + 1]!);
    node.append(s('line', { x1, y1, x2, y2, class: 'band' }));
  }
  for (const t of tiles) {
    const [x, y] = tileXY(t);
    node.append(s('circle', { cx: x, cy: y, r: TILE_R, class: 'tile' }), s('text', { x, y: y + TILE_R - 6, class: 'tile-id' }, t));
  }
  const mid = tiles[Math.floor((tiles.length - 1) / 2)]!;
  const [x, y] = tileXY(mid);
  node.append(studentDiscs(grp.students, x, y + 2, 22));
  if (grp.tower) node.append(tower(x - 22, y - 28, grp.tower, grp.towers));
  if (grp.no_entry > 0) {
    node.append(
      s('g', { class: 'no-entry' }, s('circle', { cx: x + 26, cy: y - 28, r: 10 }), s('text', { x: x + 26, y: y - 24 }, `✕${grp.no_entry > 1 ? grp.no_entry : ''}`)),
    );
  }
  if (g === state.mother_nature) {
    // Mother Nature stands on the outer side of her group.
    const [ox, oy] = tileXY(mid);
    const dx = (ox - CENTER) / RING_R;
    const dy = (oy - CENTER) / RING_R;
    const mx = ox + dx * (TILE_R + 4);
    const my = oy + dy * (TILE_R + 4);
    node.append(s('g', { class: 'mother-nature' }, s('circle', { cx: mx, cy: my, r: 13 }), s('text', { x: mx, y: my + 4 }, 'MN')));
  }
  const title = s('title', {}, `Island ${groupLabel(grp)}: ${compactStudents(grp.students)}`);
  node.append(title);
  return node;
}

function cloudItems(inp: BoardInput): Keyed[] {
  const { state } = inp;
  const n = state.options.players;
  const targets = inp.selection.kind === 'none' ? cloudTargets(inp.legal) : new Map<number, Command>();
  const items: Keyed[] = [];
  for (let i = 0; i < n; ++i) {
    const c = state.clouds[i]!;
    const target = targets.has(i);
    const key = `cloud-${i}`;
    const changed = inp.changed.has(key);
    items.push({
      key,
      sig: JSON.stringify([c, n, target, changed && (inp.flash ?? 'a')]),
      build: () => {
        const a = (i / n) * 2 * Math.PI - Math.PI / 2 + (n === 2 ? Math.PI / 2 : 0);
        const x = CENTER + (n === 2 ? 62 : 78) * Math.cos(a);
        const y = CENTER + (n === 2 ? 62 : 78) * Math.sin(a);
        return s(
          'g',
          {
            class: `cloud ${target ? 'target' : ''} ${c.taken ? 'taken' : ''} ${changedClass(inp, key)}`,
            'data-cloud': i,
            'data-students': c.taken ? 'taken' : compactStudents(c.students),
            onclick: target ? () => inp.onCloud(i) : undefined,
          },
          s('circle', { cx: x, cy: y, r: 44, class: 'cloud-shape' }),
          c.taken ? s('text', { x, y: y + 4, class: 'small' }, 'taken') : studentDiscs(c.students, x, y, 20, 9),
          s('title', {}, `Cloud ${i}`),
        );
      },
    });
  }
  return items;
}

// The table (islands and clouds) drawn into `svg`, keeping what did not change.
export function patchTable(svg: SVGElement, inp: BoardInput): void {
  reconcile(slot(svg, 'islands', () => s('g', { class: 'islands' })), groupItems(inp));
  reconcile(slot(svg, 'clouds', () => s('g', { class: 'clouds' })), cloudItems(inp));
}

export function newTable(): SVGElement {
  return s('svg', { viewBox: '0 0 640 640', class: 'table', role: 'img', 'aria-label': 'islands and clouds' });
}

export function drawTable(inp: BoardInput): SVGElement {
  const svg = newTable();
  patchTable(svg, inp);
  return svg;
}

// --- school boards --------------------------------------------------------------

const ROW_H = 30;
const kEntranceSlots = 10;

export function drawSchool(inp: BoardInput, seat: number): SVGElement {
  const { state } = inp;
  const b = state.boards[seat]!;
  const expert = state.options.mode === 'expert';
  const mine = seat === inp.viewer;
  const sel = inp.selection;
  const movable = mine && sel.kind === 'none' ? movableColors(inp.legal) : new Set<Color>();
  const svg = s('svg', { viewBox: `0 0 520 ${ROW_H * 5 + 12}`, class: 'school' });
  // Entrance: one disc per student, sorted by colour, two columns. Each part is
  // memoised by what it shows, so a redraw of the board morphs only the parts that changed.
  const entrance: Color[] = [];
  for (const c of COLORS) for (let i = 0; i < count(b.entrance, c); ++i) entrance.push(c);
  const selSig = mine ? JSON.stringify([sel.kind, sel.kind === 'student' ? [sel.color, sel.targets.dining !== null] : sel.kind === 'character' ? [sel.draft.character, sel.draft.swapA, sel.draft.swapB, [...sel.choices.swapA], [...sel.choices.swapB]] : null, [...movable]]) : '';
  // A swap being put together (Jester, Minstrel): the students already picked on each
  // side are marked, before "Use" is pressed.
  const swap = mine && sel.kind === 'character' && (sel.draft.character === 'jester' || sel.draft.character === 'minstrel') ? sel.draft : null;
  const entrancePicks: Students = swap ? (swap.character === 'minstrel' ? swap.swapA : swap.swapB) : {};
  const diningPicks: Students = swap && swap.character === 'minstrel' ? swap.swapB : {};
  const seen: Partial<Record<Color, number>> = {};
  const entranceG = memo(s('g', { class: 'entrance' }), JSON.stringify([entrance, selSig]));
  svg.append(entranceG);
  entranceG.append(s('rect', { x: 4, y: 4, width: 72, height: ROW_H * 5, class: 'area' }));
  for (let i = 0; i < Math.max(kEntranceSlots, entrance.length); ++i) {
    const c = entrance[i];
    const x = 22 + (i % 2) * 36;
    const y = 20 + Math.floor(i / 2) * ROW_H;
    if (!c) {
      entranceG.append(s('circle', { cx: x, cy: y, r: 10, class: 'slot' }));
      continue;
    }
    let clickable = false;
    const nth = (seen[c] = (seen[c] ?? 0) + 1); // the nth student of its colour
    let picked = nth <= count(entrancePicks, c);
    let onclick: (() => void) | undefined;
    if (mine && movable.has(c)) {
      clickable = true;
      onclick = () => inp.onStudent(c);
    }
    if (mine && sel.kind === 'student' && sel.color === c) picked = true;
    if (mine && sel.kind === 'character') {
      const side = sel.draft.character === 'minstrel' ? sel.choices.swapA : sel.choices.swapB;
      if (side.has(c)) {
        clickable = true;
        onclick = () => inp.onStudent(c);
      }
    }
    entranceG.append(
      s('circle', {
        cx: x,
        cy: y,
        r: 11,
        class: `st st-${c} ${clickable ? 'pick' : ''} ${picked ? 'picked' : ''}`,
        'data-entrance': c,
        'data-picked': picked ? 1 : undefined,
        onclick,
      }),
    );
  }
  // Dining room: ten seats a colour (coin seats 3, 6, 9 ringed in expert), the professor at the end.
  const diningTarget = sel.kind === 'student' && mine && sel.targets.dining !== null;
  const minstrelSide = mine && sel.kind === 'character' && sel.draft.character === 'minstrel' ? sel.choices.swapB : null;
  COLORS.forEach((c, row) => {
    const y = 20 + row * ROW_H;
    const target = diningTarget && sel.kind === 'student' && sel.color === c;
    const prof = state.professors[c] === seat;
    const picks = count(diningPicks, c); // the last `picks` students of the row are picked
    const rowNode = memo(s('g', {
      class: `dining-row ${target ? 'target' : ''}`,
      'data-dining': c,
      'data-count': count(b.dining, c),
      'data-picked': picks || undefined,
      onclick: target ? () => inp.onDining() : minstrelSide?.has(c) ? () => inp.onDiningStudent(c) : undefined,
    }), JSON.stringify([count(b.dining, c), prof, target, minstrelSide?.has(c) ?? false, expert, picks]));
    rowNode.append(s('rect', { x: 88, y: y - 13, width: 318, height: 26, rx: 5, class: `row row-${c} ${minstrelSide?.has(c) ? 'pick' : ''}` }));
    for (let i = 0; i < 10; ++i) {
      const x = 104 + i * 30;
      const filled = i < count(b.dining, c);
      const picked = filled && i >= count(b.dining, c) - picks;
      if (filled) rowNode.append(s('circle', { cx: x, cy: y, r: 10, class: `st st-${c} ${picked ? 'picked' : ''}`, 'data-picked': picked ? 1 : undefined }));
      else rowNode.append(s('circle', { cx: x, cy: y, r: 10, class: expert && i % 3 === 2 ? 'slot coin-seat' : 'slot' }));
    }
    rowNode.append(s('polygon', { points: `${424},${y - 11} ${436},${y} ${424},${y + 11} ${412},${y}`, class: prof ? `prof st-${c}` : 'prof-slot' }));
    svg.append(rowNode);
  });
  // Towers.
  const holds = b.tower_color && (state.options.players !== 4 || b.holds_towers);
  const towers = memo(s('g', { class: 'towers' }), `${holds ? b.towers : 0} ${b.tower_color}`);
  svg.append(towers);
  if (b.tower_color && holds) {
    for (let i = 0; i < b.towers; ++i) towers.append(tower(458 + (i % 2) * 26, 22 + Math.floor(i / 2) * 36, b.tower_color, null));
  }
  return svg;
}

function professorsOf(state: GameState, seat: number): string {
  return COLORS.filter((c) => state.professors[c] === seat)
    .map((c) => c[0]!.toUpperCase())
    .join(' ');
}

// The school boards of `seats` (every seat by default), in that order, into `wrap`.
export function patchBoards(wrap: HTMLElement, inp: BoardInput, seats?: number[]): void {
  const { state } = inp;
  const acting = currentSeat(state);
  const items: Keyed[] = [];
  for (const seat of seats ?? Array.from({ length: state.options.players }, (_, i) => i)) {
    const key = `board-${seat}`;
    const mine = seat === inp.viewer;
    const sel = inp.selection;
    const selSig = mine ? JSON.stringify([sel.kind, sel.kind === 'student' ? [sel.color, sel.targets.dining !== null] : sel.kind === 'character' ? [sel.draft, [...sel.choices.swapA], [...sel.choices.swapB]] : null, inp.legal]) : '';
    items.push({
      key,
      sig: JSON.stringify([state.boards[seat], professorsOf(state, seat), state.options, seat === acting, mine, inp.names[seat], inp.changed.has(key) && (inp.flash ?? 'a'), selSig]),
      build: () => {
        const node = boardShell(inp, seat, acting);
        boardParts(node, inp, seat);
        return node;
      },
      // The section's own attributes, then its header and school board each only when
      // they changed: a turn passing changes a border, not two school boards.
      update: (node) => {
        morphAttrs(node, boardShell(inp, seat, acting));
        boardParts(node, inp, seat);
      },
    });
  }
  reconcile(wrap, items);
}

export function drawBoards(inp: BoardInput): HTMLElement {
  const wrap = h('div', { class: 'boards' });
  patchBoards(wrap, inp);
  return wrap;
}

// A school board's section without its children (boardParts fills them).
function boardShell(inp: BoardInput, seat: number, acting: number): HTMLElement {
  const { state } = inp;
  const b = state.boards[seat]!;
  const hand: number[] = [];
  for (let v = 1; v <= 10; ++v) if (b.hand & (1 << (v - 1))) hand.push(v);
  const key = `board-${seat}`;
  return h('section', {
    class: `board ${seat === acting ? 'acting' : ''} ${seat === inp.viewer ? 'mine' : ''} ${changedClass(inp, key)}`,
    'data-board': seat,
    'data-entrance': compactStudents(b.entrance),
    'data-dining': compactStudents(b.dining),
    'data-towers': b.towers,
    'data-coins': b.coins,
    'data-professors': professorsOf(state, seat),
    'data-hand': hand.join(' '),
  });
}

function boardParts(node: Element, inp: BoardInput, seat: number): void {
  const { state } = inp;
  const b = state.boards[seat]!;
  const team = state.options.players === 4 ? ` · team ${seat % 2 === 0 ? 'A' : 'B'}` : '';
  const facts = [
    b.tower_color ? `${b.tower_color} towers${b.tower_color && (state.options.players !== 4 || b.holds_towers) ? ` ${b.towers}` : ''}` : 'no towers yet',
    state.options.mode === 'expert' ? `coins ${b.coins}` : '',
    b.played ? `played ${b.played} (MN ${motherNatureSteps(b.played)})` : b.skipped_planning ? 'skipped (absent)' : b.discard ? `last ${b.discard}` : '',
    b.wizard !== null ? `wizard ${b.wizard}` : '',
  ].filter(Boolean);
  const name = `${seatName(inp.names, seat)}${seat === inp.viewer ? ' (you)' : ''}`;
  const factsText = `${team ? team.slice(3) + ' · ' : ''}${facts.join(' · ')}`;
  const mine = seat === inp.viewer;
  const sel = inp.selection;
  const schoolSig = JSON.stringify([
    b.entrance, b.dining, b.towers, b.tower_color, b.holds_towers, professorsOf(state, seat), state.options, mine,
    mine ? [sel.kind, sel.kind === 'student' ? [sel.color, sel.targets.dining !== null] : sel.kind === 'character' ? [sel.draft, [...sel.choices.swapA], [...sel.choices.swapB]] : null, inp.legal] : null,
  ]);
  reconcile(node, [
    { key: 'header', sig: JSON.stringify([name, factsText]), build: () => h('header', {}, h('strong', {}, name), h('span', { class: 'facts' }, factsText)) },
    { key: 'school', sig: schoolSig, build: () => drawSchool(inp, seat) },
  ]);
}

// --- characters and hand --------------------------------------------------------

function discsHtml(st: Students, onPick: ((c: Color) => void) | null, pickable: Set<Color>, chosen: Students): HTMLElement {
  const row = h('span', { class: 'discs' });
  for (const c of COLORS) {
    for (let i = 0; i < count(st, c); ++i) {
      const can = onPick !== null && pickable.has(c);
      const isChosen = i < count(chosen, c);
      row.append(
        h('button', {
          class: `disc st-${c} ${can ? 'pick' : ''} ${isChosen ? 'picked' : ''}`,
          'data-picked': isChosen ? 1 : undefined,
          title: c,
          disabled: !can,
          'aria-label': c,
          onclick: can && onPick ? () => onPick(c) : undefined,
        }),
      );
    }
  }
  return row;
}

export function drawCharacters(inp: BoardInput): HTMLElement | null {
  const { state } = inp;
  if (state.options.mode !== 'expert') return null;
  const usable = inp.selection.kind === 'none' ? usableCharacters(inp.legal) : new Set<string>();
  const sel = inp.selection;
  const wrap = h('div', { class: 'characters' });
  for (const card of state.characters) {
    const drafting = sel.kind === 'character' && sel.draft.character === card.id;
    const can = usable.has(card.id);
    let pickable = new Set<Color>();
    let chosen: Students = {};
    if (drafting && sel.kind === 'character') {
      if (card.id === 'jester') {
        pickable = sel.choices.swapA;
        chosen = sel.draft.swapA;
      } else if (card.id === 'monk' || card.id === 'princess') {
        pickable = sel.choices.colors;
        chosen = sel.draft.color ? { [sel.draft.color]: 1 } : {};
      }
    }
    const key = `character-${card.id}`;
    wrap.append(
      h(
        'div',
        {
          class: `card ${can ? 'target' : ''} ${drafting ? 'drafting' : ''} ${state.turn.active === card.id ? 'active' : ''} ${changedClass(inp, key)}`,
          'data-character': card.id,
          'data-cost': characterCost(card),
          title: helpText('eriantys', characterTopic(card.id)) ?? CHARACTER_HINTS[card.id] ?? '',
        },
        h(
          'button',
          { class: 'card-title', disabled: !can, onclick: can ? () => inp.onCharacter(card.id) : undefined },
          h('strong', {}, CHARACTER_TITLES[card.id] ?? card.id),
          h('span', { class: 'cost' }, ` ${characterCost(card)}`, h('span', { class: 'coin' }, '●'), card.used ? ' (coin on it)' : ''),
        ),
        total(card.students) > 0 ? discsHtml(card.students, drafting ? inp.onCardStudent : null, pickable, chosen) : null,
        card.id === 'grandma_herbs' ? h('span', { class: 'tiles' }, `No-Entry tiles: ${card.no_entry}`) : null,
        h('small', {}, CHARACTER_HINTS[card.id] ?? ''),
        cardHelp(helpText('eriantys', characterTopic(card.id)), characterTopic(card.id)),
      ),
    );
  }
  return wrap;
}

export function drawHand(inp: BoardInput): HTMLElement | null {
  const { state, viewer } = inp;
  if (viewer < 0) return null;
  const b = state.boards[viewer];
  if (!b) return null;
  const offered = inp.selection.kind === 'none' ? assistantValues(inp.legal) : new Set<number>();
  const wrap = h('div', { class: 'hand', 'aria-label': 'your assistants' });
  for (let v = 1; v <= 10; ++v) {
    const inHand = (b.hand & (1 << (v - 1))) !== 0;
    if (!inHand) continue;
    const can = offered.has(v);
    wrap.append(
      h(
        'button',
        { class: `assistant ${can ? 'target' : ''}`, disabled: !can, 'data-assistant': v, onclick: can ? () => inp.onAssistant(v) : undefined },
        h('strong', {}, v),
        h('small', {}, `MN ${motherNatureSteps(v)}`),
      ),
    );
  }
  return wrap;
}

export function characterParamsText(id: string): string {
  return characterParams(id).join(', ');
}
