// Eriantys's sentences for the status bar, the resign question and the game-over
// screen's reasons (pure).
import type { GameState } from './state.js';
import { CHARACTER_TITLES, currentSeat } from './state.js';

function name(names: string[], seat: number): string {
  return names[seat] || `seat ${seat}`;
}

// Whose turn it is and what they may do, e.g. "Your turn: move a student (1 of 3 moved) or use a character".
// `characterNow`: a character is usable now (a `use_*` among the viewer's legal
// commands); only then is it offered, and only on the viewer's own turn.
export function turnText(state: GameState, names: string[], viewer: number, toAct: number[], characterNow = false): string {
  if (state.phase === 'game_over') return 'Game over';
  if (state.phase === 'setup') {
    const waiting = toAct.map((seat) => {
      const b = state.boards[seat]!;
      const what = [b.wizard === null ? 'a wizard' : '', b.tower_color === null ? 'a tower colour' : ''].filter(Boolean).join(' and ');
      return seat === viewer ? `you (${what})` : `${name(names, seat)} (${what})`;
    });
    return waiting.length ? `Setup: waiting for ${waiting.join(', ')}` : 'Setup: waiting for players';
  }
  const seat = currentSeat(state);
  if (seat < 0) return 'Waiting';
  const who = seat === viewer ? 'Your turn' : `${name(names, seat)}'s turn`;
  const b = state.boards[seat]!;
  let doing: string;
  if (state.phase === 'planning') {
    doing = 'play an assistant';
  } else if (b.skipped_planning) {
    doing = 'absent this round: the server skips the turn';
  } else {
    const perTurn = state.options.players === 3 ? 4 : 3;
    if (state.turn.students_moved < perTurn) doing = `move a student (${state.turn.students_moved} of ${perTurn} moved)`;
    else if (!state.turn.mother_nature_moved) doing = 'move Mother Nature';
    else if (!state.skip_clouds) doing = 'choose a cloud';
    else doing = 'end the turn';
    if (characterNow && seat === viewer) doing += ' or use a character';
  }
  return `${who}: ${doing}`;
}

export function roundText(state: GameState): string {
  const phase = { setup: 'setup', planning: 'planning phase', action: 'action phase', game_over: 'game over' }[state.phase];
  const parts = [state.round > 0 ? `Round ${state.round}` : '', phase];
  if (state.last_round) parts.push('last round');
  if (state.turn.active && state.phase === 'action') parts.push(`${CHARACTER_TITLES[state.turn.active] ?? state.turn.active} active`);
  if (state.turn.excluded_color) parts.push(`${state.turn.excluded_color} gives no influence`);
  return parts.filter(Boolean).join(' · ');
}

export function orderText(state: GameState, names: string[]): string {
  if (state.phase !== 'planning' && state.phase !== 'action') return '';
  const order: string[] = [];
  for (let i = 0; i < state.order_size; ++i) {
    const n = name(names, state.order[i]!);
    order.push(i === state.turn_index ? `[${n}]` : n);
  }
  return order.join(' › ');
}

// The question before resigning: what it does with this many players (docs/rules.md,
// Decision 26). `names` by seat, `seat` the player's own.
export function resignText(players: number, names: string[], seat: number): string {
  const others = Array.from({ length: players }, (_, i) => i).filter((i) => i !== seat);
  if (players === 4) {
    const partner = (seat + 2) % 4;
    const them = others.filter((i) => i !== partner).map((i) => name(names, i));
    return `Resign for your team? You and ${name(names, partner)} lose the match at once, and ${them.join(' and ')} win.`;
  }
  if (players === 3) {
    const [a, b] = others.map((i) => name(names, i));
    return `Resign? You lose the match at once. ${a} and ${b} are ranked by towers built, then by professors; if they are still tied, both win.`;
  }
  return `Resign? You lose the match at once, and ${name(names, others[0] ?? 0)} wins.`;
}

// The game's end reasons (docs/state.md), for the game-over screen.
export const REASONS: Record<string, string> = {
  last_tower: 'the last tower was built',
  three_groups: 'only three island groups are left',
  bag_empty: 'the bag ran out of students',
  no_assistants: 'the assistants ran out',
};
