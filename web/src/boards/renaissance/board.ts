// The board in HTML: the market tray, the development grid, Lorenzo (solo) and every
// personal board (faith track, favour tiles, depots, strongbox, slots, leaders). Drawn
// from the view and the index of the legal commands; every drawn thing carries its facts
// in data-* attributes (read by the browser tests, never by the app).
import { cardHelp, helpText, leaderTopic } from '../../help.js';
import { h } from '../../dom.js';
import { type LegalIndex, buySlots } from './legal.js';
import {
  type Board,
  type Marble,
  type State,
  COLOURS,
  RESOURCES,
  SECTIONS,
  amountsText,
  card,
  deckTop,
  leader,
  leaderAbility,
  leaderName,
  pointsText,
  seatName,
  slotTop,
} from './state.js';

export interface DrawInput {
  state: State;
  names: string[];
  viewer: number; // -1: a spectator or the replay viewer
  ix: LegalIndex | null; // null: nothing is clickable (another's turn, offline, replay)
  changed: Set<string>;
  flash: 'a' | 'b';
  pendingLine: string | null; // "row:1" while its choices are open
  pendingBuy: string | null; // "level:colour"
  onLine(key: string): void;
  onBuy(key: string): void;
  onActivate(id: number): void;
  onDiscard(id: number): void;
}

const MARBLE_TITLE: Record<Marble, string> = { white: 'white marble', blue: 'blue marble (shield)', grey: 'grey marble (stone)', yellow: 'yellow marble (coin)', purple: 'purple marble (servant)', red: 'red marble (faith)' };

function marble(m: Marble, extra: Record<string, string | number> = {}): HTMLElement {
  return h('span', { class: `marble mb-${m}`, title: MARBLE_TITLE[m], 'aria-label': MARBLE_TITLE[m], 'data-marble': m, ...extra });
}

function changedClass(inp: DrawInput, key: string): string {
  return inp.changed.has(key) ? ` changed flash-${inp.flash}` : '';
}

// The tray with an arrow under each column and beside each row: a click takes that line.
export function drawMarket(inp: DrawInput): HTMLElement {
  const { tray, slide } = inp.state.market;
  const arrow = (line: 'row' | 'column', index: number): HTMLElement => {
    const key = `${line}:${index}`;
    const ok = (inp.ix?.market.get(key)?.length ?? 0) > 0;
    const label = `take ${line} ${index + 1}`;
    return h(
      'button',
      { class: `mk-arrow${inp.pendingLine === key ? ' chosen' : ''}`, 'data-line': line, 'data-index': index, disabled: !ok, 'aria-label': label, title: label, onclick: ok ? () => inp.onLine(key) : undefined },
      line === 'row' ? '◀' : '▲',
    );
  };
  const cells: HTMLElement[] = [];
  for (let r = 0; r < 3; ++r) {
    for (let c = 0; c < 4; ++c) {
      const picked = inp.pendingLine === `row:${r}` || inp.pendingLine === `column:${c}`;
      cells.push(h('div', { class: `mk-cell${picked ? ' picked' : ''}` }, marble(tray[r * 4 + c]!, { 'data-row': r, 'data-column': c })));
    }
    cells.push(arrow('row', r));
  }
  for (let c = 0; c < 4; ++c) cells.push(arrow('column', c));
  cells.push(h('div', { class: 'mk-slide', title: 'the slide marble' }, marble(slide, { 'data-slide': 1 })));
  return h('section', { class: `ren-market${changedClass(inp, 'market')}`, 'aria-label': 'the market' }, h('h3', {}, 'Market'), h('div', { class: 'mk-tray' }, ...cells));
}

export function cardBody(id: number): Array<HTMLElement | string> {
  const c = card(id);
  if (!c) return [h('span', { class: 'muted' }, '—')];
  return [
    h('div', { class: 'dc-head' }, h('strong', {}, `D${String(id).padStart(2, '0')}`), h('span', { class: 'vp' }, `${c.vp} VP`)),
    h('div', { class: 'dc-cost' }, `cost ${amountsText(c.cost)}`),
    h('div', { class: 'dc-prod' }, `${amountsText(c.input)} → ${amountsText(c.output)}`),
  ];
}

