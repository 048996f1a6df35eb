// Which things an event changed, by comparing the state before and after: the
// board highlights them (keys as used by board.ts: group-<first tile>, cloud-<i>,
// board-<seat>, character-<id>).
import type { GameState } from './state.js';

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function changedKeys(before: GameState | null, after: GameState): Set<string> {
  const out = new Set<string>();
  if (!before) return out;
  const old = new Map<number, unknown>();
  for (let g = 0; g < before.group_count; ++g) old.set(before.groups[g]!.first_tile, before.groups[g]);
  for (let g = 0; g < after.group_count; ++g) {
    const grp = after.groups[g]!;
    const prev = old.get(grp.first_tile);
    const mnMoved = (g === after.mother_nature) !== (before.groups[before.mother_nature]?.first_tile === grp.first_tile);
    if (!prev || !same(prev, grp) || mnMoved) out.add(`group-${grp.first_tile}`);
  }
  after.clouds.forEach((c, i) => {
    if (!same(c, before.clouds[i])) out.add(`cloud-${i}`);
  });
  after.boards.forEach((b, i) => {
    const profs = (s: GameState) => Object.entries(s.professors).filter(([, seat]) => seat === i).map(([c]) => c).join();
    if (!same(b, before.boards[i]) || profs(before) !== profs(after)) out.add(`board-${i}`);
  });
  after.characters.forEach((k, i) => {
    if (!same(k, before.characters[i])) out.add(`character-${k.id}`);
  });
  return out;
}
