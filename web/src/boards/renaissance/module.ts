// Masters of Renaissance's board module: the market, the development grid, Lorenzo and
// every personal board, with the choices a command needs more of (which warehouse to keep
// after the market, the slot of a bought card, a production's powers and outputs, the
// setup's leaders and resources) offered from the legal commands, and every other legal
// command in a filtered "more moves" list, so the player is never stuck.
import { cardHelp, helpFor, helpText, leaderTopic } from '../../help.js';
import type { Board, BoardHeader, BoardHost, BoardModule, MatchInfo } from '../board_module.js';
import { h, patchChildren } from '../../dom.js';
import { renderCommands } from '../fallback/module.js';
import { commandGroups, kOpenChoices } from '../fallback/describe.js';
import { drawGrid, drawLorenzo, drawMarket, drawPersonal, type DrawInput } from './board.js';
import { changedKeys } from './changes.js';
import {
  type LegalIndex,
  type ProduceDraft,
  amountsOf,
  buySlots,
  draftKey,
  indexLegal,
  layoutOf,
  layoutText,
  marketOptions,
  num,
  produceOf,
} from './legal.js';
import { type Colour, type Command, type Resource, type State, type View, RESOURCES, amountsText, card, deckTop, leader, leaderAbility, leaderName, slotTop } from './state.js';
import { REASONS, resignText, summaryText, turnText } from './status.js';

type Pending =
  | { kind: 'none' }
  | { kind: 'market'; key: string; all: boolean } // all: the options discarding more too
  | { kind: 'buy'; key: string }
  | { kind: 'produce'; draft: ProduceDraft }
  | { kind: 'arrange' };

const kMaxChoices = 30; // buttons drawn for one choice (the rest: "more moves")

function stateOf(view: unknown): State {
  return (view as View).state;
}

