// The one interface between the page's shell (login, lobby, connection, presence,
// deadlines, the move log, the replay viewer's frame: src/*.ts) and a game's board
// (src/boards/<game>/). The shell knows a game only as a `BoardModule` chosen by the
// match's `game`; a game without one gets the fallback board (src/boards/fallback/).
// docs/web.md, "Board modules", says what each member is for.
import type { Command, MatchResult, SeatInfo } from '../protocol.js';

// What the shell knows of the match on screen, whatever the game.
export interface MatchInfo {
  match: number;
  game: string;
  title: string; // the game's title (`welcome`'s games), else its name
  seq: number; // the last event folded (0 before any)
  status: string; // lobby, running, finished (docs/protocol.md)
  seats: SeatInfo[];
  names: string[]; // nickname by seat ('' for a free seat)
  mySeat: number | null; // null: a spectator (or the replay viewer)
  toAct: number[]; // the seats the server waits for
  legal: Command[]; // the viewer's legal commands, exactly as the server sent them
  offline: boolean; // the connection is down: nothing clicked would reach the server
}

// What the shell gives a board.
export interface BoardHost {
  // Sends exactly this command as a `play` (the shell adds `expected_seq` and `command_id`)
  // and draws again.
  play(command: Command): void;
  // The board's own state changed (a selection): draw again (the shell calls `update`).
  redraw(): void;
  // The shell's move log (an <ol class="log">, kept up to date by the shell): the board
  // puts it where its layout wants it, once, in `mount`.
  log: HTMLElement;
  // The replay viewer: nothing is clicked, nothing is sent.
  replay: boolean;
}

// The shell's header of the match screen, from the board: `summary` follows
// "Match #N · ", `lines` come under it (the turn line first).
export interface BoardHeader {
  summary: string;
  lines: Array<Node | string | null>;
}

export interface Board {
  // Builds the board's elements into `el` (a fresh, empty element; the shell calls it
  // again with a new one when it rebuilds the page, `?redraw=full`).
  mount(el: HTMLElement): void;
  // Draws `view` (the `view` of the server's state and event messages, as it came).
  update(view: unknown, info: MatchInfo): void;
  // The header's parts for `view`.
  header(view: unknown, info: MatchInfo): BoardHeader;
  // The question asked before `resign` is sent (window.confirm).
  resignQuestion(view: unknown, info: MatchInfo): string;
}

// A create-match option of a game (a select in the lobby): `name` is the key of
// create_match's `options` (`mode` is also sent as the shorthand field).
export interface GameOption {
  name: string;
  label: string;
  values: string[]; // the first is the default
}

export interface BoardModule {
  game: string; // the name in `welcome`'s `games` and the match summaries' `game`
  create(host: BoardHost): Board;
  // The lobby's create form for this game (none: players only).
  options?: GameOption[];
  // The label of a player count in the create form ("4 players (teams)").
  playersLabel?(players: number): string;
  // A seat's team in the lobby's "Join seat N (team A)" (none: no teams).
  seatTeam?(seat: number, players: number): string | null;
  // The words of the game's own `result.reason`s on the game-over screen.
  reasons?: Record<string, string>;
  // The game-over screen's first line when the game words it itself (a solo game
  // Lorenzo won has no winning seat); null: the shell's ("alice won: ...").
  resultLine?(result: MatchResult, me: string | null, resigned: string | null): string | null;
  // A server older than the `legal` field (it sends `allowed` only): the candidates.
  legacyLegal?(view: unknown, seat: number | null, allowed: string[]): Command[];
}
