// Replay mode (the page served by `eryantis-replay DB serve`): the list of stored
// matches, and one match on a timeline: the board at every event, the move log in
// sync, steps by event/turn/round, jump to N, keyboard shortcuts, a URL per
// position, and the first divergence `verify` found. The board at each position is
// the match's game's board module (src/boards/), inert.
import type { Board, MatchInfo } from './boards/board_module.js';
import { boardModuleFor, forcedBoard } from './boards/registry.js';
import { clear, h, patchChildren } from './dom.js';
import { guardedRedraw } from './redraw.js';
import { clockText } from './model.js';
import type { ClockControl, SeatClock, View } from './protocol.js';
import { type LogEntry, type Unit, formatHash, parseHash, step } from './timeline.js';

export interface ReplayMatch {
  match: number;
  game?: string; // absent from a replay API older than issue 24: Eriantys
  players: number;
  mode: string;
  status: string;
  events: number;
  created?: string;
  last_move?: string;
  nicknames: string[] | string;
}

interface AtResponse {
  match: number;
  seq: number;
  hash: string;
  status: string;
  view: View;
  to_act: number[];
  // A clocked match: its control and every seat's clock right after this event.
  clock?: ClockControl;
  clocks?: SeatClock[];
}

interface Verify {
  ok: boolean;
  seq: number | null;
  message: string;
}

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(path, { headers: { Accept: 'application/json' } });
  if (!res.ok) {
    let message = `${res.status} ${res.statusText}`;
    try {
      const body = (await res.json()) as { message?: string; error?: string };
      message = body.message ?? body.error ?? message;
    } catch {
      /* not JSON */
    }
    throw new Error(message);
  }
  return (await res.json()) as T;
}

function nickList(n: string[] | string): string[] {
  return Array.isArray(n) ? n : n.split(/,\s*/).filter(Boolean);
}

