// The board modules of this build, by game name. Adding a game's board is one line
// here; a game without one is drawn by the fallback board.
import type { Command } from '../protocol.js';
import type { BoardModule } from './board_module.js';
import { eriantysBoard } from './eriantys/module.js';
import { fallbackBoard } from './fallback/module.js';
import { renaissanceBoard } from './renaissance/module.js';

const kModules: BoardModule[] = [eriantysBoard, renaissanceBoard];

// A server or replay API that names no game predates issue 24: its matches are Eriantys.
export const kLegacyGame = 'eriantys';

// `forced`: the `?board=` parameter of the page's address (`?board=fallback` draws
// every game with the fallback board, a debugging aid).
export function boardModuleFor(game: string | null, forced: string | null = null): BoardModule {
  if (forced === 'fallback') return fallbackBoard;
  const name = game ?? kLegacyGame;
  return kModules.find((m) => m.game === name) ?? fallbackBoard;
}

// The page's `?board=` parameter, or null.
export function forcedBoard(search: string): string | null {
  return new URLSearchParams(search).get('board');
}

// A server older than `legal`: the candidates from the match's game's module, if it can.
export function legacyLegal(game: string | null, view: unknown, seat: number | null, allowed: string[]): Command[] {
  return boardModuleFor(game).legacyLegal?.(view, seat, allowed) ?? [];
}