// The 12 decks, level 3 on top: each top card with its cost, production, points and the
// number left; a card the player may buy is a button.
export function drawGrid(inp: DrawInput): HTMLElement {
  const rows: HTMLElement[] = [];
  for (let level = 3; level >= 1; --level) {
    for (const colour of COLOURS) {
      const { id, left } = deckTop(inp.state, level, colour);
      const key = `${level}:${colour}`;
      const buyable = inp.ix ? buySlots(inp.ix, level, colour).length > 0 : false;
      const attrs = {
        class: `dev-card dc-${colour}${buyable ? ' target' : ''}${inp.pendingBuy === key ? ' chosen' : ''}`,
        'data-deck': key,
        'data-card': id,
        'data-left': left,
        'data-buy': buyable ? key : null,
        'aria-label': id ? `level ${level} ${colour} D${id}, ${left} left${buyable ? ': buy' : ''}` : `level ${level} ${colour}: empty`,
      };
      const body = [...cardBody(id), h('div', { class: 'dc-left' }, `${left} left`)];
      rows.push(buyable ? h('button', { ...attrs, onclick: () => inp.onBuy(key) }, ...body) : h('div', attrs, ...body));
    }
  }
  return h('section', { class: `ren-grid${changedClass(inp, 'grid')}`, 'aria-label': 'development cards' }, h('h3', {}, 'Development cards'), h('div', { class: 'dev-grid' }, ...rows));
}

export function drawLorenzo(state: State): HTMLElement | null {
  if (state.options.players !== 1) return null;
  const l = state.lorenzo;
  const TOKENS = ['', '2 green cards leave the grid', '2 blue cards leave', '2 yellow cards leave', '2 purple cards leave', 'black cross +2', 'black cross +2', 'black cross +1, shuffle'];
  return h(
    'section',
    { class: 'ren-lorenzo', 'data-lorenzo': 1, 'data-cross': l.cross, 'aria-label': 'Lorenzo' },
    h('h3', {}, 'Lorenzo il Magnifico'),
    h('div', {}, `Black cross on ${l.cross} of 24`),
    h('div', { 'data-last-token': l.last_token }, l.last_token ? `Last token T${l.last_token}: ${TOKENS[l.last_token]}` : 'No token revealed yet'),
  );
}

function faithTrack(b: Board, cross: number | null): HTMLElement {
  const cells: HTMLElement[] = [];
  for (let i = 0; i <= 24; ++i) {
    const section = SECTIONS.findIndex((s) => i >= s.first && i <= s.pope);
    const pope = SECTIONS.some((s) => s.pope === i);
    const marks = [b.faith === i ? h('span', { class: 'ft-marker', title: 'faith marker' }, '●') : null, cross === i ? h('span', { class: 'ft-cross', title: 'Lorenzo\'s black cross' }, '✝') : null];
    cells.push(h('div', { class: `ft-cell${section >= 0 ? ` ft-s${section + 1}` : ''}${pope ? ' ft-pope' : ''}`, title: `space ${i}` }, ...marks));
  }
  const tiles = b.tiles.map((t, i) =>
    h('span', { class: `tile-fav ${t}`, 'data-tile': i, 'data-tile-state': t, title: `favour tile ${i + 1} (${SECTIONS[i]!.vp} VP): ${t.replace('_', ' ')}` }, t === 'face_up' ? `${SECTIONS[i]!.vp}` : t === 'discarded' ? '✕' : '?'),
  );
  return h(
    'div',
    { class: 'faith', 'data-faith': b.faith, ...(cross !== null ? { 'data-cross': cross } : {}) },
    h('div', { class: 'ft-label' }, `Faith ${b.faith}${cross !== null ? ` · black cross ${cross}` : ''} · favour `, ...tiles),
    h('div', { class: 'ft-track', 'aria-hidden': 'true' }, ...cells),
  );
}

function depots(b: Board): HTMLElement {
  const rows = b.depots.map((d, i) => {
    const cap = i + 1;
    const cells = Array.from({ length: cap }, (_, k) => h('span', { class: `res-cell${k < d.count && d.type ? ` res-${d.type}` : ''}` }, k < d.count && d.type ? d.type.slice(0, 2) : ''));
    return h('div', { class: 'depot', 'data-depot': i, 'data-type': d.type ?? '', 'data-count': d.count, title: `depot ${i + 1} (capacity ${cap})` }, ...cells);
  });
  for (const l of b.leaders) {
    const lc = leader(l.id);
    if (l.status !== 'active' || lc?.kind !== 'extra_depot') continue;
    const cells = Array.from({ length: 2 }, (_, k) => h('span', { class: `res-cell${k < l.stored ? ` res-${lc.resource}` : ' res-ghost'}` }, k < l.stored ? lc.resource.slice(0, 2) : ''));
    rows.push(h('div', { class: 'depot leader-depot', 'data-leader-depot': l.id, 'data-count': l.stored, title: `${leaderName(l.id)}'s depot (2 ${lc.resource})` }, `${leaderName(l.id)} `, ...cells));
  }
  return h('div', { class: 'depots' }, h('div', { class: 'pb-label' }, 'Warehouse'), ...rows);
}

