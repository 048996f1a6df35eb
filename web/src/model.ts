// The client's state and how each server message changes it. Pure: no DOM, no
// socket, no clock (the caller passes `now`); the reply it asks for is returned
// as `requests`, so tests drive it with fake message streams. It knows no game: the
// view is kept as it came, for the match's board module to read.
import type {
  ChatLine,
  ClockControl,
  Command,
  Deadline,
  GameEvent,
  GameInfo,
  MatchResult,
  MatchSummary,
  SeatClock,
  SeatInfo,
  ServerMessage,
  View,
} from './protocol.js';

export interface LogLine {
  seq: number;
  text: string;
}

export interface Notice {
  code: string;
  text: string;
  at: number;
}

export interface MatchModel {
  match: number;
  game: string | null; // the game's name (null: the server named none, an older one)
  seq: number;
  status: string;
  hash: string;
  seats: SeatInfo[];
  // The computer level that takes the seat of a player who leaves (create_match's
  // `takeover`); absent or null: the seat stays its player's.
  takeover?: string | null;
  // A clocked match's control and its seats' clocks as last told (`at`: when, in the
  // caller's clock); null: no clock.
  clock?: ClockControl | null;
  clocks?: { seats: SeatClock[]; at: number } | null;
  toAct: number[];
  allowed: string[];
  legal: Command[]; // from the server, or derived from `allowed` for an older one
  mySeat: number | null; // null: spectator
  view: View | null;
  deadline: (Deadline & { at: number }) | null; // `at`: when it fires, in the caller's clock
  log: LogLine[]; // by seq; the move_log answer fills what the pushes did not bring
  logAsked: boolean; // a move_log request is out
  lastEvent: GameEvent | null;
  chat: ChatLine[]; // my channel's messages, by id (history and pushes merged)
}

// What "Play again" repeats: the same kind of match, with the same computer players.
export interface GameOver {
  match: number;
  result: MatchResult;
  players: number;
  mode: string;
  game?: string; // when known: play again the same game
  computers: string[]; // the levels of the computer seats, in seat order
  resigned: string | null; // who resigned, when that ended it
  // That resignation was the clock's: the seat ran out under `on_timeout` "forfeit" (its
  // clock, after the event, untimed with a timeout, and no computer in it).
  outOfTime?: boolean;
  names: string[]; // the nickname by seat of the ended match ('' unknown): for the result's scores
}

export interface Model {
  nickname: string | null;
  loggedIn: boolean;
  open: MatchSummary[];
  running: MatchSummary[];
  match: MatchModel | null;
  watching: number | null; // the match this connection spectates (to watch again after a reconnect)
  gameOver: GameOver | null;
  notices: Notice[];
  lastMatchOptions: { players: number; mode: string; game?: string } | null;
  games: GameInfo[]; // `welcome`'s games, the default first (empty: an older server)
  matchGames: Record<number, string>; // the game of each match the page has heard of
  expectGame: string | null; // the game of a create_match or quick_join not yet answered
  // Lobby push (watch_lobby): 'unknown' until the server answered it, 'push' when it
  // did, 'poll' when it did not know the request (an older server: list_matches every 2 s).
  lobbyPush: 'unknown' | 'push' | 'poll';
  watchingLobby: boolean; // watch_lobby was sent on this connection and not taken back
  // move_log: 'no' once the server said it does not know it (an older server: the
  // log then starts when the page arrived).
  moveLog: 'unknown' | 'yes' | 'no';
}

export type Request = Record<string, unknown> & { type: string };

export function initialModel(): Model {
  return {
    nickname: null,
    loggedIn: false,
    open: [],
    running: [],
    match: null,
    watching: null,
    gameOver: null,
    notices: [],
    lastMatchOptions: null,
    games: [],
    matchGames: {},
    expectGame: null,
    lobbyPush: 'unknown',
    watchingLobby: false,
    moveLog: 'unknown',
  };
}

// The request that fills the lobby's list: watch it (pushes follow) unless the
// server is known not to push, then ask once.
export function lobbyRequest(model: Model): { model: Model; request: Request } {
  if (model.lobbyPush === 'poll') return { model, request: { type: 'list_matches' } };
  return { model: { ...model, watchingLobby: true }, request: { type: 'watch_lobby' } };
}

