// The wire types of docs/protocol.md, as the page's shell reads them: the envelope
// of every game. A game's own view and commands are its board module's
// (src/boards/<game>/). Unknown fields are ignored; the fields later rounds added
// (`legal`, `deadline`, `text`, `games`, `game`) are optional so the client also
// works against an older server.

// A match's view as the server sends it: `{"viewer","state"}` for the games of this
// server; a board module reads the rest.
export interface View {
  viewer?: number;
  state?: unknown;
  [field: string]: unknown;
}

// A rules command: `type` plus its fields (docs/protocol.md section 5).
export interface Command {
  type: string;
  [field: string]: unknown;
}

export interface GameEvent {
  v: number;
  type: string;
  seat: number;
  command: Command;
  drawn: string[];
  picks: number[];
  text?: string;
}

export interface SeatInfo {
  seat: number;
  nickname: string | null;
  connected: boolean;
  computer?: 'random' | 'greedy' | 'strong' | string | null; // a computer player's level
}

export interface Deadline {
  action: 'skip_turn' | 'forfeit' | 'abandon' | 'remove' | string;
  seat: number;
  nickname: string | null;
  in_ms: number;
}

// A game this server plays (`welcome`'s `games`, the default first).
export interface GameInfo {
  name: string;
  title?: string;
  version?: number;
  min_players?: number;
  max_players?: number;
}

export interface MatchSummary {
  match: number;
  game?: string; // absent from a server older than issue 24: its default game
  players: number;
  mode: string;
  status: string;
  phase: string;
  round: number;
  computers?: number;
  seats: SeatInfo[];
  takeover?: string; // a match whose leavers' seats a computer of this level takes
  clock?: ClockControl; // a clocked match's control
}

export interface MatchResult {
  reason: string;
  winners: number[];
  nicknames: string[];
  draw: boolean;
  places?: number[]; // each seat's place, 1 = first (what ratings are computed from)
  teams?: number[]; // each seat's side
  // A game's own members (Goofspiel's and Masters of Renaissance's `scores`).
  [member: string]: unknown;
}

type Id = number | string;

export type ServerMessage =
  | { type: 'welcome'; id?: Id; server: string; protocol: number; heartbeat_ms: number; timeout_ms: number; games?: GameInfo[]; cookie?: boolean }
  // account: logged in to that account; ticket: a "cookie":true login's one-time ticket for POST /account/session
  | { type: 'logged_in'; id?: Id; nickname: string; token: string; match?: number; seat?: number; account?: string; ticket?: string }
  | { type: 'logged_out'; id?: Id; all: boolean; ended: number }
  | { type: 'match_list'; id?: Id; open: MatchSummary[]; running: MatchSummary[]; yours?: number }
  | { type: 'joined'; id?: Id; match: number; seat: number }
  | { type: 'left'; id?: Id; match: number }
  | { type: 'spectating'; id?: Id; match: number }
  | { type: 'invite'; id?: Id; match: number; code: string | null }
  | { type: 'unwatched'; id?: Id }
  // Another server of the cluster serves the match (docs/protocol.md, issue 16): `web`
  // is its WebSocket address for browsers (null: it has none), `address` its TCP one.
  | { type: 'redirect'; id?: Id; address: string; web: string | null; match: number; reason: string }
  | {
      type: 'state';
      clock?: ClockControl; // a clocked match's control (docs/protocol.md, "Clocks")
      clocks?: SeatClock[]; // every seat's clock as the message was written
      id?: Id;
      match: number;
      game?: string; // when the server says it; else the lobby's summary or `welcome`'s default
      seq: number;
      status: string;
      hash: string;
      seats: SeatInfo[];
      takeover?: string; // present in a match created with `takeover`
      to_act: number[];
      allowed: string[];
      legal?: Command[];
      deadline?: Deadline | null;
      seat: number | null;
      view: View;
    }
  | { type: 'seats'; match: number; seats: SeatInfo[]; takeover?: string; clock?: ClockControl; clocks?: SeatClock[]; deadline?: Deadline | null }
  | {
      type: 'event';
      match: number;
      seq: number;
      hash: string;
      status?: string; // only on the event that moved the match on (lobby → running, or its end)
      event: GameEvent;
      to_act: number[];
      allowed: string[];
      legal?: Command[];
      deadline?: Deadline | null;
      clocks?: SeatClock[];
      text?: string;
      view?: View;
    }
  | { type: 'ack'; id?: Id; match: number; seq: number; hash?: string; replayed?: boolean }
  // The move log read back from the server (docs/protocol.md `move_log`): the lines
  // from the seq asked up to `seq`, or a page of them when `more`.
  | { type: 'move_log'; id?: Id; match: number; seq: number; lines: Array<{ seq: number; text: string }>; more: boolean }
  // Chat (docs/protocol.md `chat`): a message of my channel (players' or spectators'),
  // the reply to mine once stored, the channel's newest after a state, an operator's delete.
  | ({ type: 'chat'; match: number; channel: ChatChannel } & ChatLine)
  | ({ type: 'chat_sent'; id?: Id; match: number; channel: ChatChannel } & ChatLine)
  | { type: 'chat_history'; match: number; channel: ChatChannel; messages: ChatLine[] }
  | { type: 'chat_deleted'; match: number; channel: ChatChannel; message: number }
  | { type: 'game_over'; match: number; result: MatchResult }
  | { type: 'match_abandoned'; match: number; message: string }
  | { type: 'error'; id?: Id; code: string; message: string; match?: number; seq?: number }
  | { type: 'pong'; id?: Id }
  | { type: 'ping' }
  | { type: 'shutdown'; message: string };

export type ChatChannel = 'players' | 'spectators';
// One chat message: `text` is text, to be shown as such (never parsed as markup).
export interface ChatLine {
  message: number; // its id: increasing in the order the server stored them
  from: string;
  time: number; // unix ms
  text: string;
}

// Clocks (docs/protocol.md, "Clocks"): the match's time control, and each seat's clock
// as of the message (a running one counts down from there: first `delay_ms`, then `left_ms`).
export interface ClockControl {
  control: string; // "10m+5s", "24h/turn"
  on_timeout: string; // "skip", "computer", "forfeit"
}
export interface SeatClock {
  left_ms: number;
  delay_ms: number;
  running: boolean;
  untimed: boolean;
  timeouts: number;
}