export function startReplay(root: HTMLElement, matches: ReplayMatch[]): void {
  let current: {
    info: ReplayMatch;
    log: LogEntry[];
    verify: Verify | null;
    seq: number; // the event on screen
    want: number; // the event asked for last (keys pressed quickly step from here)
    cache: Map<number, AtResponse>;
    error: string | null;
    logEl?: HTMLElement;
    frame?: Frame;
  } | null = null;
  const perf = ((window as unknown as { eryantisPerf?: unknown[] }).eryantisPerf = [] as unknown[]);
  let next: () => void = () => {};
  const guarded = guardedRedraw(() => next());
  const redraw = (fn: () => void): void => {
    next = fn;
    guarded();
  };

  // The replay API names each match's game once it knows several (issue 24).
  const anyGame = matches.some((m) => m.game !== undefined);
  const list = (): HTMLElement =>
    h(
      'section',
      { class: 'replay-list' },
      h('h2', {}, 'Stored matches'),
      matches.length === 0
        ? h('p', { class: 'hint' }, 'The database holds no match yet.')
        : h(
            'table',
            {},
            h('thead', {}, h('tr', {}, ...['match', ...(anyGame ? ['game'] : []), 'status', 'players', 'mode', 'events', 'started', 'last move', 'players'].map((t) => h('th', {}, t)))),
            h(
              'tbody',
              {},
              ...matches.map((m) =>
                h(
                  'tr',
                  { 'data-replay-match': m.match },
                  h('td', {}, h('a', { href: formatHash(m.match, Math.min(1, m.events)) }, `#${m.match}`)),
                  anyGame ? h('td', { 'data-game': m.game ?? '' }, m.game ?? '') : null,
                  h('td', {}, m.status),
                  h('td', {}, m.players),
                  h('td', {}, m.mode),
                  h('td', {}, m.events),
                  h('td', {}, m.created ?? ''),
                  h('td', {}, m.last_move ?? ''),
                  h('td', {}, nickList(m.nicknames).join(', ')),
                ),
              ),
            ),
          ),
    );

  const go = (seq: number): void => {
    if (!current) return;
    const last = current.log.length ? current.log[current.log.length - 1]!.seq : 0;
    const target = Math.max(0, Math.min(last, seq));
    current.want = target;
    history.replaceState(null, '', formatHash(current.info.match, target));
    void show(target);
  };

  const move = (unit: Unit, dir: 1 | -1): void => {
    if (current) go(step(current.log, current.want, unit, dir));
  };

  async function show(seq: number): Promise<void> {
    const c = current;
    if (!c) return;
    try {
      let at = c.cache.get(seq);
      if (!at) {
        at = await getJson<AtResponse>(`/api/matches/${c.info.match}/at/${seq}`);
        c.cache.set(seq, at);
      }
      if (current !== c || c.want !== seq) return; // a later position was asked for meanwhile
      c.seq = seq;
      c.error = null;
      const shown = at;
      redraw(() => draw(shown));
    } catch (e) {
      if (current !== c || c.want !== seq) return;
      c.seq = seq;
      c.error = `Event ${seq} cannot be shown: ${(e as Error).message}`;
      redraw(() => draw(null));
    }
  }

  async function open(match: number, seq: number | null): Promise<void> {
    const info = matches.find((m) => m.match === match) ?? { match, players: 0, mode: '', status: '', events: 0, nicknames: [] };
    try {
      const [log, verify] = await Promise.all([
        getJson<LogEntry[]>(`/api/matches/${match}/log`),
        getJson<Verify>(`/api/matches/${match}/verify`).catch(() => null),
      ]);
      current = { info, log, verify, seq: 0, want: 0, cache: new Map(), error: null };
      go(seq ?? (log.length ? 1 : 0));
    } catch (e) {
      clear(root);
      root.append(h('h1', { class: 'brand' }, 'Eryantis replay'), h('div', { class: 'banner warn' }, `Match ${match}: ${(e as Error).message}`), list());
    }
  }

  // The frame of a match's page is built once; each position patches it.
  interface Frame {
    root: HTMLElement;
    pos: HTMLElement;
    scrub: HTMLInputElement;
    jump: HTMLInputElement;
    error: HTMLElement;
    board: HTMLElement;
    eventLine: HTMLElement;
    head: HTMLElement; // the board's header lines (turn, order)
    game: Board;
  }

  function buildFrame(c: NonNullable<typeof current>, names: string[]): Frame {
    const last = c.log.length ? c.log[c.log.length - 1]!.seq : 0;
    // verify's answer, or (if it could not be asked) the log's first divergent event.
    const logged = c.log.find((e) => e.diverges !== undefined);
    const divergence = c.verify && !c.verify.ok ? c.verify : logged ? { ok: false, seq: logged.seq, message: logged.diverges! } : null;
    const scrub = h('input', {
      type: 'range',
      min: 0,
      max: last,
      value: 0,
      'aria-label': 'event',
      class: 'scrubber',
      oninput: (ev: Event) => go(Number((ev.target as HTMLInputElement).value)),
    }) as HTMLInputElement;
    const jump = h('input', { type: 'number', min: 0, max: last, value: 0, class: 'jump', 'aria-label': 'jump to event', 'data-jump': 1 }) as HTMLInputElement;
    const pos = h('span', { class: 'pos' });
    const controls = h(
      'div',
      { class: 'controls' },
      h('button', { title: 'before the first event (Home)', onclick: () => go(0) }, '|‹'),
      h('button', { title: 'round back (PageUp)', 'data-step': 'round-back', onclick: () => move('round', -1) }, '« round'),
      h('button', { title: 'turn back (↑)', 'data-step': 'turn-back', onclick: () => move('turn', -1) }, '‹ turn'),
      h('button', { title: 'event back (←)', 'data-step': 'event-back', onclick: () => move('event', -1) }, '‹ event'),
      pos,
      h('button', { title: 'event forward (→)', 'data-step': 'event-fwd', onclick: () => move('event', 1) }, 'event ›'),
      h('button', { title: 'turn forward (↓)', 'data-step': 'turn-fwd', onclick: () => move('turn', 1) }, 'turn ›'),
      h('button', { title: 'round forward (PageDown)', 'data-step': 'round-fwd', onclick: () => move('round', 1) }, 'round »'),
      h('button', { title: 'the last event (End)', onclick: () => go(last) }, '›|'),
      h('form', { class: 'jump-form', onsubmit: (ev: Event) => { ev.preventDefault(); go(Number(jump.value)); } }, ' go to ', jump, h('button', { type: 'submit' }, 'Go')),
    );
    const marks = divergence && divergence.seq !== null && last > 0
      ? h('div', { class: 'marks' }, h('span', { class: 'diverge-mark', style: `left:${(100 * divergence.seq) / last}%`, title: `diverges at ${divergence.seq}` }))
      : null;
    // The log is built once per match; a step only moves the highlight.
    const logEl = h(
      'ol',
      { class: 'log replay-log' },
      ...c.log.map((e) =>
        h(
          'li',
          {
            value: e.seq,
            class: `${divergence?.seq === e.seq ? 'diverged' : ''} ${e.trusted === false ? 'untrusted' : ''}`,
            'data-log-seq': e.seq,
            'data-trusted': e.trusted === false ? 0 : 1,
            onclick: () => go(e.seq),
          },
          e.round ? `R${e.round} ` : '',
          e.trusted === false ? '⚠ ' : '',
          e.text,
        ),
      ),
    );
    c.logEl = logEl;
    const header = h(
      'header',
      { class: 'status' },
      h('div', {}, h('a', { href: '#', onclick: (ev: Event) => { ev.preventDefault(); history.replaceState(null, '', location.pathname + location.search); current = null; drawList(); } }, '← all matches'), ' ', h('strong', {}, `Match #${c.info.match}`), ` · ${nickList(c.info.nicknames).join(', ')}`),
      divergence ? h('div', { class: 'banner error', 'data-divergence': divergence.seq ?? '' }, `Verify: the stored match diverges${divergence.seq !== null ? ` at event ${divergence.seq}` : ''}: ${divergence.message}`) : null,
      c.verify?.ok ? h('div', { class: 'ok' }, 'Verify: every stored hash matches the replay.') : null,
      controls,
      scrub,
      marks,
    );
    const error = h('div', {});
    const eventLine = h('div', { class: 'event-line' });
    const head = h('div', { class: 'board-head' });
    const body = h('div', { class: 'board-body', 'data-game': c.info.game ?? '' });
    const game = boardModuleFor(c.info.game ?? null, forcedBoard(location.search)).create({ play: () => {}, redraw: () => {}, log: logEl, replay: true });
    game.mount(body);
    const board = h('div', { class: 'match replay', 'data-match': c.info.match }, eventLine, head, body);
    void names;
    const root = h('div', {}, h('h1', { class: 'brand' }, 'Eryantis replay'), header, error, board);
    return { root, pos, scrub, jump, error, board, eventLine, head, game };
  }

  function draw(at: AtResponse | null): void {
    const t0 = performance.now();
    const c = current!;
    const last = c.log.length ? c.log[c.log.length - 1]!.seq : 0;
    const names = ['', '', '', ''];
    nickList(c.info.nicknames).forEach((n, i) => (names[i] = n));
    if (!c.frame) c.frame = buildFrame(c, names);
    const f = c.frame;
    if (root.firstChild !== f.root) {
      clear(root);
      root.append(f.root);
    }
    f.pos.textContent = `event ${c.seq} of ${last}`;
    f.pos.dataset['replaySeq'] = String(c.seq);
    f.scrub.value = String(c.seq);
    if (document.activeElement !== f.jump) f.jump.value = String(c.seq);
    clear(f.error);
    if (c.error || !at) {
      f.error.append(h('div', { class: 'banner error' }, c.error ?? 'no state'));
      f.board.hidden = true;
    } else {
      f.board.hidden = false;
      const info: MatchInfo = {
        match: c.info.match,
        game: c.info.game ?? '',
        title: c.info.game ?? 'the game',
        seq: c.seq,
        status: at.status,
        seats: names.slice(0, c.info.players || names.length).map((n, seat) => ({ seat, nickname: n || null, connected: false })),
        names,
        mySeat: null,
        toAct: at.to_act,
        legal: [],
        offline: true,
      };
      const entry = c.log.find((e) => e.seq === c.seq);
      f.board.dataset['seq'] = String(c.seq);
      f.board.dataset['hash'] = at.hash;
      f.eventLine.textContent = entry ? `${c.seq}: ${entry.text}` : 'Before the first event';
      const clockLine = at.clock && at.clocks
        ? h('div', { class: 'clocks', 'data-clock-control': at.clock.control }, `⏱ ${at.clock.control} `, ...at.clocks.flatMap((k, seat) => [h('span', { class: `clock${k.running ? ' running' : ''}`, 'data-clock': seat, 'data-left-ms': k.left_ms }, `${names[seat] || `seat ${seat}`} ${k.untimed ? '—' : clockText(k.left_ms)}`), ' ']))
        : null;
      patchChildren(f.head, [...f.game.header(at.view, info).lines, ...(clockLine ? [clockLine] : [])]);
      f.game.update(at.view, info);
      root.dataset['drawnSeq'] = String(c.seq);
      const w = window as unknown as { eryantisFirstBoardMs?: number };
      if (w.eryantisFirstBoardMs === undefined) w.eryantisFirstBoardMs = performance.now();
    }
    const logList = c.logEl!;
    logList.querySelector('li.current')?.classList.remove('current');
    const cur = logList.querySelector(`li[data-log-seq="${c.seq}"]`);
    cur?.classList.add('current');
    void root.offsetHeight; // style and layout included in the figure (paint is not)
    perf.push({ seq: c.seq, ms: performance.now() - t0 });
    queueMicrotask(() => cur?.scrollIntoView({ block: 'nearest' }));
  }

  function drawList(): void {
    clear(root);
    root.append(h('h1', { class: 'brand' }, 'Eryantis replay'), list());
  }

  window.addEventListener('keydown', (ev) => {
    if (!current || (ev.target instanceof HTMLInputElement && ev.target.type === 'number')) return;
    const keys: Record<string, () => void> = {
      ArrowRight: () => move('event', 1),
      ArrowLeft: () => move('event', -1),
      ArrowDown: () => move('turn', 1),
      ArrowUp: () => move('turn', -1),
      PageDown: () => move('round', 1),
      PageUp: () => move('round', -1),
      Home: () => go(0),
      End: () => go(Number.MAX_SAFE_INTEGER),
      g: () => (root.querySelector('[data-jump]') as HTMLInputElement | null)?.focus(),
    };
    const fn = keys[ev.key];
    if (fn) {
      ev.preventDefault();
      fn();
    }
  });

  const route = (): void => {
    const { match, seq } = parseHash(location.hash);
    if (match === null) {
      current = null;
      drawList();
    } else if (current && current.info.match === match) {
      if (seq !== null && seq !== current.want) go(seq);
    } else void open(match, seq);
  };
  window.addEventListener('hashchange', route);
  route();
}