// Leaving the lobby for a match: its list is not on screen, so stop its pushes.
function leaveLobby(model: Model, requests: Request[]): Model {
  if (!model.watchingLobby) return model;
  if (model.lobbyPush !== 'poll') requests.push({ type: 'unwatch_lobby' });
  return { ...model, watchingLobby: false };
}

// The chat lines kept per match: the history brings the newest 100 (the server's
// default); a long match's chat keeps its newest lines only.
export const kChatLines = 500;

// `lines` added to `chat`: by message id, each once (a push may repeat a line of the
// history read while it was sent).
export function mergeChat(chat: ChatLine[], lines: ChatLine[]): ChatLine[] {
  const byId = new Map(chat.map((c) => [c.message, c]));
  for (const l of lines) if (typeof l?.message === 'number' && typeof l.text === 'string') byId.set(l.message, l);
  return [...byId.values()].sort((a, b) => a.message - b.message).slice(-kChatLines);
}

// A whole match is at most ~300 events (docs/protocol.md, `move_log`): the log keeps
// every line; the bound only guards the page against a server that sends more.
export const kLogLines = 2000;
export const kMoveLogId = 'move_log'; // the id of our move_log requests, to know their errors

// The first seq of 1..seq (of the last kLogLines) the log has no line for; null when
// it has them all.
export function firstMissing(log: LogLine[], seq: number): number | null {
  let want = Math.max(1, seq - kLogLines + 1);
  for (const l of log) {
    if (l.seq < want) continue;
    if (l.seq > want) return want;
    want = l.seq + 1;
  }
  return want <= seq ? want : null;
}

// Asks for the lines the match's log is missing (a reload, a spectator arriving
// mid-match, a gap after a sync), unless a request is out or the server cannot.
function askMoveLog(model: Model, requests: Request[]): Model {
  const m = model.match;
  if (!m || m.logAsked || model.moveLog === 'no') return model;
  const from = firstMissing(m.log, m.seq);
  if (from === null) return model;
  requests.push({ type: 'move_log', id: kMoveLogId, from });
  return { ...model, match: { ...m, logAsked: true } };
}
const kNotices = 5;

export function addNotice(model: Model, code: string, text: string, now: number): Model {
  return { ...model, notices: [...model.notices, { code, text, at: now }].slice(-kNotices) };
}

// A seat's nickname for sentences: "seat N" for a free seat, "the server" for none.
export function seatNickname(seats: SeatInfo[], seat: number): string {
  return seats.find((s) => s.seat === seat)?.nickname ?? (seat >= 0 ? `seat ${seat}` : 'the server');
}

// A log line for an event when the server sends no `text` (an older server):
// the type and parameters as they are, not a second copy of the render sentences.
export function fallbackText(event: GameEvent, seats: SeatInfo[]): string {
  const who = seats.find((s) => s.seat === event.seat)?.nickname ?? (event.seat >= 0 ? `seat ${event.seat}` : 'server');
  const params = Object.entries(event.command)
    .filter(([k]) => k !== 'type')
    .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(', ');
  return `${who}: ${event.type.replace(/_/g, ' ')}${params ? ` (${params})` : ''}`;
}

function deadlineAt(d: Deadline | null | undefined, now: number, keep: MatchModel['deadline']): MatchModel['deadline'] {
  if (d === undefined) return keep; // an older server, or a message that does not carry it
  if (d === null) return null;
  return { ...d, at: now + d.in_ms };
}

// A server older than `legal` sends only `allowed`: the game's board module may
// derive the candidates (Eriantys does); the app passes it in.
export type LegacyLegal = (game: string | null, view: View, seat: number | null, allowed: string[]) => Command[];

function legalOf(legal: Command[] | undefined, game: string | null, view: View | null, seat: number | null, allowed: string[], legacy?: LegacyLegal): Command[] {
  if (legal) return legal;
  if (!view || !legacy) return [];
  return legacy(game, view, seat, allowed);
}

// What every game's view is expected to carry (docs/protocol.md): `state.phase` and
// `state.options`; anything else is the board module's.
function viewState(view: View | null | undefined): Record<string, unknown> {
  const st = view?.state;
  return typeof st === 'object' && st !== null ? (st as Record<string, unknown>) : {};
}

function viewPhase(view: View | null | undefined): string | null {
  const p = viewState(view)['phase'];
  return typeof p === 'string' ? p : null;
}

