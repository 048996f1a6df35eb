// The board facts of `eryantis-replay DB show MATCH --at N --no-color` (the render
// layer's text, src/render/board.cpp), and the same facts read from the web
// client's DOM: the browser test compares the two.

const LETTERS = { Y: 'yellow', B: 'blue', G: 'green', R: 'red', P: 'pink' };
const ORDER = ['Y', 'B', 'G', 'R', 'P'];

// "Y2 B1" / "-" / "Y2  B1  .   R3  .": normalised to "Y2 B1" (colour order, no zero).
export function normStudents(text) {
  const counts = {};
  for (const m of String(text).matchAll(/([YBGRP])(\d+)/g)) counts[m[1]] = (counts[m[1]] ?? 0) + Number(m[2]);
  const parts = ORDER.filter((c) => counts[c] > 0).map((c) => `${c}${counts[c]}`);
  return parts.length ? parts.join(' ') : '-';
}

// Parses the text board into {header, groups[], clouds[], boards[]}.
export function parseShow(text) {
  const lines = text.split('\n');
  const out = { round: 0, phase: '', bag: -1, supply: null, groups: [], clouds: [], boards: [] };
  const head = lines.find((l) => l.startsWith('ERYANTIS |'));
  if (!head) throw new Error(`no board header in:\n${text}`);
  const round = head.match(/round (\d+)/);
  out.round = round ? Number(round[1]) : 0;
  out.phase = head.includes('planning phase') ? 'planning' : head.includes('action phase') ? 'action' : head.includes('game over') ? 'game_over' : 'setup';
  out.bag = Number(head.match(/bag (\d+)/)[1]);
  const supply = head.match(/supply (\d+) coins/);
  out.supply = supply ? Number(supply[1]) : null;
  let i = lines.findIndex((l) => l.startsWith('Islands ('));
  if (/^ {6}island /.test(lines[i + 1] ?? '')) i += 1; // the table's column headers
  for (i += 1; i < lines.length && /^( {2}MN> | {6})\S/.test(lines[i]); ++i) {
    const l = lines[i];
    const mn = l.startsWith('  MN>');
    const m = l.slice(6).match(/^(\S+)\s+((?:(?:[YBGRP]\d+|\.)\s*){5})\s*(\d+)\s+(no tower|(black|white|grey) x(\d+))(?:\s+no-entry x(\d+))?/);
    if (!m) throw new Error(`cannot read island line: ${l}`);
    out.groups.push({ tiles: m[1], students: normStudents(m[2]), tower: m[5] ?? '', towers: m[5] ? Number(m[6]) : 0, noEntry: Number(m[7] ?? 0), mn });
  }
  const cl = lines.find((l) => l.startsWith('Clouds:'));
  for (const m of cl.matchAll(/(\d+) \[([^\]]*)\]/g)) out.clouds.push(m[2] === 'taken' ? 'taken' : normStudents(m[2]));
  for (let j = 0; j < lines.length; ++j) {
    const t = lines[j].match(/^(?:> )?.*\(seat (\d+)[,)]/);
    if (!t || !lines[j + 1]?.startsWith('  entrance')) continue;
    const title = lines[j];
    const towers = title.match(/\| towers (\d+)/);
    const coins = title.match(/\| coins (\d+)/);
    const profs = title.match(/\| professors ((?:[YBGRP] ?)+)/);
    const ent = lines[j + 1].match(/^ {2}entrance {2}(.*?)\(\d+\)/);
    // The hand: "  hand      1:1 2:1 ... (assistant:Mother Nature steps)" on its own line
    // (older boards: "| hand 1 2 ..." at the end of the entrance line).
    const handLine = lines.slice(j + 1, j + 5).find((l) => l.startsWith('  hand '));
    const hand = handLine
      ? [null, handLine.replace(/^ {2}hand\s+/, '').replace(/\s*\(assistant:.*\)\s*$/, '').replace(/(\d+):\d+/g, '$1')]
      : lines[j + 1].match(/\| hand (.*)$/);
    const dining = {};
    for (const m of lines[j + 2].matchAll(/([YBGRP])\[([^\]]*)\]/g)) dining[m[1]] = (m[2].match(/[YBGRP]/g) ?? []).length;
    out.boards.push({
      seat: Number(t[1]),
      entrance: normStudents(ent[1]),
      dining: normStudents(ORDER.map((c) => `${c}${dining[c] ?? 0}`).join(' ')),
      towers: towers ? Number(towers[1]) : null,
      coins: coins ? Number(coins[1]) : null,
      professors: profs ? profs[1].trim().split(' ').join(' ') : '',
      hand: hand && hand[1].trim() !== '-' ? hand[1].trim() : '',
    });
  }
  return out;
}

// The same facts from the page (runs in the browser: no imports).
export function domFacts() {
  const q = (sel) => [...document.querySelectorAll(sel)];
  const norm = (t) => {
    const counts = {};
    for (const m of String(t).matchAll(/([YBGRP])(\d+)/g)) counts[m[1]] = (counts[m[1]] ?? 0) + Number(m[2]);
    const parts = ['Y', 'B', 'G', 'R', 'P'].filter((c) => counts[c] > 0).map((c) => `${c}${counts[c]}`);
    return parts.length ? parts.join(' ') : '-';
  };
  return {
    groups: q('[data-group]').map((g) => ({
      tiles: g.dataset.tiles,
      students: norm(g.dataset.students),
      tower: g.dataset.tower,
      towers: g.dataset.tower ? Number(g.dataset.towers) : 0,
      noEntry: Number(g.dataset.noEntry),
      mn: g.dataset.mn === '1',
    })),
    clouds: q('[data-cloud]').map((c) => (c.dataset.students === 'taken' ? 'taken' : norm(c.dataset.students))),
    boards: q('section[data-board]').map((b) => ({
      seat: Number(b.dataset.board),
      entrance: norm(b.dataset.entrance),
      dining: norm(b.dataset.dining),
      towers: Number(b.dataset.towers),
      coins: Number(b.dataset.coins),
      professors: b.dataset.professors,
      hand: b.dataset.hand,
    })),
  };
}

// Differences between the text board and the DOM, as sentences (empty = equal).
export function compareFacts(show, dom) {
  const diffs = [];
  const eq = (what, a, b) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) diffs.push(`${what}: show ${JSON.stringify(a)} vs page ${JSON.stringify(b)}`);
  };
  eq('island groups', show.groups.length, dom.groups.length);
  show.groups.forEach((g, i) => eq(`island group ${g.tiles}`, g, dom.groups[i]));
  eq('clouds', show.clouds, dom.clouds);
  eq('boards', show.boards.length, dom.boards.length);
  show.boards.forEach((b, i) => {
    const d = dom.boards[i] ?? {};
    eq(`board ${b.seat} entrance`, b.entrance, d.entrance);
    eq(`board ${b.seat} dining`, b.dining, d.dining);
    eq(`board ${b.seat} professors`, b.professors, d.professors);
    eq(`board ${b.seat} hand`, b.hand, d.hand);
    if (b.towers !== null) eq(`board ${b.seat} towers`, b.towers, d.towers);
    if (b.coins !== null) eq(`board ${b.seat} coins`, b.coins, d.coins);
  });
  return diffs;
}

export { LETTERS };
