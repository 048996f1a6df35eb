// Computer players in the page (issue 15, docs/protocol.md `add_computer`): the
// requests the forms and buttons send and how seats held by a computer are shown.
// Pure, so the unit tests check exactly what the page sends and shows.
import type { GameOver, MatchModel, Request } from './model.js';
import type { MatchSummary, SeatInfo } from './protocol.js';

export const kLevels = ['greedy', 'strong', 'random'] as const; // the form's order: the default first

// The create form: `computers` seats for the computer at `level`; a match keeps at
// least one seat for its creator, and no computer means no level sent. `game`: the
// game chosen (left out: the server's default); `mode` (left out when '') is the
// protocol's shorthand for `options.mode`, `options` the game's other options.
// `priv`: a private match (never listed; the server answers with its invite code).
// `takeover`: the level of the computer that takes the seat of a player who leaves
// the started match ('' = none); sent only for 3 or 4 players, as the server wants.
// `clock`: the time control's compact text ('none' or '' = no clock, nothing sent);
// `onTimeout`: what a seat out of time gets, sent only with a clock.
export function createMatchRequest(players: number, mode: string, computers: number, level: string, game?: string, options: Record<string, string> = {}, priv = false, takeover = '', clock = '', onTimeout = 'skip'): Request {
  const n = Math.max(0, Math.min(computers, players - 1));
  return {
    type: 'create_match',
    ...(game ? { game } : {}),
    players,
    ...(mode ? { mode } : {}),
    ...(Object.keys(options).length ? { options } : {}),
    ...(n > 0 ? { computers: n, level } : {}),
    ...(priv ? { private: true } : {}),
    ...(takeover && players >= 3 ? { takeover } : {}),
    ...(clock && clock !== 'none' ? { clock, on_timeout: onTimeout } : {}),
  };
}

// The lobby's "Quick join": the same fields as the create form, but only those the
// protocol's quick_join has (`game`, `players`, `mode`).
export function quickJoinRequest(players: number, mode: string, game?: string): Request {
  return { type: 'quick_join', ...(game ? { game } : {}), players, ...(mode ? { mode } : {}) };
}

// "Play again" after a game over: the same players and mode with the same computer
// players, as many at the same levels (the player takes seat 0 of the new match, the
// computers the next seats, any seat left waits for a person). Computers of different
// levels (added one by one) are added again one by one, `then`, once the new match
// is joined. Without computers: a quick join, which may seat the player beside the
// people who want to play again too.
export function playAgainRequests(g: GameOver): { first: Request; then: Request[] } {
  const levels = g.computers;
  if (!levels.length) return { first: quickJoinRequest(g.players, g.mode, g.game), then: [] };
  if (levels.every((l) => l === levels[0])) {
    return { first: createMatchRequest(g.players, g.mode, levels.length, levels[0]!, g.game), then: [] };
  }
  return { first: createMatchRequest(g.players, g.mode, 0, '', g.game), then: levels.map(addComputerRequest) };
}

export function addComputerRequest(level: string): Request {
  return { type: 'add_computer', level };
}

export function removeComputerRequest(seat: number): Request {
  return { type: 'remove_computer', seat };
}

// Seats may change only while the match waits for players, and only its creator may
// change them; the page does not know who created it, so every seated player is
// offered the buttons and the server's refusal (NOT_CREATOR) is shown in words.
function seatsEditable(m: MatchModel): boolean {
  return m.status === 'lobby' && m.mySeat !== null;
}

export function canAddComputer(m: MatchModel): boolean {
  return seatsEditable(m) && m.seats.some((s) => s.nickname === null);
}

export interface SeatShown {
  seat: number;
  text: string;
  computer: string | null; // its level
  online: boolean;
  removable: boolean; // a "remove" button frees it
}

export function seatText(s: SeatInfo): string {
  if (s.nickname === null) return `seat ${s.seat} free`;
  if (s.computer) return `${s.nickname} (computer, ${s.computer})`;
  return s.connected ? s.nickname : `${s.nickname} (offline)`;
}

// The match screen's seat list.
export function seatsShown(m: MatchModel): SeatShown[] {
  return m.seats.map((s) => ({
    seat: s.seat,
    text: seatText(s),
    computer: s.computer ?? null,
    online: s.connected,
    removable: Boolean(s.computer) && seatsEditable(m),
  }));
}

// A lobby row's seats: "alice, Computer 1 (strong), —".
export function lobbySeatsText(ms: MatchSummary): string {
  return ms.seats.map((s) => (s.nickname ?? '—') + (s.computer ? ` (${s.computer})` : '')).join(', ');
}
