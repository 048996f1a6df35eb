// The live game page: lobby, board and game-over screen over one Client. A thin
// shell: it turns clicks into the Client's requests and draws the model again.
import {
  type BoardInput,
  type Selection,
  drawCharacters,
  drawHand,
  newTable,
  patchBoards,
  patchTable,
  seatName,
} from './board.js';
import { reconcile } from './patch.js';
import type { LogLine } from './model.js';
import { changedKeys } from './changes.js';
import { addComputerRequest, canAddComputer, createMatchRequest, kLevels, lobbySeatsText, removeComputerRequest, seatsShown } from './computers.js';
import { Client, type SocketLike, kMaxRedirects } from './client.js';
import { clear, h, isFullRedraw, patchChildren, setFullRedraw } from './dom.js';
import { guardedRedraw } from './redraw.js';
import {
  characterParams,
  draftAdd,
  draftChoices,
  draftCommand,
  newDraft,
  studentTargets,
  towerChoices,
  usableCharacters,
  wizardChoices,
} from './legal.js';
import { type MatchModel, deadlineSeconds } from './model.js';
import { COLORS, type Color, type Command, type GameState, type MatchSummary, type Students, count } from './protocol.js';
import { deadlineText, orderText, resignText, resultText, roundText, turnText } from './status.js';
import { CHARACTER_TITLES } from './protocol.js';

const kNoticeMs = 8000; // how long an error stays on screen