// The match's game: the server's word, else what the lobby or our own request said,
// else the server's default game (null: an older server that names none).
function gameOf(model: Model, match: number, said: string | undefined): string | null {
  if (said) return said;
  if (model.match && model.match.match === match && model.match.game) return model.match.game;
  return model.matchGames[match] ?? model.games[0]?.name ?? null;
}

export interface Step {
  model: Model;
  requests: Request[];
}

// Applies one server message.
export function reduce(model: Model, msg: ServerMessage, now: number, legacy?: LegacyLegal): Step {
  const requests: Request[] = [];
  let m = model;
  switch (msg.type) {
    case 'welcome':
      m = { ...m, games: Array.isArray(msg.games) ? msg.games : [] };
      break;
    case 'logged_in':
      m = { ...m, nickname: msg.nickname, loggedIn: true, watching: null };
      if (msg.match === undefined) {
        // Not seated: the lobby (a logged-in connection no longer spectates).
        if (m.match && m.match.mySeat === null) m = { ...m, match: null };
        m = toLobby(m, requests);
      }
      break;
    case 'match_list':
      m = { ...m, open: msg.open, running: msg.running };
      if ([...msg.open, ...msg.running].some((x) => x.game && m.matchGames[x.match] !== x.game)) {
        const games = { ...m.matchGames };
        for (const x of [...msg.open, ...msg.running]) if (x.game) games[x.match] = x.game;
        m = { ...m, matchGames: games };
      }
      // Only watch_lobby is asked while the answer is unknown: this list is its answer.
      if (m.lobbyPush === 'unknown' && m.watchingLobby) m = { ...m, lobbyPush: 'push' };
      break;
    case 'joined':
      if (m.expectGame) m = { ...m, matchGames: { ...m.matchGames, [msg.match]: m.expectGame } };
      m = leaveLobby({ ...m, gameOver: null, watching: null, expectGame: null }, requests);
      break;
    case 'spectating':
      m = leaveLobby({ ...m, gameOver: null, watching: msg.match }, requests);
      break;
    case 'left':
      m = { ...m, match: null, watching: null };
      m = toLobby(m, requests);
      break;
    case 'state': {
      const same = m.match && m.match.match === msg.match ? m.match : null;
      const game = gameOf(m, msg.match, msg.game);
      const opts = viewState(msg.view)['options'] as { players?: unknown; mode?: unknown } | undefined;
      const players = typeof opts?.players === 'number' ? opts.players : msg.seats.length;
      m = {
        ...m,
        gameOver: null,
        watching: msg.seat === null ? msg.match : null,
        lastMatchOptions: { players, mode: typeof opts?.mode === 'string' ? opts.mode : '', ...(game ? { game } : {}) },
        matchGames: game && m.matchGames[msg.match] !== game ? { ...m.matchGames, [msg.match]: game } : m.matchGames,
        match: {
          match: msg.match,
          game,
          seq: msg.seq,
          status: msg.status,
          hash: msg.hash,
          seats: msg.seats,
          takeover: msg.takeover ?? null,
          clock: msg.clock ?? null,
          clocks: msg.clocks ? { seats: msg.clocks, at: now } : null,
          toAct: msg.to_act,
          allowed: msg.allowed,
          legal: legalOf(msg.legal, game, msg.view, msg.seat, msg.allowed, legacy),
          mySeat: msg.seat,
          view: msg.view,
          deadline: deadlineAt(msg.deadline, now, null),
          log: same ? same.log : [],
          logAsked: same ? same.logAsked : false,
          lastEvent: same ? same.lastEvent : null,
          chat: same ? same.chat : [],
        },
      };
      m = askMoveLog(m, requests);
      break;
    }
    case 'seats':
      if (m.match && m.match.match === msg.match) {
        m = { ...m, match: { ...m.match, seats: msg.seats, deadline: deadlineAt(msg.deadline, now, m.match.deadline), ...(msg.clocks ? { clocks: { seats: msg.clocks, at: now } } : {}) } };
      }
      break;
    case 'event': {
      const cur = m.match;
      if (!cur || cur.match !== msg.match) break;
      if (msg.seq <= cur.seq) break; // already folded (a state after a resume may overtake)
      if (!msg.view) {
        // An events-only session (or a server that left the view out): ask for the state.
        requests.push({ type: 'sync' });
      }
      const text = msg.text ?? msg.event.text ?? fallbackText(msg.event, cur.seats);
      const view = msg.view ?? cur.view;
      m = {
        ...m,
        match: {
          ...cur,
          seq: msg.seq,
          hash: msg.hash,
          toAct: msg.to_act,
          allowed: msg.allowed,
          legal: legalOf(msg.legal, cur.game, view, cur.mySeat, msg.allowed, legacy),
          view,
          // The server says when an event moves the match on; older servers did not.
          status: msg.status ?? statusAfter(viewPhase(view), cur.status, cur.seats),
          deadline: deadlineAt(msg.deadline, now, cur.deadline),
          ...(msg.clocks ? { clocks: { seats: msg.clocks, at: now } } : {}),
          log: [...cur.log, { seq: msg.seq, text }].slice(-kLogLines),
          lastEvent: msg.event,
        },
      };
      // Everybody is told who gave up (the log says it too; the game-over screen repeats it).
      if (msg.event.type === 'resign') m = addNotice(m, 'RESIGNED', text, now);
      break;
    }
    case 'move_log': {
      const cur = m.match;
      if (!cur || cur.match !== msg.match) break;
      const bySeq = new Map(cur.log.map((l) => [l.seq, l]));
      for (const l of msg.lines) if (!bySeq.has(l.seq)) bySeq.set(l.seq, { seq: l.seq, text: l.text });
      const log = [...bySeq.values()].sort((a, b) => a.seq - b.seq).slice(-kLogLines);
      m = { ...m, moveLog: 'yes', match: { ...cur, log, logAsked: false } };
      // The next page, or a gap the pushes left after what this answer covers.
      const from = firstMissing(log, cur.seq);
      if (from !== null && (msg.more || from > msg.seq)) m = askMoveLog(m, requests);
      break;
    }
    case 'chat':
    case 'chat_sent':
    case 'chat_history': {
      const cur = m.match;
      if (!cur || cur.match !== msg.match) break;
      const lines = msg.type === 'chat_history' ? msg.messages : [{ message: msg.message, from: msg.from, time: msg.time, text: msg.text }];
      m = { ...m, match: { ...cur, chat: mergeChat(cur.chat, lines) } };
      break;
    }
    case 'chat_deleted': {
      const cur = m.match;
      if (!cur || cur.match !== msg.match) break;
      m = { ...m, match: { ...cur, chat: cur.chat.filter((c) => c.message !== msg.message) } };
      break;
    }
    case 'game_over': {
      const opts = m.lastMatchOptions ?? { players: 2, mode: '' };
      const ended = m.match && m.match.match === msg.match ? m.match : null;
      const computers = (ended?.seats ?? []).filter((s) => s.computer && s.seat !== ended?.mySeat).map((s) => String(s.computer));
      const last = ended?.lastEvent;
      const resigned = msg.result.reason === 'resign' && last?.type === 'resign' ? seatNickname(ended!.seats, last.seat) : null;
      const resignerClock = resigned !== null && last ? ended?.clocks?.seats[last.seat] : undefined;
      const resignerSeat = last ? ended?.seats.find((s) => s.seat === last.seat) : undefined;
      const outOfTime = ended?.clock?.on_timeout === 'forfeit' && resignerClock !== undefined && resignerClock.timeouts > 0 && resignerClock.untimed && !resignerSeat?.computer;
      const names: string[] = (ended?.seats ?? []).map(() => '');
      for (const s of ended?.seats ?? []) names[s.seat] = s.nickname ?? '';
      m = { ...m, gameOver: { match: msg.match, result: msg.result, ...opts, computers, resigned, ...(outOfTime ? { outOfTime } : {}), names }, watching: null };
      if (m.match && m.match.match === msg.match) m = { ...m, match: { ...m.match, status: 'finished', legal: [], toAct: [], deadline: null } };
      m = toLobby(m, requests);
      break;
    }
    case 'match_abandoned':
      m = addNotice(m, 'MATCH_ABANDONED', msg.message, now);
      if (m.match && m.match.match === msg.match) m = { ...m, match: null };
      m = { ...m, watching: null };
      m = toLobby(m, requests);
      break;
    case 'error':
      if (msg.id === kMoveLogId || (msg.code === 'UNKNOWN_TYPE' && msg.message.includes('"move_log"'))) {
        if (m.match) m = { ...m, match: { ...m.match, logAsked: false } };
        if (msg.code === 'UNKNOWN_TYPE') {
          m = { ...m, moveLog: 'no' }; // an older server: not an error for the player
          break;
        }
        if (msg.code !== 'NOT_IN_MATCH') {
          m = addNotice(m, msg.code, `The moves before you arrived could not be loaded: ${msg.message}`, now);
          break;
        }
      }
      if (msg.code === 'UNKNOWN_TYPE' && msg.message.includes('"watch_lobby"')) {
        // A server from before lobby push: poll it (not an error for the player).
        m = { ...m, lobbyPush: 'poll', watchingLobby: false };
        requests.push({ type: 'list_matches' });
        break;
      }
      m = addNotice(m, msg.code, msg.message, now);
      if (msg.code === 'STALE_SEQ' && m.match) requests.push({ type: 'sync' });
      if (msg.code === 'NOT_IN_MATCH' && m.match) m = { ...m, match: null, watching: null };
      break;
    case 'shutdown':
      m = addNotice(m, 'SHUTDOWN', msg.message, now);
      break;
    case 'ping':
      requests.push({ type: 'pong' });
      break;
    default:
      break;
  }
  return { model: m, requests };
}

