// Eriantys's board module: the islands and clouds, the characters, the hand and the
// school boards, the setup choices and the multi-click selections (a student to move,
// a character's parameters), all drawn in place from the view and the legal commands.
import { helpFor } from '../../help.js';
import type { Board, BoardHeader, BoardHost, BoardModule, MatchInfo } from '../board_module.js';
import { h, patchChildren } from '../../dom.js';
import { reconcile } from '../../patch.js';
import { type BoardInput, type Selection, drawCharacters, drawHand, newTable, patchBoards, patchTable } from './board.js';
import { changedKeys } from './changes.js';
import {
  characterParams,
  draftAdd,
  draftChoices,
  draftCommand,
  fallbackLegal,
  newDraft,
  studentTargets,
  towerChoices,
  usableCharacters,
  wizardChoices,
} from './legal.js';
import { CHARACTER_TITLES, COLORS, type Color, type Command, type GameState, type Students, type View, count } from './state.js';
import { REASONS, orderText, resignText, roundText, turnText } from './status.js';

function stateOf(view: unknown): GameState {
  return (view as View).state;
}

function createBoard(host: BoardHost): Board {
  let selection: Selection = { kind: 'none' };
  let changed = new Set<string>();
  let flash: 'a' | 'b' = 'a';
  let shown: GameState | null = null;
  let shownSeq = -1;
  // The last drawn position: a kept element's handler acts on the state of the click,
  // not of the draw that built it.
  let cur: { state: GameState; info: MatchInfo } | null = null;
  let parts: {
    bars: HTMLElement;
    table: SVGElement;
    chars: HTMLElement;
    hand: HTMLElement;
    mine: HTMLElement;
    boards: HTMLElement;
  } | null = null;

  const play = (cmd: Command): void => {
    selection = { kind: 'none' };
    host.play(cmd); // the shell draws again
  };
  const redraw = (): void => host.redraw();

  const reselectCharacter = (legal: Command[], state: GameState, draft: ReturnType<typeof newDraft>): void => {
    const choices = draftChoices(legal, state, draft);
    const ready = draftCommand(legal, state, draft);
    const params = characterParams(draft.character);
    // Send as soon as nothing is left to choose (swaps wait for "use": 1 to 3 pairs).
    const swap = params.includes('from_card') || params.includes('from_dining');
    if (ready && !swap) return play(ready);
    selection = { kind: 'character', draft, choices, ready };
    redraw();
  };

  const boardInput = (state: GameState, info: MatchInfo): BoardInput => ({
    state,
    names: info.names,
    viewer: info.mySeat ?? -1,
    legal: info.legal,
    selection,
    changed,
    flash,
    onStudent: (color: Color) => {
      const c = cur;
      if (!c) return;
      if (selection.kind === 'character') {
        const side = selection.draft.character === 'minstrel' ? 'A' : 'B';
        return reselectCharacter(c.info.legal, c.state, draftAdd(selection.draft, side, color));
      }
      if (selection.kind === 'student' && selection.color === color) selection = { kind: 'none' };
      else selection = { kind: 'student', color, targets: studentTargets(c.info.legal, c.state, color) };
      redraw();
    },
    onDining: () => {
      if (selection.kind === 'student' && selection.targets.dining) play(selection.targets.dining);
    },
    onGroup: (g: number) => {
      const c = cur;
      if (!c) return;
      if (selection.kind === 'student') {
        const cmd = selection.targets.islands.get(g);
        if (cmd) play(cmd);
        return;
      }
      if (selection.kind === 'character') return reselectCharacter(c.info.legal, c.state, { ...selection.draft, group: g });
      const cmd = c.info.legal.find((x) => x.type === 'move_mother_nature' && (c.state.mother_nature + (x['steps'] as number)) % c.state.group_count === g);
      if (cmd) play(cmd);
    },
    onCloud: (i: number) => {
      const cmd = cur?.info.legal.find((x) => x.type === 'choose_cloud' && x['cloud'] === i);
      if (cmd) play(cmd);
    },
    onAssistant: (v: number) => {
      const cmd = cur?.info.legal.find((x) => x.type === 'play_assistant' && x['value'] === v);
      if (cmd) play(cmd);
    },
    onCharacter: (id: string) => {
      const c = cur;
      if (c) reselectCharacter(c.info.legal, c.state, newDraft(id));
    },
    onCardStudent: (color: Color) => {
      const c = cur;
      if (!c || selection.kind !== 'character') return;
      const d = selection.draft;
      if (d.character === 'jester') return reselectCharacter(c.info.legal, c.state, draftAdd(d, 'A', color));
      return reselectCharacter(c.info.legal, c.state, { ...d, color });
    },
    onDiningStudent: (color: Color) => {
      const c = cur;
      if (c && selection.kind === 'character') reselectCharacter(c.info.legal, c.state, draftAdd(selection.draft, 'B', color));
    },
  });

  const setupPanel = (info: MatchInfo): HTMLElement | null => {
    const wizards = wizardChoices(info.legal);
    const towers = towerChoices(info.legal);
    if (!wizards.length && !towers.length) return null;
    // While seats are still being filled the panel stays in the flow: floating, it would
    // cover the seat list's "Add a computer" and "remove".
    return h(
      'div',
      { class: `setup ${info.status === 'lobby' ? 'in-flow' : ''}` },
      wizards.length ? h('span', {}, 'Choose a wizard: ', ...wizards.map((w) => h('button', { 'data-wizard': w, onclick: () => play({ type: 'choose_wizard', wizard: w }) }, `Wizard ${w}`))) : null,
      towers.length ? h('span', {}, ' Choose your towers: ', ...towers.map((t) => h('button', { class: `tw-btn tw-${t}`, 'data-tower': t, onclick: () => play({ type: 'choose_tower_color', color: t }) }, t))) : null,
    );
  };

  const picksText = (st: Students): string => COLORS.flatMap((c) => Array<string>(count(st, c)).fill(c)).join(', ');

  const selectionBar = (info: MatchInfo, state: GameState): HTMLElement | null => {
    if (selection.kind === 'none') return null;
    const cancel = h('button', { onclick: () => { selection = { kind: 'none' }; redraw(); } }, 'Cancel');
    if (selection.kind === 'student') {
      return h('div', { class: 'selection' }, `Move the ${selection.color} student: click your dining room or a highlighted island. `, cancel);
    }
    const d = selection.draft;
    const title = CHARACTER_TITLES[d.character] ?? d.character;
    const parts: Array<HTMLElement | string> = [`${title}: `];
    const params = characterParams(d.character);
    if (params.includes('color') && d.color === undefined) {
      parts.push('choose a colour ', ...[...selection.choices.colors].map((c) => h('button', { class: `disc st-${c} pick`, 'data-color': c, 'aria-label': c, onclick: () => reselectCharacter(info.legal, state, { ...d, color: c }) })));
    } else if (params.includes('card_color') && d.color === undefined) parts.push('click a student on the card');
    else if (params.includes('island') && d.group === undefined) parts.push('click a highlighted island');
    else if (d.character === 'jester' || d.character === 'minstrel') {
      const [a, b] = d.character === 'jester' ? ['the card', 'your entrance'] : ['your entrance', 'your dining room'];
      parts.push(`click students on ${a}, then as many in ${b} `);
      // What is picked so far, in words (the board marks the same students).
      parts.push(h('span', { class: 'picks', 'data-picks': `${picksText(d.swapA)}|${picksText(d.swapB)}` }, `(${a}: ${picksText(d.swapA) || 'none yet'} ⇄ ${b}: ${picksText(d.swapB) || 'none yet'})`));
    }
    if (selection.ready) parts.push(' ', h('button', { class: 'primary', 'data-use': d.character, onclick: () => selection.kind === 'character' && selection.ready && play(selection.ready) }, `Use the ${title}`));
    return h('div', { class: 'selection' }, ...parts, ' ', cancel);
  };

  return {
    mount(el: HTMLElement): void {
      const bars = h('div', {});
      const table = newTable();
      const chars = h('div', {});
      const hand = h('div', {});
      // Your own board first after the islands (on a phone the side column comes below
      // them), then your hand, the characters and the others' boards.
      const mine = h('div', { class: 'boards mine-board' });
      const boards = h('div', { class: 'boards' });
      const side = host.replay ? h('div', { class: 'side' }, chars, boards, h('h3', {}, 'Moves'), host.log) : h('div', { class: 'side' }, mine, hand, chars, boards, h('h3', {}, 'Moves'), host.log);
      if (!host.replay) el.append(bars);
      el.append(h('div', { class: 'play-area' }, h('div', { class: 'table-wrap' }, table), side));
      parts = { bars, table, chars, hand, mine, boards };
    },

    update(view: unknown, info: MatchInfo): void {
      const state = stateOf(view);
      // The replay viewer highlights what changed from the position drawn before; a live
      // page what the last event changed (kept until the next one).
      if (host.replay || info.seq !== shownSeq) {
        changed = changedKeys(shown, state);
        if (selection.kind !== 'none' && info.seq !== shownSeq) selection = { kind: 'none' }; // the choices were for the old state
        flash = flash === 'a' ? 'b' : 'a';
        shown = state;
        shownSeq = info.seq;
      }
      if (info.offline && selection.kind !== 'none') selection = { kind: 'none' };
      cur = { state, info };
      const p = parts;
      if (!p) return;
      const inp = boardInput(state, info);
      patchTable(p.table, inp);
      if (host.replay) {
        const charKeys = state.characters.map((k) => changed.has(`character-${k.id}`) && flash);
        reconcile(p.chars, [{ key: 'characters', sig: JSON.stringify([state.options.mode, state.characters, state.turn.active, charKeys, helpFor('eriantys') !== null]), build: () => drawCharacters(inp) ?? h('div', {}) }]);
        patchBoards(p.boards, inp);
        return;
      }
      patchChildren(p.bars, [setupPanel(info), selectionBar(info, state)]);
      const selSig = JSON.stringify([selection.kind, selection.kind === 'character' ? [selection.draft, [...selection.choices.colors], [...selection.choices.swapA]] : null]);
      const charKeys = state.characters.map((k) => changed.has(`character-${k.id}`) && flash);
      reconcile(p.chars, [{ key: 'characters', sig: JSON.stringify([state.characters, state.turn.active, info.legal, selSig, charKeys, helpFor('eriantys') !== null]), build: () => drawCharacters(inp) ?? h('div', {}) }]);
      const handBoard = info.mySeat !== null ? state.boards[info.mySeat]?.hand : null;
      reconcile(p.hand, [{ key: 'hand', sig: JSON.stringify([handBoard, info.legal, selection.kind]), build: () => drawHand(inp) ?? h('div', {}) }]);
      // Yours, then the others from the seat after yours around the table.
      const n = state.options.players;
      const me = info.mySeat;
      patchBoards(p.mine, inp, me === null ? [] : [me]);
      patchBoards(p.boards, inp, Array.from({ length: n }, (_, i) => (me === null ? i : (me + 1 + i) % n)).filter((x) => x !== me));
    },

    header(view: unknown, info: MatchInfo): BoardHeader {
      const state = stateOf(view);
      const viewer = info.mySeat ?? -1;
      if (host.replay) {
        const order = orderText(state, info.names);
        return {
          summary: '',
          lines: [h('div', { class: 'turn', 'data-turn': 1 }, `${roundText(state)} · ${turnText(state, info.names, -1, info.toAct)}`), h('div', { class: 'order' }, order ? `Turn order: ${order}` : '')],
        };
      }
      const mine = info.mySeat !== null && info.toAct.includes(info.mySeat);
      return {
        summary: `${state.options.players} players, ${state.options.mode} · ${roundText(state)}`,
        lines: [
          h('div', { class: `turn ${mine ? 'mine' : ''}`, 'data-turn': 1 }, turnText(state, info.names, viewer, info.toAct, usableCharacters(info.legal).size > 0)),
          orderText(state, info.names) ? h('div', { class: 'order' }, `Turn order: ${orderText(state, info.names)}`) : '',
        ],
      };
    },

    resignQuestion(view: unknown, info: MatchInfo): string {
      return resignText(stateOf(view).options.players, info.names, info.mySeat ?? 0);
    },
  };
}

export const eriantysBoard: BoardModule = {
  game: 'eriantys',
  create: createBoard,
  options: [{ name: 'mode', label: 'mode', values: ['expert', 'simple'] }],
  playersLabel: (n) => (n === 4 ? '4 players (teams)' : `${n} players`),
  seatTeam: (seat, players) => (players === 4 ? `team ${seat % 2 === 0 ? 'A' : 'B'}` : null),
  reasons: REASONS,
  legacyLegal: (view, seat, allowed) => {
    const state = (view as View | null)?.state;
    return state ? fallbackLegal(state, seat, allowed) : [];
  },
};
