// Sentences of the shell for any game: deadlines and the game-over screen (pure).
import type { Deadline, MatchResult } from './protocol.js';

// `waiting`: the match still waits for players (its `abandon` names nobody: it ends
// unless somebody joins).
export function deadlineText(d: Deadline, seconds: number, waiting = false): string {
  const who = d.nickname ?? (typeof d.seat === 'number' ? `seat ${d.seat}` : null);
  switch (d.action) {
    case 'skip_turn':
      if (!who) return `a turn is skipped in ${seconds} s`;
      return `${who} is offline: their turn is skipped in ${seconds} s`;
    case 'take_over':
      if (!who) return `a computer takes an absent player's seat in ${seconds} s`;
      return `${who} is offline: a computer takes their seat in ${seconds} s`;
    case 'forfeit':
      if (!who) return `the match is awarded by forfeit in ${seconds} s unless someone comes back`;
      return `${who} wins by forfeit in ${seconds} s unless someone comes back`;
    case 'abandon':
      if (waiting) return `the match is abandoned in ${seconds} s unless a player joins`;
      return `the match is abandoned in ${seconds} s unless ${who ?? 'a player'} comes back`;
    case 'remove':
      if (!who) return `the players still choosing are removed in ${seconds} s`;
      return `${who} is removed from the match in ${seconds} s unless they choose`;
    default:
      return `${d.action}${who ? ` for ${who}` : ''} in ${seconds} s`;
  }
}

// The platform's own end reasons (docs/protocol.md); a board module adds its game's.
const REASONS: Record<string, string> = {
  forfeit: 'the others left (forfeit)',
  resign: 'a player resigned',
  abandoned: 'nobody was connected to play it',
  ended: 'an operator ended the match',
};

// `resigned`: who resigned, when that ended the match.
// `reasons`: the game's words for its own reasons (its board module's). `outOfTime`: the
// resignation was the clock's (on_timeout "forfeit").
export function resultText(result: MatchResult, me: string | null, resigned: string | null = null, reasons: Record<string, string> = {}, outOfTime = false): string {
  const resignedWhy = (who: string): string => (outOfTime ? (who === me ? 'your time ran out' : `${who}'s time ran out`) : who === me ? 'you resigned' : `${who} resigned`);
  const why = resigned ? resignedWhy(resigned) : (reasons[result.reason] ?? REASONS[result.reason] ?? result.reason.replace(/_/g, ' '));
  const names = result.nicknames.map((n, i) => n || `seat ${result.winners[i] ?? '?'}`).join(' and ');
  if (result.draw) return `A draw between ${names}: ${why}.`;
  if (me && result.nicknames.includes(me)) return `You win: ${why}.`;
  return `${names || 'Nobody'} won: ${why}.`;
}

// The platform's members of a result; any other is the game's own (docs/protocol.md).
// `places` and `teams` are what ratings are computed from: the winners already say it.
const kPlatformMembers = new Set(['reason', 'winners', 'nicknames', 'draw', 'places', 'teams']);

// A game's own members of a result, one line each, in words: a list of one number per
// seat by nickname ("Scores: alice 4, bob 11", Goofspiel's and Masters of
// Renaissance's `scores`), a flag as yes or no ("Lorenzo won: yes"), anything else as it
// reads. `names`: the nickname by seat of the ended match ('' for a seat without one).
export function resultDetails(result: MatchResult, names: string[]): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(result)) {
    if (kPlatformMembers.has(key)) continue;
    const label = key.charAt(0).toUpperCase() + key.slice(1).replace(/_/g, ' ');
    let text: string;
    if (Array.isArray(value) && value.length === names.length && value.every((v) => typeof v === 'number')) {
      text = value.map((v, seat) => `${names[seat] || `seat ${seat}`} ${v}`).join(', ');
    } else if (typeof value === 'boolean') {
      text = value ? 'yes' : 'no';
    } else if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) {
      text = `[${value.map(String).join(', ')}]`;
    } else {
      text = typeof value === 'string' ? value : JSON.stringify(value);
    }
    out.push(`${label}: ${text}`);
  }
  return out;
}
