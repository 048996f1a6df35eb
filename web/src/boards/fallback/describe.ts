// What the fallback board shows, as plain data (pure: no DOM, so the unit tests
// read it): any JSON view as a tree of named values, tables and groups; a command
// as the words on its button; whose turn it is.
import type { Command } from '../../protocol.js';

export type TreeNode =
  | { kind: 'value'; key: string; text: string } // a number, string, boolean or nothing
  | { kind: 'table'; key: string; columns: string[]; rows: string[][] } // an array of flat objects
  | { kind: 'group'; key: string; summary: string; children: TreeNode[]; open: boolean }; // an object, or any other array

// The groups this deep are open at first (the view and its state); deeper ones are
// a click (or Enter on the summary) away.
const kOpenDepth = 2;
// A flat object or a list of lists drawn on one line up to this many characters;
// longer, a group. A list of scalars is one line up to kInlineItems (it wraps).
const kInlineChars = 60;
const kInlineItems = 32;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function words(key: string): string {
  return key.replace(/_/g, ' ');
}

// A scalar as a person reads it: no quotes, and "—" for nothing (never "null").
function scalar(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v === '' ? '""' : v;
  return String(v);
}

// A small value on one line: `{green 2, pink 1}`, `[3, 14]`, `7`; null when it is
// not small (nested objects, or too long).
export function inline(v: unknown): string | null {
  if (!isObject(v) && !Array.isArray(v)) return scalar(v);
  let text: string;
  if (Array.isArray(v)) {
    if (v.some((x) => typeof x === 'object' && x !== null)) {
      const parts = v.map(inline);
      if (parts.some((p) => p === null)) return null;
      text = `[${parts.join(', ')}]`;
    } else {
      if (v.length > kInlineItems) return null;
      return `[${v.map(scalar).join(', ')}]`;
    }
  } else {
    const entries = Object.entries(v);
    if (entries.some(([, x]) => typeof x === 'object' && x !== null)) return null;
    text = `{${entries.map(([k, x]) => `${words(k)} ${scalar(x)}`).join(', ')}}`;
  }
  return text.length <= kInlineChars ? text : null;
}

// An array of objects whose fields are all small: a table, one row per element.
function asTable(key: string, list: unknown[]): TreeNode | null {
  if (list.length === 0 || !list.every(isObject)) return null;
  const columns: string[] = [];
  for (const row of list as Array<Record<string, unknown>>) for (const k of Object.keys(row)) if (!columns.includes(k)) columns.push(k);
  const rows: string[][] = [];
  for (const [i, row] of (list as Array<Record<string, unknown>>).entries()) {
    const cells = [String(i)];
    for (const c of columns) {
      const text = c in row ? inline(row[c]) : '';
      if (text === null) return null;
      cells.push(text);
    }
    rows.push(cells);
  }
  return { kind: 'table', key, columns: ['#', ...columns.map(words)], rows };
}

export function describe(value: unknown, key = 'view', depth = 0): TreeNode {
  if (!isObject(value) && !Array.isArray(value)) return { kind: 'value', key, text: scalar(value) };
  if (Array.isArray(value)) {
    const table = asTable(key, value);
    if (table) return table;
    const line = inline(value);
    if (line !== null) return { kind: 'value', key, text: line };
    return { kind: 'group', key, summary: `${key} (${value.length} ${value.length === 1 ? 'item' : 'items'})`, open: depth < kOpenDepth, children: value.map((x, i) => describe(x, String(i), depth + 1)) };
  }
  const entries = Object.entries(value);
  return {
    kind: 'group',
    key,
    summary: `${key} (${entries.length} ${entries.length === 1 ? 'field' : 'fields'})`,
    open: depth < kOpenDepth,
    children: entries.map(([k, x]) => describe(x, words(k), depth + 1)),
  };
}

// The words on a command's button, from its JSON: its type, then the fields whose
// name is a word of the type by their value alone ("choose cloud 1", "play card 3"),
// then the others by name ("move to island 3, color red").
export function commandLabel(cmd: Command): string {
  const typeWords = cmd.type.split('_');
  const named: string[] = [];
  let head = words(cmd.type);
  for (const [k, v] of Object.entries(cmd)) {
    if (k === 'type') continue;
    const text = inline(v) ?? JSON.stringify(v).replace(/"/g, '');
    if (typeWords.includes(k)) head += ` ${text}`;
    else named.push(`${words(k)} ${text}`);
  }
  return [head, ...named].join(', ');
}

// A type with more choices than this starts closed (Masters of Renaissance can offer
// 8,262 commands, 8,199 of them productions); an open one shows at most kMaxButtons
// at once, the rest found with the filter.
export const kOpenChoices = 100;
export const kMaxButtons = 200;

export interface CommandGroup {
  type: string;
  title: string; // "play card: 3 choices"; with a filter, "produce: 12 of 8199 choices"
  total: number; // commands of the type
  shown: Command[]; // the buttons drawn (those that match the filter, at most kMaxButtons)
  more: number; // matching commands not drawn
  many: boolean; // more than kOpenChoices: a group that opens and closes
  open: boolean; // its buttons are drawn
}

// The legal commands grouped by type, in the server's order. `filter`: words a
// button's label or JSON must contain (case does not matter); `opened`: the many-choice
// types the player opened. A type with nothing matching the filter is left out.
export function commandGroups(legal: Command[], filter: string, opened: ReadonlySet<string>): CommandGroup[] {
  const byType = new Map<string, Command[]>();
  for (const c of legal) {
    const list = byType.get(c.type) ?? [];
    list.push(c);
    byType.set(c.type, list);
  }
  const want = filter.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (c: Command): boolean => {
    if (!want.length) return true;
    const text = `${commandLabel(c)} ${JSON.stringify(c)}`.toLowerCase();
    return want.every((w) => text.includes(w));
  };
  const out: CommandGroup[] = [];
  for (const [type, list] of byType) {
    const hits = want.length ? list.filter(matches) : list;
    if (!hits.length) continue;
    const many = list.length > kOpenChoices;
    const open = !many || want.length > 0 || opened.has(type);
    const n = (k: number): string => `${k} ${k === 1 ? 'choice' : 'choices'}`;
    out.push({
      type,
      title: `${words(type)}: ${want.length ? `${hits.length} of ${n(list.length)}` : n(list.length)}`,
      total: list.length,
      shown: open ? hits.slice(0, kMaxButtons) : [],
      more: open ? Math.max(0, hits.length - kMaxButtons) : 0,
      many,
      open,
    });
  }
  return out;
}

// Whose turn it is, in words, from the seats the server waits for.
export function turnLine(names: string[], toAct: number[], mySeat: number | null, status: string): string {
  if (status === 'finished') return 'Game over';
  const who = (seat: number): string => (seat === mySeat ? 'you' : names[seat] || `seat ${seat}`);
  if (toAct.length === 0) return status === 'lobby' ? 'Waiting for players' : 'Waiting';
  if (mySeat !== null && toAct.includes(mySeat)) {
    const others = toAct.filter((s) => s !== mySeat).map(who);
    return others.length ? `Your turn (with ${others.join(' and ')})` : 'Your turn';
  }
  return `Waiting for ${toAct.map(who).join(' and ')}`;
}