function wsUrl(): string {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}/ws`;
}

// The move log: events only add lines at its end and the model drops the oldest
// past its limit, so a redraw appends the new lines and removes the dropped ones
// instead of walking hundreds of lines. Anything else (a first draw) rebuilds it.
function patchLog(log: HTMLElement, lines: LogLine[]): void {
  const first = lines[0]?.seq ?? Infinity;
  while (log.firstElementChild && (log.firstElementChild as HTMLLIElement).value < first) log.firstElementChild.remove();
  const last = log.lastElementChild ? (log.lastElementChild as HTMLLIElement).value : -1;
  let from = lines.length;
  while (from > 0 && lines[from - 1]!.seq > last) from -= 1;
  const fresh = lines.slice(from).map((l) => h('li', { value: l.seq }, l.text));
  if (isFullRedraw() || log.childElementCount + fresh.length !== lines.length || (from > 0 && (log.firstElementChild as HTMLLIElement).value !== first)) {
    clear(log);
    log.append(...lines.map((l) => h('li', { value: l.seq }, l.text)));
  } else if (fresh.length) log.append(...fresh);
}

export function startGame(root: HTMLElement): void {
  // `?redraw=full` rebuilds the whole page on every change, as the client did before
  // its in-place updates: the draw benchmark compares both on the same messages.
  setFullRedraw(new URLSearchParams(location.search).get('redraw') === 'full');
  let lastMessageAt: number | null = null;
  const client = new Client({
    open: (url) => {
      const ws = new WebSocket(url ?? wsUrl());
      // Registered before the client's onmessage, so it runs first: when the message
      // reached the page, for the "message to board drawn" figure.
      ws.addEventListener('message', () => (lastMessageAt = performance.now()));
      return ws as unknown as SocketLike;
    },
    now: () => Date.now(),
    setTimer: (fn, ms) => window.setTimeout(fn, ms),
    clearTimer: (t) => window.clearTimeout(t as number),
    tokens: window.localStorage,
    tab: window.sessionStorage,
    random: Math.random,
  });
  let selection: Selection = { kind: 'none' };
  const top = h('div', {}); // title, connection, notices, game over: rebuilt each time
  const screen = h('div', {}); // the lobby (kept) or the match (rebuilt)
  clear(root);
  root.append(top, screen);
  let changed = new Set<string>();
  let flash: 'a' | 'b' = 'a';
  let logAtEnd = true; // the move log was scrolled to its end before this draw
  let shownState: GameState | null = null;
  let shownSeq = -1;
  const perf = ((window as unknown as { eryantisPerf?: unknown[] }).eryantisPerf = [] as unknown[]);
  // Per event drawn: milliseconds from its WebSocket message to the board drawn
  // (JSON, the model's update, the DOM patch, style and layout; not paint).
  const livePerf = ((window as unknown as { eryantisLivePerf?: unknown[] }).eryantisLivePerf = [] as unknown[]);

  const names = (m: MatchModel): string[] => {
    const out = ['', '', '', ''];
    for (const s of m.seats) out[s.seat] = s.nickname ?? '';
    return out;
  };

  const play = (cmd: Command): void => {
    selection = { kind: 'none' };
    client.play(cmd);
    draw();
  };

  const reselectCharacter = (m: MatchModel, state: GameState, draft: ReturnType<typeof newDraft>): void => {
    const choices = draftChoices(m.legal, state, draft);
    const ready = draftCommand(m.legal, state, draft);
    const params = characterParams(draft.character);
    // Send as soon as nothing is left to choose (swaps wait for "use": 1 to 3 pairs).
    const swap = params.includes('from_card') || params.includes('from_dining');
    if (ready && !swap) return play(ready);
    selection = { kind: 'character', draft, choices, ready };
    draw();
  };

  // The match and state at the moment of a click: a kept (unchanged) element's
  // handler must not act on the state of the draw that built it.
  const now = (): { m: MatchModel; state: GameState } | null => {
    const m = client.model.match;
    return m && m.view ? { m, state: m.view.state } : null;
  };

  const boardInput = (m: MatchModel, state: GameState): BoardInput => ({
    state,
    names: names(m),
    viewer: m.mySeat ?? -1,
    legal: m.legal,
    selection,
    changed,
    flash,
    onStudent: (color: Color) => {
      const c = now();
      if (!c) return;
      if (selection.kind === 'character') {
        const side = selection.draft.character === 'minstrel' ? 'A' : 'B';
        return reselectCharacter(c.m, c.state, draftAdd(selection.draft, side, color));
      }
      if (selection.kind === 'student' && selection.color === color) selection = { kind: 'none' };
      else selection = { kind: 'student', color, targets: studentTargets(c.m.legal, c.state, color) };
      draw();
    },
    onDining: () => {
      if (selection.kind === 'student' && selection.targets.dining) play(selection.targets.dining);
    },
    onGroup: (g: number) => {
      const c = now();
      if (!c) return;
      if (selection.kind === 'student') {
        const cmd = selection.targets.islands.get(g);
        if (cmd) play(cmd);
        return;
      }
      if (selection.kind === 'character') return reselectCharacter(c.m, c.state, { ...selection.draft, group: g });
      const cmd = c.m.legal.find((x) => x.type === 'move_mother_nature' && (c.state.mother_nature + (x['steps'] as number)) % c.state.group_count === g);
      if (cmd) play(cmd);
    },
    onCloud: (i: number) => {
      const cmd = now()?.m.legal.find((x) => x.type === 'choose_cloud' && x['cloud'] === i);
      if (cmd) play(cmd);
    },
    onAssistant: (v: number) => {
      const cmd = now()?.m.legal.find((x) => x.type === 'play_assistant' && x['value'] === v);
      if (cmd) play(cmd);
    },
    onCharacter: (id: string) => {
      const c = now();
      if (c) reselectCharacter(c.m, c.state, newDraft(id));
    },
    onCardStudent: (color: Color) => {
      const c = now();
      if (!c || selection.kind !== 'character') return;
      const d = selection.draft;
      if (d.character === 'jester') return reselectCharacter(c.m, c.state, draftAdd(d, 'A', color));
      return reselectCharacter(c.m, c.state, { ...d, color });
    },
    onDiningStudent: (color: Color) => {
      const c = now();
      if (c && selection.kind === 'character') reselectCharacter(c.m, c.state, draftAdd(selection.draft, 'B', color));
    },
  });

  // --- screens -----------------------------------------------------------------

  const connectionBar = (): HTMLElement | null => {
    const r = client.redirecting;
    if (r && client.connection !== 'waiting') {
      const doing = client.connection === 'open' ? 'joining it at' : 'connecting to';
      return h('div', { class: 'banner', 'data-redirect': r.hop }, `Match #${r.match} is on another server: ${doing} ${r.to} (redirect ${r.hop} of ${kMaxRedirects}).`);
    }
    if (client.connection === 'open') return null;
    if (client.replaced) {
      return h('div', { class: 'banner warn' }, 'This nickname is now playing from another tab or device. ', h('button', { onclick: () => client.reconnectNow() }, 'Play here instead'));
    }
    const wait = client.retryAt ? Math.max(0, Math.ceil((client.retryAt - Date.now()) / 1000)) : 0;
    // The board does not take clicks meanwhile (nothing would reach the server).
    const paused = client.model.match ? ' The board is paused until the connection is back.' : '';
    return h(
      'div',
      { class: 'banner warn', 'data-connection': client.connection },
      client.connection === 'connecting' ? `Connecting to the server…${paused}` : `Connection lost; trying again in ${wait} s.${paused} `,
      client.connection === 'waiting' ? h('button', { onclick: () => client.reconnectNow() }, 'Try now') : null,
    );
  };

  const notices = (): HTMLElement => {
    const list = h('div', { class: 'notices', 'aria-live': 'polite' });
    const now = Date.now();
    for (const n of client.model.notices) {
      if (now - n.at > kNoticeMs) continue;
      list.append(h('div', { class: 'notice', 'data-code': n.code }, n.text));
    }
    return list;
  };

  // The lobby's forms are built once and kept: a redraw (the list refreshes every
  // 2 s) must not wipe what is being typed or chosen.
  const nicknameInput = h('input', { name: 'nickname', maxlength: 24, pattern: '[A-Za-z0-9_.\\-]{1,24}', required: true, value: window.localStorage.getItem('eryantis.lastNickname') ?? '', placeholder: 'nickname', autocomplete: 'nickname' }) as HTMLInputElement;
  const loginForm = h(
    'form',
    {
      class: 'login',
      onsubmit: (ev: Event) => {
        ev.preventDefault();
        const nick = nicknameInput.value.trim();
        if (!nick) return;
        window.localStorage.setItem('eryantis.lastNickname', nick);
        client.login(nick);
      },
    },
    h('h2', {}, 'Play Eryantis'),
    h('label', {}, 'Nickname ', nicknameInput),
    h('button', { type: 'submit' }, 'Log in'),
    h('p', { class: 'hint' }, 'Letters, digits, _ - . (up to 24). Or watch a match below without logging in.'),
  );
  const playersSelect = h('select', { name: 'players' }, h('option', { value: 2 }, '2 players'), h('option', { value: 3 }, '3 players'), h('option', { value: 4 }, '4 players (teams)')) as HTMLSelectElement;
  const modeSelect = h('select', { name: 'mode' }, h('option', { value: 'expert' }, 'expert'), h('option', { value: 'simple' }, 'simple')) as HTMLSelectElement;
  const computersSelect = h('select', { name: 'computers' }, h('option', { value: 0 }, 'no computer'), h('option', { value: 1 }, '1 computer'), h('option', { value: 2 }, '2 computers'), h('option', { value: 3 }, '3 computers')) as HTMLSelectElement;
  const levelSelect = h('select', { name: 'level' }, ...kLevels.map((l) => h('option', { value: l }, l))) as HTMLSelectElement;
  const whoName = h('strong', {});
  const createForm = h(
    'div',
    {},
    h('div', { class: 'who' }, 'Logged in as ', whoName, ' ', h('button', { class: 'link', onclick: () => client.logout() }, 'change')),
    h(
      'form',
      {
        class: 'create',
        onsubmit: (ev: Event) => {
          ev.preventDefault();
          client.request(createMatchRequest(Number(playersSelect.value), modeSelect.value, Number(computersSelect.value), levelSelect.value));
        },
      },
      playersSelect,
      modeSelect,
      computersSelect,
      levelSelect,
      h('button', { type: 'submit', 'data-create': 1 }, 'Create match'),
      h('button', { type: 'button', 'data-quick-join': 1, onclick: () => client.request({ type: 'quick_join', players: Number(playersSelect.value), mode: modeSelect.value }) }, 'Quick join'),
    ),
  );
  const authSlot = h('div', {});
  const listSlot = h('div', {});
  const lobbyEl = h('section', { class: 'lobby' }, authSlot, listSlot);

  const matchRow = (ms: MatchSummary, open: boolean): HTMLElement => {
    const loggedIn = client.model.loggedIn;
    const free = ms.seats.filter((s) => s.nickname === null);
    const seatButtons = open && loggedIn
      ? free.map((s) =>
          h('button', { 'data-join': ms.match, 'data-seat': s.seat, onclick: () => client.request({ type: 'join_match', match: ms.match, seat: s.seat }) },
            ms.players === 4 ? `Join seat ${s.seat} (team ${s.seat % 2 === 0 ? 'A' : 'B'})` : `Join seat ${s.seat}`),
        )
      : [];
    return h(
      'li',
      { 'data-match': ms.match },
      h('span', { class: 'match-id' }, `#${ms.match}`),
      ` ${ms.players} players, ${ms.mode} · ${ms.status}${ms.round ? `, round ${ms.round}` : ''} · `,
      lobbySeatsText(ms),
      ' ',
      ...seatButtons,
      h('button', { 'data-spectate': ms.match, onclick: () => client.spectate(ms.match) }, 'Watch'),
    );
  };

  const lobby = (): HTMLElement => {
    const m = client.model;
    const auth = m.loggedIn ? createForm : loginForm;
    if (authSlot.firstChild !== auth) {
      clear(authSlot);
      authSlot.append(auth);
    }
    if (whoName.textContent !== (m.nickname ?? '')) whoName.textContent = m.nickname ?? '';
    patchChildren(listSlot, [
      h('h3', {}, 'Open matches'),
      m.open.length ? h('ul', { class: 'matches open' }, ...m.open.map((x) => matchRow(x, true))) : h('p', { class: 'hint' }, 'None yet: create one.'),
      h('h3', {}, 'Being played'),
      m.running.length ? h('ul', { class: 'matches running' }, ...m.running.map((x) => matchRow(x, false))) : h('p', { class: 'hint' }, 'None.'),
    ]);
    return lobbyEl;
  };

  const setupPanel = (m: MatchModel): HTMLElement | null => {
    const wizards = wizardChoices(m.legal);
    const towers = towerChoices(m.legal);
    if (!wizards.length && !towers.length) return null;
    // While seats are still being filled the panel stays in the flow: floating, it would
    // cover the seat list's "Add a computer" and "remove".
    return h(
      'div',
      { class: `setup ${m.status === 'lobby' ? 'in-flow' : ''}` },
      wizards.length ? h('span', {}, 'Choose a wizard: ', ...wizards.map((w) => h('button', { 'data-wizard': w, onclick: () => play({ type: 'choose_wizard', wizard: w }) }, `Wizard ${w}`))) : null,
      towers.length ? h('span', {}, ' Choose your towers: ', ...towers.map((t) => h('button', { class: `tw-btn tw-${t}`, 'data-tower': t, onclick: () => play({ type: 'choose_tower_color', color: t }) }, t))) : null,
    );
  };

  const picksText = (st: Students): string => COLORS.flatMap((c) => Array<string>(count(st, c)).fill(c)).join(', ');

  const selectionBar = (m: MatchModel, state: GameState): HTMLElement | null => {
    if (selection.kind === 'none') return null;
    const cancel = h('button', { onclick: () => { selection = { kind: 'none' }; draw(); } }, 'Cancel');
    if (selection.kind === 'student') {
      return h('div', { class: 'selection' }, `Move the ${selection.color} student: click your dining room or a highlighted island. `, cancel);
    }
    const d = selection.draft;
    const title = CHARACTER_TITLES[d.character] ?? d.character;
    const parts: Array<HTMLElement | string> = [`${title}: `];
    const params = characterParams(d.character);
    if (params.includes('color') && d.color === undefined) {
      parts.push('choose a colour ', ...[...selection.choices.colors].map((c) => h('button', { class: `disc st-${c} pick`, 'data-color': c, 'aria-label': c, onclick: () => reselectCharacter(m, state, { ...d, color: c }) })));
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

  const seatsBar = (m: MatchModel): HTMLElement => {
    const list = h('div', { class: 'seats' });
    for (const s of seatsShown(m)) {
      list.append(
        h(
          'span',
          { class: `seat ${s.online ? 'online' : 'offline'} ${s.computer ? 'computer' : ''}`, 'data-seat-status': s.seat, 'data-computer': s.computer ?? undefined },
          s.text,
          s.removable ? h('button', { class: 'link', 'data-remove-computer': s.seat, onclick: () => client.request(removeComputerRequest(s.seat)) }, 'remove') : null,
        ),
      );
    }
    // Waiting for players: the creator may give a free seat to the computer (the server says who may).
    if (canAddComputer(m)) {
      list.append(
        h(
          'span',
          { class: 'add-computer' },
          // The level is read from the select on screen when clicked: redraws morph it in
          // place, so the choice survives them.
          h('button', { 'data-add-computer': 1, onclick: (ev: Event) => client.request(addComputerRequest(((ev.currentTarget as Element).parentElement?.querySelector('select[name=add-level]') as HTMLSelectElement | null)?.value ?? kLevels[0])) }, 'Add a computer'),
          ' ',
          h('select', { name: 'add-level', 'aria-label': 'computer level' }, ...kLevels.map((l) => h('option', { value: l }, l))),
        ),
      );
    }
    const secs = deadlineSeconds(m, Date.now());
    const waiting = m.status === 'lobby' && m.seats.some((x) => x.nickname === null);
    if (m.deadline && secs !== null) list.append(h('span', { class: 'deadline', 'data-deadline': m.deadline.action }, deadlineText(m.deadline, secs, waiting)));
    return list;
  };

  // The match screen's frame is kept for the match; its parts are patched in place.
  let frame: {
    match: number;
    root: HTMLElement;
    header: HTMLElement;
    bars: HTMLElement;
    table: SVGElement;
    chars: HTMLElement;
    hand: HTMLElement;
    mine: HTMLElement;
    boards: HTMLElement;
    log: HTMLElement;
  } | null = null;

  const matchScreen = (m: MatchModel): HTMLElement => {
    const state = m.view!.state;
    const inp = boardInput(m, state);
    const nm = names(m);
    const mine = m.mySeat !== null && m.toAct.includes(m.mySeat);
    if (!frame || frame.match !== m.match) {
      const header = h('header', { class: 'status' });
      const bars = h('div', {});
      const table = newTable();
      const chars = h('div', {});
      const hand = h('div', {});
      // Your own board first after the islands (on a phone the side column comes below
      // them), then your hand, the characters and the others' boards.
      const mine = h('div', { class: 'boards mine-board' });
      const boards = h('div', { class: 'boards' });
      const log = h('ol', { class: 'log', 'aria-label': 'move log' });
      const root = h(
        'div',
        {},
        header,
        bars,
        h('div', { class: 'play-area' }, h('div', { class: 'table-wrap' }, table), h('div', { class: 'side' }, mine, hand, chars, boards, h('h3', {}, 'Moves'), log)),
      );
      frame = { match: m.match, root, header, bars, table, chars, hand, mine, boards, log };
    }
    const f = frame;
    // Disconnected: nothing clicked would reach the server, so nothing can be clicked
    // (the banner says why) until the connection is back.
    const offline = client.connection !== 'open';
    const rootClass = `match ${mine ? 'my-turn' : ''} ${offline ? 'offline' : ''}`;
    if (f.root.className !== rootClass) f.root.className = rootClass;
    if (f.root.hasAttribute('inert') !== offline) f.root.toggleAttribute('inert', offline);
    f.root.dataset['match'] = String(m.match);
    f.root.dataset['seq'] = String(m.seq);
    f.root.dataset['seat'] = String(m.mySeat ?? -1);
    const leave = m.status === 'lobby' || m.mySeat === null
      ? h('button', { 'data-leave': 1, onclick: () => client.leave() }, m.mySeat === null ? 'Stop watching' : 'Leave')
      : h('button', { 'data-resign': 1, onclick: () => { if (window.confirm(resignText(state.options.players, names(m), m.mySeat ?? 0))) play({ type: 'resign' }); } }, 'Resign');
    patchChildren(f.header, [
      h('div', {}, h('strong', {}, `Match #${m.match}`), ` · ${state.options.players} players, ${state.options.mode} · ${roundText(state)}`, ' ', leave),
      h('div', { class: `turn ${mine ? 'mine' : ''}`, 'data-turn': 1 }, turnText(state, nm, m.mySeat ?? -1, m.toAct, usableCharacters(m.legal).size > 0)),
      orderText(state, nm) ? h('div', { class: 'order' }, `Turn order: ${orderText(state, nm)}`) : '',
      seatsBar(m),
    ]);
    patchChildren(f.bars, [setupPanel(m), selectionBar(m, state)]);
    patchTable(f.table, inp);
    const selSig = JSON.stringify([selection.kind, selection.kind === 'character' ? [selection.draft, [...selection.choices.colors], [...selection.choices.swapA]] : null]);
    const charKeys = state.characters.map((k) => changed.has(`character-${k.id}`) && flash);
    reconcile(f.chars, [{ key: 'characters', sig: JSON.stringify([state.characters, state.turn.active, m.legal, selSig, charKeys]), build: () => drawCharacters(inp) ?? h('div', {}) }]);
    const handBoard = m.mySeat !== null ? state.boards[m.mySeat]?.hand : null;
    reconcile(f.hand, [{ key: 'hand', sig: JSON.stringify([handBoard, m.legal, selection.kind]), build: () => drawHand(inp) ?? h('div', {}) }]);
    // Yours, then the others from the seat after yours around the table.
    const n = state.options.players;
    const me = m.mySeat;
    patchBoards(f.mine, inp, me === null ? [] : [me]);
    patchBoards(f.boards, inp, Array.from({ length: n }, (_, i) => (me === null ? i : (me + 1 + i) % n)).filter((x) => x !== me));
    const logCount = f.log.childElementCount;
    patchLog(f.log, m.log);
    if (logAtEnd && f.log.childElementCount !== logCount) queueMicrotask(() => (f.log.scrollTop = f.log.scrollHeight));
    return f.root;
  };

  const gameOverScreen = (): HTMLElement | null => {
    const g = client.model.gameOver;
    if (!g) return null;
    return h(
      'div',
      { class: 'overlay', 'data-game-over': g.match },
      h(
        'div',
        { class: 'dialog' },
        h('h2', {}, 'Game over'),
        h('p', { 'data-result': 1 }, resultText(g.result, client.model.nickname, g.resigned)),
        h('button', { class: 'primary', 'data-play-again': 1, onclick: () => client.playAgain(), disabled: !client.model.loggedIn }, 'Play again'),
        ' ',
        h('button', { onclick: () => client.closeGameOver() }, 'Back to the lobby'),
      ),
    );
  };

  // --- drawing ---------------------------------------------------------------------

  function draw(): void {
    const t0 = performance.now();
    // Layout is read before anything is written (a read after a write would force a
    // second layout within the draw).
    if (frame) logAtEnd = frame.log.scrollTop + frame.log.clientHeight >= frame.log.scrollHeight - 4;
    if (isFullRedraw()) frame = null;
    const m = client.model.match;
    const state = m?.view?.state ?? null;
    const newEvent = Boolean(m && state && m.seq !== shownSeq && m.seq === shownSeq + 1 && lastMessageAt !== null);
    if (client.connection !== 'open' && selection.kind !== 'none') selection = { kind: 'none' };
    if (m && state && m.seq !== shownSeq) {
      changed = m.match === (root.dataset['shownMatch'] ? Number(root.dataset['shownMatch']) : -1) ? changedKeys(shownState, state) : new Set();
      if (selection.kind !== 'none') selection = { kind: 'none' }; // the choices were for the old state
      flash = flash === 'a' ? 'b' : 'a';
      shownState = state;
      shownSeq = m.seq;
      root.dataset['shownMatch'] = String(m.match);
    }
    patchChildren(top, [h('h1', { class: 'brand' }, 'Eryantis'), connectionBar(), notices(), gameOverScreen()]);
    document.body.classList.toggle('in-match', Boolean(m && state));
    if (m && state) {
      const el = matchScreen(m);
      if (screen.firstChild !== el) {
        clear(screen);
        screen.append(el);
      }
    } else {
      frame = null;
      const l = lobby();
      if (screen.firstChild !== l) {
        clear(screen);
        screen.append(l);
      }
    }
    void root.offsetHeight; // style and layout included in the figure (paint is not)
    const ms = performance.now() - t0;
    if (m && state) {
      const w = window as unknown as { eryantisFirstBoardMs?: number };
      // Milliseconds from the start of the page load to the first board on screen.
      if (w.eryantisFirstBoardMs === undefined) w.eryantisFirstBoardMs = performance.now();
      perf.push({ seq: m.seq, ms });
      if (perf.length > 1000) perf.shift();
      if (newEvent && lastMessageAt !== null) {
        livePerf.push({ seq: m.seq, ms: performance.now() - lastMessageAt, players: state.options.players });
        if (livePerf.length > 1000) livePerf.shift();
      }
      root.dataset['drawnSeq'] = String(m.seq);
    }
  }

  const requestDraw = guardedRedraw(draw);
  client.onChange(() => requestDraw());
  // Countdowns and fading notices each second. The lobby's list is pushed by the
  // server (watch_lobby); a server without the push is asked every 2 s.
  let tick = 0;
  window.setInterval(() => {
    const m = client.model;
    tick += 1;
    if (!m.match && m.lobbyPush === 'poll' && client.connection === 'open' && tick % 2 === 0) client.request({ type: 'list_matches' });
    const noticeShown = m.notices.some((n) => Date.now() - n.at < kNoticeMs + 1000);
    if (m.match?.deadline || noticeShown || client.connection !== 'open') requestDraw();
  }, 1000);
  client.start();
  draw();
}