// A match's status after an event, for a server that does not say it (the event's
// `status`, docs/protocol.md). The server's moves from lobby to running when an
// event leaves the game's setup (src/server/match_flow.cpp): from the view's phase when
// it names one (Eriantys, Masters of Renaissance); a game whose view names none
// (Goofspiel) has no setup to wait for, so its first event once every seat is taken
// starts it. The end comes with `game_over` (or a phase "game_over").
function statusAfter(phase: string | null, status: string, seats: SeatInfo[]): string {
  if (phase === null) return status === 'lobby' && seats.every((s) => s.nickname !== null) ? 'running' : status;
  if (phase === 'setup') return status;
  return phase === 'game_over' ? 'finished' : 'running';
}

// What the board offers the player: nothing while a seat is free (the server refuses every
// command until all seats are taken, WRONG_PHASE, though a game without a setup, such as
// Goofspiel, already has legal commands), else the server's `legal` and `to_act`.
export function offered(match: MatchModel): { legal: Command[]; toAct: number[] } {
  const waiting = match.status === 'lobby' && match.seats.some((s) => s.nickname === null);
  return waiting ? { legal: [], toAct: [] } : { legal: match.legal, toAct: match.toAct };
}

// Back in the lobby: its list, pushed from now on (or asked once).
function toLobby(model: Model, requests: Request[]): Model {
  const step = lobbyRequest(model);
  requests.push(step.request);
  return step.model;
}

