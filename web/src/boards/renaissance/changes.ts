// Which parts an event changed, by comparing the state before and after: the board
// highlights them (keys: market, grid, board-<seat>).
import type { State } from './state.js';

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export function changedKeys(before: State | null, after: State): Set<string> {
  const out = new Set<string>();
  if (!before) return out;
  if (!same(before.market, after.market)) out.add('market');
  if (!same(before.grid.size, after.grid.size)) out.add('grid');
  after.boards.forEach((b, i) => {
    if (!same(b, before.boards[i])) out.add(`board-${i}`);
  });
  return out;
}
