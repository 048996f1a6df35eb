// Moving through a stored match's events (pure): one event, one turn (a run of
// events by the same seat), one round, or straight to event N.
export interface LogEntry {
  seq: number;
  at?: string;
  round: number | null; // null: past a divergence, where no trusted state says
  seat: number | null; // null: an event of the server (skip_turn, award_forfeit, create_match)
  type: string;
  text: string;
  trusted?: boolean; // false: stored past the first divergence, not re-checked
  diverges?: string; // on the first divergent event: what differs
}

export type Unit = 'event' | 'turn' | 'round';

function clamp(seq: number, last: number): number {
  return Math.max(0, Math.min(last, seq));
}

// The key an event groups by for `unit`.
function keyOf(e: LogEntry, unit: Unit): string {
  if (unit === 'round') return `r${e.round}`;
  // A seat's assistant and its action turn are two turns, even when back to back.
  return `r${e.round}s${e.seat}${e.type === 'play_assistant' ? 'p' : 'a'}`;
}

// The seq reached by one step of `unit` forward (dir 1) or back (dir -1) from `seq`
// (0 = before the first event). Forward goes to the last event of the next run;
// back to the last event of the previous run, so every stop shows a whole turn/round.
export function step(log: LogEntry[], seq: number, unit: Unit, dir: 1 | -1): number {
  const last = log.length ? log[log.length - 1]!.seq : 0;
  if (unit === 'event' || log.length === 0) return clamp(seq + dir, last);
  const idx = log.findIndex((e) => e.seq === seq); // -1 at seq 0
  if (dir === 1) {
    let i = idx + 1;
    if (i >= log.length) return last;
    const k = keyOf(log[i]!, unit);
    while (i + 1 < log.length && keyOf(log[i + 1]!, unit) === k) ++i;
    return log[i]!.seq;
  }
  if (idx <= 0) return 0;
  // Back over the run containing `seq`, to the end of the run before it.
  let i = idx;
  const k = keyOf(log[i]!, unit);
  while (i >= 0 && keyOf(log[i]!, unit) === k) --i;
  return i >= 0 ? log[i]!.seq : 0;
}

// `#match=12&seq=87` <-> {match, seq}.
export function parseHash(hash: string): { match: number | null; seq: number | null } {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const match = Number(params.get('match'));
  const seqText = params.get('seq');
  const seq = seqText === null ? NaN : Number(seqText);
  return {
    match: Number.isInteger(match) && match > 0 ? match : null,
    seq: Number.isInteger(seq) && seq >= 0 ? seq : null,
  };
}

export function formatHash(match: number, seq: number): string {
  return `#match=${match}&seq=${seq}`;
}
