// Masters of Renaissance's sentences for the header, the resign question and the game
// over's reasons (pure).
import { type State, seatName } from './state.js';

export function turnText(state: State, names: string[], viewer: number, toAct: number[]): string {
  if (state.phase === 'game_over') return 'Game over';
  if (state.phase === 'setup') {
    const waiting = toAct.map((seat) => {
      const b = state.boards[seat];
      const what = b && !b.leaders_chosen ? 'leaders' : 'resources';
      return seat === viewer ? `you (${what})` : `${seatName(names, seat)} (${what})`;
    });
    return waiting.length ? `Setup: waiting for ${waiting.join(', ')}` : 'Setup: waiting for players';
  }
  const seat = state.current;
  if (seat < 0) return 'Waiting';
  const who = seat === viewer ? 'Your turn' : `${seatName(names, seat)}'s turn`;
  const doing = state.main_action_done ? 'leader actions, arrange, or end the turn' : 'take from the market, buy a card or produce';
  return `${who}: ${doing}${state.final_round ? ' (final round)' : ''}`;
}

export function summaryText(state: State): string {
  const n = state.options.players;
  const who = n === 1 ? 'solo against Lorenzo' : `${n} players`;
  const phase = state.phase === 'setup' ? 'setup' : state.phase === 'game_over' ? 'game over' : `turn ${state.turn}`;
  return `${who} · ${phase}${state.final_round ? ' · final round' : ''}`;
}

export function resignText(players: number): string {
  if (players === 1) return 'Resign? Lorenzo wins at once.';
  return 'Resign? The game ends at once: you are ranked last whatever your points, the others by their points.';
}

// The game's end reasons (docs/renaissance/protocol.md 4), for the game-over screen.
export const REASONS: Record<string, string> = {
  faith_track: 'a faith marker reached the end of the track',
  seventh_card: 'a seventh development card was bought',
  black_cross: "Lorenzo's black cross reached the end of the track",
  colour_gone: 'a colour of development cards ran out',
};
