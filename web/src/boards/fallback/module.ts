// The fallback board: any game, drawn generically. Whose turn it is, every legal
// command the server sent as a button that sends exactly that command, the view
// as a collapsible tree (tables for lists of records), and the event log. Buttons,
// <details> and tables: usable by keyboard and screen reader as they are.
import type { Board, BoardHeader, BoardHost, BoardModule, MatchInfo } from '../board_module.js';
import { h, patchChildren } from '../../dom.js';
import type { Command } from '../../protocol.js';
import { type TreeNode, commandLabel, describe, turnLine } from './describe.js';

export function renderTree(node: TreeNode): HTMLElement {
  switch (node.kind) {
    case 'value':
      return h('div', { class: 'tv-value', 'data-key': node.key }, h('span', { class: 'tv-key' }, node.key), ': ', h('span', { class: 'tv-text' }, node.text));
    case 'table':
      return h(
        'div',
        { class: 'tv-table', 'data-key': node.key },
        h(
          'table',
          {},
          h('caption', {}, node.key),
          h('thead', {}, h('tr', {}, ...node.columns.map((c) => h('th', { scope: 'col' }, c)))),
          h('tbody', {}, ...node.rows.map((r) => h('tr', {}, ...r.map((cell, i) => (i === 0 ? h('th', { scope: 'row' }, cell) : h('td', {}, cell)))))),
        ),
      );
    case 'group':
      return h('details', { class: 'tv-group', 'data-key': node.key, open: node.open }, h('summary', {}, node.summary), ...node.children.map(renderTree));
  }
}

// The commands, grouped by type (a type with many choices is one labelled group).
export function renderCommands(legal: Command[], send: (cmd: Command) => void, enabled: boolean): HTMLElement[] {
  const byType = new Map<string, Command[]>();
  for (const c of legal) {
    const list = byType.get(c.type) ?? [];
    list.push(c);
    byType.set(c.type, list);
  }
  return [...byType.entries()].map(([type, list]) =>
    h(
      'div',
      { class: 'fb-type', role: 'group', 'aria-label': `${type.replace(/_/g, ' ')}: ${list.length} ${list.length === 1 ? 'choice' : 'choices'}` },
      ...list.map((cmd) => {
        const label = commandLabel(cmd);
        const json = JSON.stringify(cmd);
        return h('button', { class: 'fb-command', 'data-command': json, title: json, 'aria-label': label, disabled: !enabled, onclick: () => send(cmd) }, label);
      }),
    ),
  );
}

function createBoard(host: BoardHost): Board {
  let parts: { commands: HTMLElement; tree: HTMLElement } | null = null;
  return {
    mount(el: HTMLElement): void {
      const commands = h('div', { class: 'fb-commands' });
      const tree = h('div', { class: 'fb-tree' });
      el.append(
        h(
          'div',
          { class: 'fallback-board', 'data-board': 'fallback' },
          host.replay ? null : h('section', { class: 'fb-section', 'aria-label': 'your commands' }, h('h3', {}, 'Your commands'), commands),
          h('section', { class: 'fb-section', 'aria-label': 'the view' }, h('h3', {}, 'View'), tree),
          h('section', { class: 'fb-section', 'aria-label': 'events' }, h('h3', {}, 'Events'), host.log),
        ),
      );
      parts = { commands, tree };
    },

    update(view: unknown, info: MatchInfo): void {
      const p = parts;
      if (!p) return;
      const enabled = !info.offline;
      if (!host.replay) {
        const list = renderCommands(info.legal, (cmd) => host.play(cmd), enabled);
        patchChildren(p.commands, list.length ? list : [h('p', { class: 'hint' }, info.mySeat === null ? 'You are watching: no commands.' : 'Nothing to do now.')]);
      }
      patchChildren(p.tree, [renderTree(describe(view))]);
    },

    header(_view: unknown, info: MatchInfo): BoardHeader {
      const mine = info.mySeat !== null && info.toAct.includes(info.mySeat);
      return {
        summary: `${info.title} · ${info.seats.length} players · event ${info.seq} (generic board)`,
        // Read out when it changes: a screen reader hears "Your turn" without looking for it.
        lines: [h('div', { class: `turn ${mine ? 'mine' : ''}`, 'data-turn': 1, 'aria-live': 'polite' }, turnLine(info.names, info.toAct, info.mySeat, info.status))],
      };
    },

    resignQuestion(): string {
      return 'Resign? You lose the match at once.';
    },
  };
}

export const fallbackBoard: BoardModule = {
  game: '',
  create: createBoard,
};