function strongbox(b: Board): HTMLElement {
  return h(
    'div',
    { class: 'strongbox', 'data-strongbox': RESOURCES.map((r) => b.strongbox[r] ?? 0).join(',') },
    h('div', { class: 'pb-label' }, 'Strongbox'),
    ...RESOURCES.map((r) => h('div', { class: `sb-row res-text-${r}` }, `${b.strongbox[r] ?? 0} ${r}`)),
  );
}

function slots(b: Board): HTMLElement {
  return h(
    'div',
    { class: 'dev-slots' },
    ...[0, 1, 2].map((s) => {
      const { id, depth } = slotTop(b, s);
      const colour = card(id)?.colour ?? 'none';
      return h('div', { class: `dev-slot dc-${colour}`, 'data-slot': s, 'data-top': id, 'data-depth': depth }, h('div', { class: 'pb-label' }, `Slot ${s + 1} · ${depth} card${depth === 1 ? '' : 's'}`), ...(id ? cardBody(id) : [h('span', { class: 'muted' }, 'empty')]));
    }),
  );
}

function leaders(inp: DrawInput, seat: number, b: Board): HTMLElement {
  const mine = seat === inp.viewer;
  const list = b.leaders.map((l, i) => {
    const lc = leader(l.id);
    const acts: HTMLElement[] = [];
    if (mine && inp.ix) {
      if (inp.ix.activate.has(l.id)) acts.push(h('button', { class: 'primary', 'data-activate': l.id, onclick: () => inp.onActivate(l.id) }, 'Activate'));
      if (inp.ix.discard.has(l.id)) acts.push(h('button', { 'data-discard': l.id, onclick: () => inp.onDiscard(l.id) }, 'Discard (+1 faith)'));
    }
    // The full text of a known leader (help L05), for hover (`title`) and tap ("?").
    const full = lc ? helpText('renaissance', leaderTopic(l.id)) : null;
    const text = lc ? `${leaderName(l.id)} · ${lc.vp} VP · ${leaderAbility(lc)}` : l.status === 'discarded' ? 'a discarded leader' : 'a hidden leader';
    return h(
      'div',
      { class: `leader ${l.status}${lc ? ` lk-${lc.kind}` : ' hidden'}`, 'data-leader': l.id, 'data-status': l.status, 'data-index': i, title: full ?? undefined },
      h('div', {}, text, ' ', h('small', {}, `(${l.status === 'hand' ? 'in hand' : l.status})`)),
      lc && l.status === 'hand' ? h('small', {}, `needs ${lc.requirement}`) : null,
      acts.length ? h('div', { class: 'acts' }, ...acts) : null,
      lc ? cardHelp(full, leaderTopic(l.id)) : null,
    );
  });
  return h('div', { class: 'leaders' }, h('div', { class: 'pb-label' }, 'Leaders'), ...(b.leaders_chosen || b.leaders.some((l) => l.id) ? list : [h('span', { class: 'muted' }, 'not chosen yet')]));
}

// One seat's personal board.
export function drawPersonal(inp: DrawInput, seat: number): HTMLElement {
  const { state } = inp;
  const b = state.boards[seat]!;
  const acting = state.phase === 'play' && state.current === seat;
  const solo = state.options.players === 1;
  const vp = b.points.total; // the server's scoring (protocol.md 4), never the client's
  return h(
    'section',
    { class: `pboard${seat === inp.viewer ? ' mine' : ''}${acting ? ' acting' : ''}${changedClass(inp, `board-${seat}`)}`, 'data-seat': seat, 'data-vp': vp, 'aria-label': `${seatName(inp.names, seat)}'s board` },
    h('header', {}, h('strong', {}, seat === inp.viewer ? `${seatName(inp.names, seat)} (you)` : seatName(inp.names, seat)), h('span', { class: 'facts', title: pointsText(b.points) }, `${vp} VP now${state.inkwell === seat ? ' · inkwell' : ''}${acting ? ' · to play' : ''}`)),
    faithTrack(b, solo ? state.lorenzo.cross : null),
    h('div', { class: 'pb-row' }, depots(b), strongbox(b)),
    slots(b),
    leaders(inp, seat, b),
  );
}