// After a dropped connection: what the model keeps (who we are, what we watched).
// The next server may be another version: whether it pushes the lobby is asked again.
export function disconnected(model: Model): Model {
  const match = model.match ? { ...model.match, logAsked: false } : null;
  return { ...model, match, loggedIn: false, lobbyPush: 'unknown', watchingLobby: false, moveLog: 'unknown' };
}

// Leaving the game-over screen.
export function backToLobby(model: Model): Model {
  return { ...model, gameOver: null, match: null };
}

// Seconds left before the deadline, never negative.
export function deadlineSeconds(match: MatchModel, now: number): number | null {
  if (!match.deadline) return null;
  return Math.max(0, Math.ceil((match.deadline.at - now) / 1000));
}

// A seat's clock at `now`: what is left (delay first, then the bank) in ms, never
// below 0, counted down from the last message when it runs.
export function clockLeft(match: MatchModel, seat: number, now: number): { delay: number; left: number; running: boolean } | null {
  const c = match.clocks?.seats[seat];
  if (!match.clocks || !c) return null;
  if (!c.running) return { delay: c.delay_ms, left: c.left_ms, running: false };
  let spent = Math.max(0, now - match.clocks.at);
  const delay = Math.max(0, c.delay_ms - spent);
  spent = Math.max(0, spent - c.delay_ms);
  return { delay, left: Math.max(0, c.left_ms - spent), running: true };
}

// Whether a seat's clock shows no time ("—"): a seat a computer plays. The server also
// stops timing a seat that ran out under "forfeit" (it is `untimed` then, with
// `timeouts` > 0, and no computer): that one keeps showing its 0:00, so the players see
// whose time ran out.
export function clockShownUntimed(c: SeatClock | undefined, computer: boolean): boolean {
  if (!c || !c.untimed) return false;
  return computer || c.timeouts === 0;
}

// "9:58", "1:02:03", "2d 3h" for a clock's time.
export function clockText(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s >= 86400) return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}
