// The live game page, the shell of every game: login, lobby, connection, presence,
// deadlines, the move log and the game-over screen over one Client. The board of
// the match on screen is its game's board module (src/boards/), chosen by the
// match's `game`; the shell turns clicks into the Client's requests and draws again.
import type { Board, BoardModule, MatchInfo } from './boards/board_module.js';
import { boardModuleFor, forcedBoard, legacyLegal } from './boards/registry.js';
import type { LogLine } from './model.js';
import type { ChatLine } from './protocol.js';
import { leaderboardHref, profileHref } from './standings.js';
import { addComputerRequest, canAddComputer, createMatchRequest, kLevels, lobbySeatsText, quickJoinRequest, removeComputerRequest, seatsShown } from './computers.js';
import { Client, type SocketLike, kMaxRedirects } from './client.js';
import { clear, h, isFullRedraw, patchChildren, setFullRedraw } from './dom.js';
import { inviteLink, parseJoinLink } from './invite.js';
import { guardedRedraw } from './redraw.js';
import { helpFor, rulesContents } from './help.js';
import { type MatchModel, clockLeft, clockShownUntimed, clockText, deadlineSeconds, offered } from './model.js';
import type { Command, GameInfo, MatchResult, MatchSummary } from './protocol.js';
import { deadlineText, resultDetails, resultText } from './status.js';

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

// The chat: lines are added at its end, and only an operator's delete removes one, so
// a redraw appends the new lines, and anything else rebuilds the list. Every text is
// put in as a text node (h's string children): a message is never read as markup.
function patchChat(list: HTMLElement, lines: ChatLine[]): void {
  const shown = Array.from(list.children, (li) => Number((li as HTMLElement).dataset['message']));
  const prefix = shown.length <= lines.length && shown.every((id, i) => lines[i]!.message === id);
  const line = (c: ChatLine): HTMLElement =>
    h('li', { 'data-message': c.message, title: new Date(c.time).toLocaleTimeString() }, h('span', { class: 'chat-from' }, c.from), ': ', h('span', { class: 'chat-text' }, c.text));
  if (isFullRedraw() || !prefix) {
    clear(list);
    list.append(...lines.map(line));
  } else if (lines.length > shown.length) list.append(...lines.slice(shown.length).map(line));
}