function createBoard(host: BoardHost): Board {
  let pending: Pending = { kind: 'none' };
  let picks: number[] = []; // setup: the dealt leaders picked so far
  let changed = new Set<string>();
  let flash: 'a' | 'b' = 'a'; // alternates: an element changed twice in a row flashes again
  let shown: State | null = null;
  let shownSeq = -1;
  let ix: LegalIndex = indexLegal([]);
  let indexed: Command[] | null = null;
  let moreOpen = false;
  let filter = '';
  const opened = new Set<string>();
  let drawnSig = '';
  let drawnView: unknown = null;
  let drawnLegal: unknown = null;
  let cur: { state: State; info: MatchInfo } | null = null;
  let parts: { actions: HTMLElement; mine: HTMLElement; table: HTMLElement; others: HTMLElement; more: HTMLElement } | null = null;

  const redraw = (): void => host.redraw();
  const play = (cmd: Command): void => {
    pending = { kind: 'none' };
    picks = [];
    host.play(cmd);
  };
  const cancel = (): HTMLElement => h('button', { 'data-cancel': 1, onclick: () => { pending = { kind: 'none' }; redraw(); } }, 'Cancel');

  const onLine = (key: string): void => {
    const c = cur;
    if (!c || c.info.mySeat === null) return;
    const cmds = ix.market.get(key) ?? [];
    const b = c.state.boards[c.info.mySeat]!;
    const options = marketOptions(b, c.state.market.tray, cmds);
    // Everything fits and there is nothing to choose about white marbles: take it at once.
    const whole = options.filter((o) => o.discarded === 0);
    if (whole.length === 1 && options.every((o) => !o.whites)) return play(whole[0]!.cmd);
    pending = { kind: 'market', key, all: false };
    redraw();
  };
  const onBuy = (key: string): void => {
    const [level, colour] = key.split(':');
    const cmds = buySlots(ix, Number(level), colour as Colour);
    if (cmds.length === 1) return play(cmds[0]!);
    pending = { kind: 'buy', key };
    redraw();
  };

  // --- the choices panel ----------------------------------------------------------------

  const setupPanel = (state: State, me: number): HTMLElement | null => {
    const b = state.boards[me]!;
    if (ix.chooseLeaders.length) {
      const pair = [...picks].sort((a, c) => a - c);
      const cmd = pair.length === 2 ? ix.chooseLeaders.find((c) => JSON.stringify(c['keep']) === JSON.stringify(pair)) : undefined;
      return h(
        'div',
        { class: 'ren-choice', 'data-choice': 'leaders' },
        h('p', {}, 'Choose the 2 leaders you keep:'),
        h(
          'div',
          { class: 'choice-list' },
          ...b.dealt.flatMap((id) => {
            const lc = leader(id);
            const on = picks.includes(id);
            // The full text (help L05): `title` for hover, a "?" beside the button for tap.
            const full = helpText('renaissance', leaderTopic(id));
            return [h(
              'button',
              {
                class: `leader-pick${on ? ' picked' : ''}`,
                'data-dealt': id,
                title: full ?? undefined,
                'aria-pressed': on ? 'true' : 'false',
                onclick: () => {
                  picks = on ? picks.filter((x) => x !== id) : [...picks, id].slice(-2);
                  redraw();
                },
              },
              lc ? `${leaderName(id)} · ${lc.vp} VP · ${leaderAbility(lc)} (needs ${lc.requirement})` : leaderName(id),
            ), cardHelp(full, leaderTopic(id))];
          }),
        ),
        h('button', { class: 'primary', 'data-keep': 1, disabled: !cmd, onclick: () => cmd && play(cmd) }, `Keep ${pair.map(leaderName).join(' and ') || 'these'}`),
      );
    }
    if (ix.initial.length) {
      return h(
        'div',
        { class: 'ren-choice', 'data-choice': 'initial' },
        h('p', {}, 'Choose your starting resources:'),
        h('div', { class: 'choice-list' }, ...ix.initial.map((cmd, i) => h('button', { 'data-initial': i, onclick: () => play(cmd) }, layoutText(layoutOf(cmd))))),
      );
    }
    return null;
  };

  const marketPanel = (state: State, me: number, key: string, all: boolean): HTMLElement => {
    const options = marketOptions(state.boards[me]!, state.market.tray, ix.market.get(key) ?? []);
    const [line, index] = key.split(':');
    // First the ways of discarding the least (usually one); the others on demand.
    const least = options[0]?.discarded ?? 0;
    const shown = all ? options.slice(0, kMaxChoices) : options.filter((o) => o.discarded === least);
    const more = options.length - shown.length;
    const whom = state.options.players === 1 ? "Lorenzo's black cross" : 'every other player';
    return h(
      'div',
      { class: 'ren-choice', 'data-choice': 'market' },
      h('p', {}, `Take ${line} ${Number(index) + 1}: choose what your warehouse keeps (each resource it leaves out is discarded and moves ${whom} 1 space):`),
      h(
        'div',
        { class: 'choice-list' },
        ...shown.map((o, i) =>
          h(
            'button',
            { class: i === 0 ? 'primary' : '', 'data-market-option': i, 'data-discarded': o.discarded, onclick: () => play(o.cmd) },
            `${o.whites ? `whites as ${o.whites}: ` : ''}keep ${layoutText(layoutOf(o.cmd))}${o.discarded ? `, discard ${amountsText(amountsOf(o.discards))}` : ''}`,
          ),
        ),
      ),
      !all && more > 0 ? h('button', { 'data-market-more': more, onclick: () => { pending = { kind: 'market', key, all: true }; redraw(); } }, `Keep less… (${more} more choices)`) : null,
      all && more > 0 ? h('p', { class: 'hint' }, `and ${more} more: see "More moves" below`) : null,
      ' ',
      cancel(),
    );
  };

  const buyPanel = (state: State, key: string): HTMLElement => {
    const [level, colour] = key.split(':');
    const me = cur?.info.mySeat ?? 0;
    const { id } = deckTop(state, Number(level), colour as Colour);
    const cmds = buySlots(ix, Number(level), colour as Colour);
    return h(
      'div',
      { class: 'ren-choice', 'data-choice': 'buy' },
      h('p', {}, `Buy D${id} (level ${level} ${colour}, ${amountsText(card(id)?.cost ?? {})}) into:`),
      h(
        'div',
        { class: 'choice-list' },
        ...cmds.map((cmd, i) => {
          const slot = num(cmd, 'slot');
          const under = slotTop(state.boards[me]!, slot).id;
          return h('button', { class: i === 0 ? 'primary' : '', 'data-buy-slot': slot, onclick: () => play(cmd) }, `slot ${slot + 1}${under ? ` (on D${under})` : ' (empty)'} · pays ${paymentText(cmd['payment'])}`);
        }),
      ),
      cancel(),
    );
  };

  const producePanel = (state: State, me: number, d: ProduceDraft): HTMLElement => {
    const b = state.boards[me]!;
    const set = (next: ProduceDraft): void => {
      pending = { kind: 'produce', draft: next };
      redraw();
    };
    const toggle = (on: boolean, attrs: Record<string, string | number>, label: string, fn: () => void): HTMLElement =>
      h('button', { class: on ? 'picked' : '', 'aria-pressed': on ? 'true' : 'false', ...attrs, onclick: fn }, label);
    const resPick = (attr: string, value: Resource, fn: (r: Resource) => void): HTMLElement[] =>
      RESOURCES.map((r) => toggle(r === value, { [attr]: r }, r, () => fn(r)));
    const rows: HTMLElement[] = [];
    for (const s of [0, 1, 2]) {
      const top = slotTop(b, s).id;
      if (!top) continue;
      const c = card(top)!;
      const on = d.slots.has(s);
      const label = `slot ${s + 1}: ${amountsText(c.input)} → ${amountsText(c.output)}`;
      // A power no listed production uses (its input is not there): shown, not offered.
      if (!ix.produceSlots.has(s)) {
        rows.push(h('div', { class: 'prod-row' }, h('button', { disabled: true, 'data-produce-slot': s, title: 'you do not have its input' }, `${label} (no input)`)));
        continue;
      }
      rows.push(h('div', { class: 'prod-row' }, toggle(on, { 'data-produce-slot': s }, label, () => {
        const slots = new Set(d.slots);
        if (on) slots.delete(s);
        else slots.add(s);
        set({ ...d, slots });
      })));
    }
    if (ix.produceBase) {
      const base = d.base;
      rows.push(
        h(
          'div',
          { class: 'prod-row' },
          toggle(base !== null, { 'data-produce-base': 1 }, 'base: 2 → 1', () => set({ ...d, base: base ? null : { inputs: ['coin', 'coin'], output: 'coin' } })),
          ...(base
            ? [
                h('span', {}, ' pay '),
                ...resPick('data-base-in0', base.inputs[0], (r) => set({ ...d, base: { ...base, inputs: [r, base.inputs[1]] } })),
                h('span', {}, ' and '),
                ...resPick('data-base-in1', base.inputs[1], (r) => set({ ...d, base: { ...base, inputs: [base.inputs[0], r] } })),
                h('span', {}, ' for '),
                ...resPick('data-base-out', base.output, (r) => set({ ...d, base: { ...base, output: r } })),
              ]
            : []),
        ),
      );
    }
    for (const id of ix.produceLeaders) {
      const lc = leader(id)!;
      const out = d.leaders.get(id);
      rows.push(
        h(
          'div',
          { class: 'prod-row' },
          toggle(out !== undefined, { 'data-produce-leader': id }, `${leaderName(id)}: 1 ${lc.resource} → 1 any + 1 faith`, () => {
            const leaders = new Map(d.leaders);
            if (out !== undefined) leaders.delete(id);
            else leaders.set(id, 'coin');
            set({ ...d, leaders });
          }),
          ...(out !== undefined ? [h('span', {}, ' for '), ...resPick(`data-leader-out-${id}`, out, (r) => set({ ...d, leaders: new Map(d.leaders).set(id, r) }))] : []),
        ),
      );
    }
    const cmd = ix.produce.get(draftKey(d));
    return h(
      'div',
      { class: 'ren-choice', 'data-choice': 'produce' },
      h('p', {}, 'Production: choose the powers to use (each at most once):'),
      ...rows,
      h('button', { class: 'primary', 'data-produce-send': 1, disabled: !cmd, onclick: () => cmd && play(cmd) }, cmd ? `Produce (pays ${paymentText(cmd['payment'])})` : 'Produce: not possible with these choices'),
      ' ',
      cancel(),
    );
  };

  const arrangePanel = (): HTMLElement =>
    h(
      'div',
      { class: 'ren-choice', 'data-choice': 'arrange' },
      h('p', {}, 'Arrange your warehouse:'),
      h('div', { class: 'choice-list' }, ...ix.arrange.slice(0, kMaxChoices).map((cmd, i) => h('button', { 'data-arrange': i, onclick: () => play(cmd) }, layoutText(layoutOf(cmd))))),
      cancel(),
    );

  const openProduce = (): void => {
    // The first listed production is the default draft (the simplest the server offers).
    const first = [...ix.produce.values()][0];
    if (!first) return;
    const p = produceOf(first);
    pending = {
      kind: 'produce',
      draft: {
        slots: new Set(p.slots),
        leaders: new Map(p.leaders.map((l) => [l.leader, l.output])),
        base: p.base ? { inputs: [p.base.inputs[0]!, p.base.inputs[1]!], output: p.base.output } : null,
      },
    };
    redraw();
  };

  const actionsPanel = (state: State, info: MatchInfo): Array<HTMLElement | null> => {
    const me = info.mySeat;
    if (me === null || !state.boards[me]) return [];
    if (info.legal.length === 0) return [];
    if (state.phase === 'setup') return [setupPanel(state, me)];
    if (pending.kind === 'market') return [marketPanel(state, me, pending.key, pending.all)];
    if (pending.kind === 'buy') return [buyPanel(state, pending.key)];
    if (pending.kind === 'produce') return [producePanel(state, me, pending.draft)];
    if (pending.kind === 'arrange') return [arrangePanel()];
    const main = !state.main_action_done;
    return [
      h(
        'div',
        { class: 'ren-choice', 'data-choice': 'turn' },
        h('p', {}, main ? 'Your main action: click a market arrow (a row or a column), a highlighted card to buy, or produce.' : 'Main action done: activate or discard a leader, arrange the warehouse, or end your turn.'),
        h(
          'div',
          { class: 'choice-list' },
          ix.produce.size ? h('button', { 'data-open': 'produce', onclick: openProduce }, 'Produce…') : null,
          ix.arrange.length > 1 ? h('button', { 'data-open': 'arrange', onclick: () => { pending = { kind: 'arrange' }; redraw(); } }, 'Arrange warehouse…') : null,
          ix.endTurn ? h('button', { class: 'primary', 'data-end-turn': 1, onclick: () => ix.endTurn && play(ix.endTurn) }, 'End turn') : null,
        ),
      ),
    ];
  };

  // Every legal command, as the fallback board lists them: what the board cannot express.
  const morePanel = (info: MatchInfo): HTMLElement[] => {
    if (!moreOpen) return [];
    const list = renderCommands(commandGroups(info.legal, filter, opened), (cmd) => play(cmd), !info.offline, (type, open) => {
      if (open === opened.has(type)) return;
      if (open) opened.add(type);
      else opened.delete(type);
      redraw();
    });
    const input = h('input', {
      type: 'search',
      class: 'fb-filter',
      'aria-label': 'filter the moves',
      placeholder: 'filter the moves (words of a button)',
      value: filter,
      oninput: (ev: Event) => {
        filter = (ev.currentTarget as HTMLInputElement).value;
        redraw();
      },
    });
    if (info.legal.length <= kOpenChoices && !filter) input.hidden = true;
    return [input, ...(list.length ? list : [h('p', { class: 'hint' }, 'No move matches.')])];
  };

  return {
    mount(el: HTMLElement): void {
      const actions = h('div', { class: 'ren-actions', 'aria-live': 'polite' });
      const mine = h('div', { class: 'ren-mine' });
      const table = h('div', { class: 'ren-table' });
      const others = h('div', { class: 'ren-others' });
      const more = h('div', { class: 'ren-more-body' });
      const details = h(
        'details',
        { class: 'ren-more', 'data-more-moves': 1, ontoggle: (ev: Event) => { const open = (ev.currentTarget as HTMLDetailsElement).open; if (open !== moreOpen) { moreOpen = open; redraw(); } } },
        h('summary', {}, 'More moves (every legal command)'),
        more,
      );
      if (moreOpen) details.setAttribute('open', '');
      el.append(
        h(
          'div',
          { class: 'ren-board', 'data-board': 'renaissance' },
          host.replay ? null : actions,
          h('div', { class: 'ren-layout' }, mine, table, others, h('section', { class: 'ren-log' }, h('h3', {}, 'Moves'), host.log), host.replay ? null : details),
        ),
      );
      parts = { actions, mine, table, others, more };
      drawnSig = '';
    },

    update(view: unknown, info: MatchInfo): void {
      const state = stateOf(view);
      if (host.replay || info.seq !== shownSeq) {
        changed = changedKeys(shown, state);
        flash = flash === 'a' ? 'b' : 'a';
        if (info.seq !== shownSeq) {
          pending = { kind: 'none' };
          if (state.phase !== 'setup') picks = [];
        }
        shown = state;
        shownSeq = info.seq;
      }
      if (info.legal !== indexed) {
        indexed = info.legal;
        ix = indexLegal(info.legal);
      }
      if (info.offline) pending = { kind: 'none' };
      cur = { state, info };
      const p = parts;
      if (!p) return;
      // A redraw that changes nothing drawn (a deadline's second) leaves the board alone.
      const sig = JSON.stringify([flash, pending.kind === 'produce' ? [[...pending.draft.slots], [...pending.draft.leaders], pending.draft.base] : pending, picks, info.offline, info.mySeat, moreOpen, filter, [...opened], info.names, helpFor('renaissance') !== null]);
      if (view === drawnView && info.legal === drawnLegal && sig === drawnSig) return;
      drawnView = view;
      drawnLegal = info.legal;
      drawnSig = sig;
      const me = info.mySeat ?? -1;
      const inp: DrawInput = {
        state,
        names: info.names,
        viewer: me,
        ix: host.replay || info.offline || me < 0 ? null : ix,
        changed,
        flash,
        pendingLine: pending.kind === 'market' ? pending.key : null,
        pendingBuy: pending.kind === 'buy' ? pending.key : null,
        onLine,
        onBuy,
        onActivate: (id) => {
          const c = ix.activate.get(id);
          if (c) play(c);
        },
        onDiscard: (id) => {
          const c = ix.discard.get(id);
          if (c) play(c);
        },
      };
      const n = state.options.players;
      if (!host.replay) {
        // A choice being made stays in sight (sticky at the top of the window): the arrow or
        // card clicked may be a screen below the panel on a phone.
        p.actions.classList.toggle('floating', pending.kind !== 'none' || state.phase === 'setup');
        patchChildren(p.actions, actionsPanel(state, info));
      }
      patchChildren(p.mine, me >= 0 && me < n ? [drawPersonal(inp, me)] : []);
      patchChildren(p.table, [drawMarket(inp), drawLorenzo(state), drawGrid(inp)]);
      const order = Array.from({ length: n }, (_, i) => (me < 0 ? i : (me + 1 + i) % n)).filter((x) => x !== me);
      patchChildren(p.others, order.map((seat) => drawPersonal(inp, seat)));
      if (!host.replay) patchChildren(p.more, morePanel(info));
    },

    header(view: unknown, info: MatchInfo): BoardHeader {
      const state = stateOf(view);
      const mine = info.mySeat !== null && info.toAct.includes(info.mySeat);
      const line = h('div', { class: `turn ${mine && !host.replay ? 'mine' : ''}`, 'data-turn': 1 }, turnText(state, info.names, host.replay ? -1 : (info.mySeat ?? -1), info.toAct));
      return { summary: host.replay ? '' : summaryText(state), lines: [line] };
    },

    resignQuestion(view: unknown): string {
      return resignText(stateOf(view).options.players);
    },
  };
}

// "2 coin from depot, 1 coin from strongbox"
function paymentText(p: unknown): string {
  if (!p || typeof p !== 'object') return 'warehouse first';
  const parts: string[] = [];
  for (const [r, src] of Object.entries(p as Record<string, Record<string, number>>)) {
    for (const [where, n] of Object.entries(src)) if (n > 0) parts.push(`${n} ${r} from ${where === 'leader' ? 'leader depot' : where}`);
  }
  return parts.length ? parts.join(', ') : 'nothing';
}

export const renaissanceBoard: BoardModule = {
  game: 'renaissance',
  create: createBoard,
  playersLabel: (n) => (n === 1 ? '1 player (solo against Lorenzo)' : `${n} players`),
  reasons: REASONS,
  // Solo: Lorenzo is no seat, so the shell alone would say "Nobody won".
  resultLine: (result, _me, resigned) => {
    if (result['lorenzo_won'] !== true) return null;
    const why = resigned ? `${resigned} resigned` : (REASONS[result.reason] ?? result.reason.replace(/_/g, ' '));
    return `Lorenzo won: ${why}.`;
  },
};