export function startGame(root: HTMLElement): void {
  // `?redraw=full` rebuilds the whole page on every change, as the client did before
  // its in-place updates: the draw benchmark compares both on the same messages.
  setFullRedraw(new URLSearchParams(location.search).get('redraw') === 'full');
  // `?board=fallback` draws every game with the generic board (a debugging aid).
  const forced = forcedBoard(location.search);
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
    legacyLegal,
    // The account routes set and clear the HttpOnly session cookie (docs/accounts.md).
    post: (path, body) =>
      fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin' }).then(
        (r) => r.status,
        () => 0,
      ),
  });
  const top = h('div', {}); // title, connection, notices, game over: rebuilt each time
  const screen = h('div', {}); // the lobby (kept) or the match (rebuilt)
  clear(root);
  root.append(top, screen);
  let logAtEnd = true; // the move log was scrolled to its end before this draw
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

  const matchInfo = (m: MatchModel): MatchInfo => ({
    ...offered(m),
    match: m.match,
    game: m.game ?? '',
    title: gameTitle(m.game) || 'the game',
    seq: m.seq,
    status: m.status,
    seats: m.seats,
    names: names(m),
    mySeat: m.mySeat,
    offline: client.connection !== 'open',
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
  // An account (docs/accounts.md): a name and a password; its seats come back on any
  // device. The session is an HttpOnly cookie this page cannot read.
  const accountName = h('input', { name: 'account', maxlength: 24, required: true, placeholder: 'name', autocomplete: 'username' }) as HTMLInputElement;
  const accountPassword = h('input', { name: 'password', type: 'password', required: true, placeholder: 'password', autocomplete: 'current-password' }) as HTMLInputElement;
  const accountSubmit = (kind: 'login' | 'register') => (ev: Event) => {
    ev.preventDefault();
    if (!(accountForm as HTMLFormElement).reportValidity()) return;
    const name = accountName.value.trim();
    const password = accountPassword.value;
    accountPassword.value = '';
    client.accountLogin(kind, name, password);
  };
  const accountForm = h(
    'form',
    { class: 'account', 'data-account-form': 1, onsubmit: accountSubmit('login') },
    h('h2', {}, 'Or use an account'),
    h('label', {}, 'Name ', accountName),
    h('label', {}, 'Password ', accountPassword),
    h('button', { type: 'submit', 'data-account-login': 1 }, 'Log in'),
    ' ',
    h('button', { type: 'button', 'data-account-register': 1, onclick: accountSubmit('register') }, 'Register'),
    h('p', { class: 'hint' }, 'Your matches follow you to every browser and to eryantis-cli. Passwords have at least 8 characters.'),
  );
  const loginForms = h('div', {}, loginForm, accountForm);
  // The create form: the game (from `welcome`'s games), then its player counts and
  // options (from its board module); rebuilt when another game is chosen.
  const gameSelect = h('select', { name: 'game', 'aria-label': 'game', onchange: () => fillGameFields() }) as HTMLSelectElement;
  const playersSelect = h('select', { name: 'players', 'aria-label': 'players', onchange: () => syncTakeover() }) as HTMLSelectElement;
  const optionsSlot = h('span', { class: 'game-options' });
  const computersSelect = h('select', { name: 'computers' }, h('option', { value: 0 }, 'no computer'), h('option', { value: 1 }, '1 computer'), h('option', { value: 2 }, '2 computers'), h('option', { value: 3 }, '3 computers')) as HTMLSelectElement;
  const levelSelect = h('select', { name: 'level' }, ...kLevels.map((l) => h('option', { value: l }, l))) as HTMLSelectElement;
  // A private match: never listed in the lobby; friends join it by its invite link.
  const privateBox = h('input', { type: 'checkbox', name: 'private' }) as HTMLInputElement;
  // 3 or 4 players: a computer may take the seat of a player who leaves the started match.
  const takeoverSelect = h(
    'select',
    { name: 'takeover', 'aria-label': 'if a player leaves', title: 'If a player leaves the started match (3 or 4 players): a computer takes the seat and the others play on' },
    h('option', { value: '' }, 'if a player leaves: the seat waits'),
    ...kLevels.map((l) => h('option', { value: l }, `if a player leaves: a computer takes the seat (${l})`)),
  ) as HTMLSelectElement;
  // Clocks for everyone: a time control for the match, and what a seat out of time gets.
  const clockSelect = h(
    'select',
    { name: 'clock', 'aria-label': 'clock', title: 'A clock for each seat (docs: protocol.md, Clocks)', onchange: () => syncClock() },
    ...[['none', 'no clock'], ['15s', 'clock 15 s (ultrabullet)'], ['3+2', 'clock 3+2'], ['10+5', 'clock 10+5'], ['15m', 'clock 15 min'], ['30m+10s', 'clock 30+10'], ['24h/turn', 'clock 24 h a turn']].map(([v, t]) => h('option', { value: v }, t)),
  ) as HTMLSelectElement;
  const onTimeoutSelect = h(
    'select',
    { name: 'on_timeout', 'aria-label': 'out of time' },
    h('option', { value: 'skip' }, 'out of time: turn skipped'),
    h('option', { value: 'computer' }, 'out of time: a computer plays'),
    h('option', { value: 'forfeit' }, 'out of time: forfeit'),
  ) as HTMLSelectElement;
  const syncClock = (): void => {
    onTimeoutSelect.hidden = clockSelect.value === 'none';
  };
  syncClock();
  const syncTakeover = (): void => {
    takeoverSelect.hidden = Number(playersSelect.value) < 3;
  };
  let formGames = ''; // the games the form was built for
  let formGame = ''; // the game its fields are for
  const games = (): GameInfo[] => client.model.games;
  const chosenGame = (): GameInfo | null => games().find((g) => g.name === gameSelect.value) ?? null;
  const gameTitle = (name: string | undefined | null): string => games().find((g) => g.name === name)?.title ?? name ?? '';
  function fillGameFields(): void {
    const info = chosenGame();
    const module = boardModuleFor(info?.name ?? null);
    formGame = info?.name ?? '';
    const min = info?.min_players ?? 2;
    const max = info?.max_players ?? 4;
    const keep = playersSelect.value;
    clear(playersSelect);
    for (let n = min; n <= max; ++n) playersSelect.append(h('option', { value: n }, module.playersLabel?.(n) ?? `${n} players`));
    if ([...playersSelect.options].some((o) => o.value === keep)) playersSelect.value = keep;
    else if (min <= 2 && max >= 2) playersSelect.value = '2';
    syncTakeover();
    clear(optionsSlot);
    for (const o of module.options ?? []) {
      optionsSlot.append(h('select', { name: o.name, 'aria-label': o.label, 'data-option': o.name }, ...o.values.map((v) => h('option', { value: v }, v))));
    }
  }
  const syncGameSelect = (): void => {
    const list = games();
    const sig = JSON.stringify(list);
    if (sig === formGames && (formGame === gameSelect.value || !list.length)) return;
    formGames = sig;
    const keep = gameSelect.value;
    clear(gameSelect);
    for (const g of list) gameSelect.append(h('option', { value: g.name }, g.title ?? g.name));
    if (list.some((g) => g.name === keep)) gameSelect.value = keep;
    // An older server names no games: no choice, its own game.
    gameSelect.hidden = list.length === 0;
    fillGameFields();
  };
  fillGameFields();
  const chosenOptions = (): { mode: string; options: Record<string, string> } => {
    const options: Record<string, string> = {};
    let mode = '';
    for (const sel of Array.from(optionsSlot.querySelectorAll('select')) as HTMLSelectElement[]) {
      if (sel.name === 'mode') mode = sel.value;
      else options[sel.name] = sel.value;
    }
    return { mode, options };
  };
  const whoName = h('strong', {});
  // A guest changes nickname; an account logs out here or everywhere.
  const guestControls = h('span', {}, h('button', { class: 'link', onclick: () => client.logout() }, 'change'));
  const accountControls = h(
    'span',
    {},
    '(account) ',
    h('button', { class: 'link', 'data-logout': 1, onclick: () => client.accountLogout(false) }, 'log out'),
    ' · ',
    h('button', { class: 'link', 'data-logout-all': 1, onclick: () => client.accountLogout(true) }, 'log out everywhere'),
  );
  const whoControls = h('span', {});
  const createForm = h(
    'div',
    {},
    h('div', { class: 'who' }, 'Logged in as ', whoName, ' ', whoControls),
    h(
      'form',
      {
        class: 'create',
        onsubmit: (ev: Event) => {
          ev.preventDefault();
          const { mode, options } = chosenOptions();
          client.request(createMatchRequest(Number(playersSelect.value), mode, Number(computersSelect.value), levelSelect.value, chosenGame()?.name, options, privateBox.checked, takeoverSelect.hidden ? '' : takeoverSelect.value, clockSelect.value, onTimeoutSelect.value));
        },
      },
      gameSelect,
      playersSelect,
      optionsSlot,
      computersSelect,
      levelSelect,
      h('label', { class: 'private', title: 'Not listed in the lobby: friends join with the invite link' }, privateBox, ' private'),
      takeoverSelect,
      clockSelect,
      onTimeoutSelect,
      h('button', { type: 'submit', 'data-create': 1 }, 'Create match'),
      h('button', { type: 'button', 'data-quick-join': 1, onclick: () => client.request(quickJoinRequest(Number(playersSelect.value), chosenOptions().mode, chosenGame()?.name)) }, 'Quick join'),
    ),
  );
  const authSlot = h('div', {});
  const listSlot = h('div', {});
  const lobbyEl = h('section', { class: 'lobby' }, authSlot, listSlot);

  const teamOf = (ms: MatchSummary, seat: number): string | null => boardModuleFor(ms.game ?? null).seatTeam?.(seat, ms.players) ?? null;

  const matchRow = (ms: MatchSummary, open: boolean): HTMLElement => {
    const loggedIn = client.model.loggedIn;
    const free = ms.seats.filter((s) => s.nickname === null);
    const seatButtons = open && loggedIn
      ? free.map((s) =>
          h('button', { 'data-join': ms.match, 'data-seat': s.seat, onclick: () => client.request({ type: 'join_match', match: ms.match, seat: s.seat }) },
            teamOf(ms, s.seat) ? `Join seat ${s.seat} (${teamOf(ms, s.seat)})` : `Join seat ${s.seat}`),
        )
      : [];
    return h(
      'li',
      { 'data-match': ms.match },
      h('span', { class: 'match-id' }, `#${ms.match}`),
      ms.game ? h('span', { class: 'match-game', 'data-game': ms.game }, ` ${gameTitle(ms.game)} ·`) : null,
      ` ${ms.players} players${ms.mode ? `, ${ms.mode}` : ''}${ms.takeover ? `, a ${ms.takeover} computer takes a leaver's seat` : ''}${ms.clock ? `, clock ${ms.clock.control}` : ''} · ${ms.status}${ms.round ? `, round ${ms.round}` : ''} · `,
      lobbySeatsText(ms),
      ' ',
      ...seatButtons,
      h('button', { 'data-spectate': ms.match, onclick: () => client.spectate(ms.match) }, 'Watch'),
    );
  };

  const lobby = (): HTMLElement => {
    const m = client.model;
    const auth = m.loggedIn ? createForm : loginForms;
    const controls = client.account ? accountControls : guestControls;
    if (whoControls.firstChild !== controls) {
      clear(whoControls);
      whoControls.append(controls);
    }
    if (authSlot.firstChild !== auth) {
      clear(authSlot);
      authSlot.append(auth);
    }
    if (whoName.textContent !== (m.nickname ?? '')) whoName.textContent = m.nickname ?? '';
    syncGameSelect();
    patchChildren(listSlot, [
      h('p', { class: 'standings-links' }, h('a', { href: leaderboardHref(), 'data-nav': 'leaderboard' }, 'Leaderboard'), m.nickname ? ' · ' : null, m.nickname ? h('a', { href: profileHref(m.nickname), 'data-nav': 'profile' }, 'Your matches and ratings') : null),
      h('h3', {}, 'Open matches'),
      m.open.length ? h('ul', { class: 'matches open' }, ...m.open.map((x) => matchRow(x, true))) : h('p', { class: 'hint' }, 'None yet: create one.'),
      h('h3', {}, 'Being played'),
      m.running.length ? h('ul', { class: 'matches running' }, ...m.running.map((x) => matchRow(x, false))) : h('p', { class: 'hint' }, 'None.'),
    ]);
    return lobbyEl;
  };

  // The clipboard needs a secure context (127.0.0.1 and https are; a LAN address over
  // http is not): there the link stays on screen, selected, to copy by hand.
  const copyInvite = (link: string): void => {
    const select = (): void => {
      const el = document.querySelector('[data-invite-link]');
      if (el) window.getSelection()?.selectAllChildren(el);
    };
    if (navigator.clipboard) navigator.clipboard.writeText(link).catch(select);
    else select();
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
    // A private match whose code this page knows (its creator's, or the link it came
    // with): the link to share, a button that copies it, and one that replaces it.
    const code = m.mySeat !== null ? client.inviteCode(m.match) : null;
    if (code) {
      const link = inviteLink(location.origin, m.match, code);
      list.append(
        h(
          'span',
          { class: 'invite' },
          h('button', { 'data-copy-invite': 1, onclick: () => copyInvite(link) }, 'Copy invite link'),
          ' ',
          h('code', { 'data-invite-link': link }, link),
          ' ',
          h('button', { class: 'link', 'data-revoke-invite': 1, title: 'The old link stops working', onclick: () => client.request({ type: 'revoke_invite' }) }, 'new link'),
        ),
      );
    }
    const secs = deadlineSeconds(m, Date.now());
    const waiting = m.status === 'lobby' && m.seats.some((x) => x.nickname === null);
    if (m.deadline && secs !== null) list.append(h('span', { class: 'deadline', 'data-deadline': m.deadline.action }, deadlineText(m.deadline, secs, waiting)));
    return list;
  };

  // A clocked match (docs/protocol.md, "Clocks"): every seat's clock, the running one
  // counted down here from the last message (redrawn every second while one runs).
  const clocksBar = (m: MatchModel): HTMLElement => {
    const now = Date.now();
    const bar = h('div', { class: 'clocks', 'data-clock-control': m.clock?.control ?? '', title: `Clock ${m.clock?.control ?? ''}; out of time: ${m.clock?.on_timeout ?? ''}` }, `⏱ ${m.clock?.control ?? ''} `);
    m.seats.forEach((seat, i) => {
      const c = clockLeft(m, i, now);
      if (!c) return;
      const untimed = clockShownUntimed(m.clocks?.seats[i], seat.computer != null);
      const text = untimed ? '—' : `${clockText(c.left)}${c.delay > 0 ? ` +${Math.ceil(c.delay / 1000)}s` : ''}`;
      bar.append(
        h('span', { class: `clock${c.running ? ' running' : ''}${c.left === 0 && !untimed ? ' out' : ''}`, 'data-clock': i, 'data-running': c.running ? 1 : 0, 'data-left-ms': c.left }, `${seat.nickname ?? `seat ${i}`} ${text}`),
        ' ',
      );
    });
    return bar;
  };

  // The match screen's frame is kept for the match; the shell patches its header and
  // the board module draws the rest.
  let frame: {
    match: number;
    module: BoardModule;
    board: Board;
    root: HTMLElement;
    header: HTMLElement;
    body: HTMLElement;
    log: HTMLElement;
    rules: HTMLElement; // the rules panel (help.ts)
    chat: HTMLElement; // the chat panel: its list of lines and the form to write one
    chatLines: HTMLElement;
  } | null = null;

  // The chat of my channel: the players' for a seat, the spectators' when watching.
  const chatPanel = (): { chat: HTMLElement; chatLines: HTMLElement } => {
    const chatLines = h('ol', { class: 'chat-lines', 'aria-label': 'chat', 'aria-live': 'polite' });
    const input = h('input', { name: 'chat', maxlength: 500, autocomplete: 'off', placeholder: 'Say something…' }) as HTMLInputElement;
    const form = h(
      'form',
      {
        class: 'chat-form',
        onsubmit: (ev: Event) => {
          ev.preventDefault();
          const text = input.value.trim();
          if (text && client.say(text)) input.value = '';
        },
      },
      input,
      h('button', { type: 'submit', 'data-chat-send': 1 }, 'Send'),
    );
    const chat = h('section', { class: 'chat' }, h('h3', { class: 'chat-title' }), chatLines, form);
    return { chat, chatLines };
  };

  const matchScreen = (m: MatchModel): HTMLElement => {
    const view = m.view!;
    const info = matchInfo(m);
    const mine = m.mySeat !== null && info.toAct.includes(m.mySeat);
    const module = boardModuleFor(m.game, forced);
    if (!frame || frame.match !== m.match || frame.module !== module) {
      const log = h('ol', { class: 'log', 'aria-label': 'move log' });
      const board = module.create({
        play: (cmd: Command) => play(cmd),
        redraw: () => draw(),
        log,
        replay: false,
      });
      // The rules panel: closed until asked for; its <details> keeps that choice across draws.
      const rules = h('details', { class: 'rules', 'data-rules': 1 }, h('summary', {}, 'Rules ?'), h('div', { class: 'rules-body' }));
      frame = { match: m.match, module, board, log, ...chatPanel(), rules, root: h('div', {}), header: h('header', { class: 'status' }), body: h('div', {}) };
    }
    if (!frame.root.firstChild || isFullRedraw()) {
      // A new frame, or `?redraw=full`: the board builds its elements again, its state kept.
      const header = h('header', { class: 'status' });
      const body = h('div', { class: 'board-body', 'data-game': m.game ?? '' });
      const root = h('div', {}, header, frame.rules, body, frame.chat);
      if (isFullRedraw()) clear(frame.log);
      frame = { ...frame, root, header, body };
      frame.board.mount(body);
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
    f.root.dataset['game'] = m.game ?? '';
    const leave = m.status === 'lobby' || m.mySeat === null
      ? h('button', { 'data-leave': 1, onclick: () => client.leave() }, m.mySeat === null ? 'Stop watching' : 'Leave')
      : h('button', { 'data-resign': 1, onclick: () => { const c = client.model.match; if (c?.view && window.confirm(f.board.resignQuestion(c.view, matchInfo(c)))) play({ type: 'resign' }); } }, 'Resign');
    // A match created with `takeover`: a player may go, and a computer plays on for them.
    const takeoverLeave = m.status === 'running' && m.mySeat !== null && m.takeover
      ? h('button', { 'data-takeover-leave': 1, title: `A ${m.takeover} computer takes your seat; the others play on`, onclick: () => { if (window.confirm('Leave this match? A computer takes your seat and the others play on.')) client.leave(); } }, 'Leave (a computer takes your seat)')
      : null;
    const head = f.board.header(view, info);
    patchChildren(f.header, [
      h('div', {}, h('strong', {}, `Match #${m.match}`), ` · ${head.summary}`, ' ', leave, ...(takeoverLeave ? [' ', takeoverLeave] : [])),
      ...head.lines,
      seatsBar(m),
      ...(m.clock ? [clocksBar(m)] : []),
    ]);
    f.board.update(view, info);
    if (m.game) patchChildren(f.rules.querySelector('.rules-body')!, rulesContents(helpFor(m.game, () => draw()), info.legal.map((c) => c.type)));
    const title = m.mySeat === null ? "Spectators' chat (the players do not see it)" : "Players' chat (spectators do not see it)";
    const heading = f.chat.querySelector('.chat-title')!;
    if (heading.textContent !== title) heading.textContent = title;
    const chatInput = f.chat.querySelector('input[name=chat]') as HTMLInputElement;
    const mayChat = client.model.loggedIn;
    if (chatInput.disabled === mayChat) chatInput.disabled = !mayChat;
    const hint = mayChat ? 'Say something…' : 'Log in to chat';
    if (chatInput.placeholder !== hint) chatInput.placeholder = hint;
    const chatAtEnd = f.chatLines.scrollTop + f.chatLines.clientHeight >= f.chatLines.scrollHeight - 4;
    const chatCount = f.chatLines.childElementCount;
    patchChat(f.chatLines, m.chat);
    if (chatAtEnd && f.chatLines.childElementCount !== chatCount) queueMicrotask(() => (f.chatLines.scrollTop = f.chatLines.scrollHeight));
    const logCount = f.log.childElementCount;
    patchLog(f.log, m.log);
    if (logAtEnd && f.log.childElementCount !== logCount) queueMicrotask(() => (f.log.scrollTop = f.log.scrollHeight));
    return f.root;
  };

  const play = (cmd: Command): void => {
    client.play(cmd);
    draw();
  };

  const gameOverLine = (result: MatchResult, me: string | null, resigned: string | null, module: BoardModule, outOfTime = false): string =>
    module.resultLine?.(result, me, resigned) ?? resultText(result, me, resigned, module.reasons, outOfTime);

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
        h('p', { 'data-result': 1 }, gameOverLine(g.result, client.model.nickname, g.resigned, boardModuleFor(g.game ?? null), g.outOfTime ?? false)),
        ...resultDetails(g.result, g.names).map((line) => h('p', { 'data-result-details': 1 }, line)),
        h('button', { class: 'primary', 'data-play-again': 1, onclick: () => client.playAgain(), disabled: !client.model.loggedIn }, 'Play again'),
        ' ',
        h('button', { onclick: () => client.closeGameOver() }, 'Back to the lobby'),
        client.model.nickname ? h('p', {}, h('a', { href: profileHref(client.model.nickname), 'data-nav': 'profile' }, 'Your matches and ratings')) : null,
      ),
    );
  };

  // --- drawing ---------------------------------------------------------------------

  function draw(): void {
    const t0 = performance.now();
    // Layout is read before anything is written (a read after a write would force a
    // second layout within the draw).
    if (frame) logAtEnd = frame.log.scrollTop + frame.log.clientHeight >= frame.log.scrollHeight - 4;
    const m = client.model.match;
    const state = m?.view ?? null;
    const newEvent = Boolean(m && state && m.seq !== shownSeq && m.seq === shownSeq + 1 && lastMessageAt !== null);
    if (m && state) shownSeq = m.seq;
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
        livePerf.push({ seq: m.seq, ms: performance.now() - lastMessageAt, players: m.seats.length });
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
    const clockRuns = m.match?.clocks?.seats.some((c) => c.running) ?? false;
    if (m.match?.deadline || clockRuns || noticeShown || client.connection !== 'open') requestDraw();
  }, 1000);
  // Opened with an invite link: joined once a nickname is given; the fragment is then
  // removed, so a reload does not join again.
  const joinLink = parseJoinLink(location.hash);
  if (joinLink) {
    client.followJoinLink(joinLink);
    history.replaceState(null, '', location.pathname + location.search);
  }
  client.start();
  draw();
}
