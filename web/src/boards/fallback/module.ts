// The fallback board: any game, drawn generically. Whose turn it is, every legal
// command the server sent as a button that sends exactly that command, the view
// as a collapsible tree (tables for lists of records), and the event log. Buttons,
// <details> and tables: usable by keyboard and screen reader as they are.
import type { Board, BoardHeader, BoardHost, BoardModule, MatchInfo } from '../board_module.js';
import { h, patchChildren } from '../../dom.js';
import type { Command } from '../../protocol.js';
import { type CommandGroup, type TreeNode, commandGroups, commandLabel, describe, kOpenChoices, turnLine } from './describe.js';

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

function commandButton(cmd: Command, send: (cmd: Command) => void, enabled: boolean): HTMLElement {
  const label = commandLabel(cmd);
  const json = JSON.stringify(cmd);
  return h('button', { class: 'fb-command', 'data-command': json, title: json, 'aria-label': label, disabled: !enabled, onclick: () => send(cmd) }, label);
}

// The commands, grouped by type: a labelled group of buttons, or for a type with many
// choices a group that opens (its buttons drawn only then, at most kMaxButtons).
export function renderCommands(groups: CommandGroup[], send: (cmd: Command) => void, enabled: boolean, toggled: (type: string, open: boolean) => void): HTMLElement[] {
  return groups.map((g) => {
    const buttons = g.shown.map((cmd) => commandButton(cmd, send, enabled));
    const more = g.more > 0 ? h('p', { class: 'hint', 'data-more': g.more }, `and ${g.more} more: narrow them with the filter`) : null;
    if (!g.many) return h('div', { class: 'fb-type', role: 'group', 'aria-label': g.title, 'data-type': g.type }, ...buttons, more);
    return h(
      'details',
      { class: 'fb-type fb-many', 'data-type': g.type, open: g.open, ontoggle: (ev: Event) => toggled(g.type, (ev.currentTarget as HTMLDetailsElement).open) },
      h('summary', {}, g.title),
      h('div', { class: 'fb-type', role: 'group', 'aria-label': g.title }, ...buttons, more),
    );
  });
}

function createBoard(host: BoardHost): Board {
  let parts: { commands: HTMLElement; filter: HTMLInputElement; tree: HTMLElement } | null = null;
  let filter = ''; // what the filter box holds
  const opened = new Set<string>(); // the many-choice types the player opened
  // What the parts were last drawn from: a redraw that changes none of it (a deadline's
  // countdown, a presence change) leaves them alone.
  let drawnView: unknown = null;
  let drawnLegal: unknown = null;
  let drawnCommands = '';
  const toggled = (type: string, open: boolean): void => {
    if (filter.trim()) return; // opened by the filter, not by the player
    if (open === opened.has(type)) return;
    if (open) opened.add(type);
    else opened.delete(type);
    host.redraw();
  };
  return {
    mount(el: HTMLElement): void {
      const commands = h('div', { class: 'fb-commands' });
      const input = h('input', {
        type: 'search',
        class: 'fb-filter',
        'aria-label': 'filter the commands',
        placeholder: 'filter the commands (words of a button)',
        oninput: (ev: Event) => {
          filter = (ev.currentTarget as HTMLInputElement).value;
          host.redraw();
        },
      }) as HTMLInputElement;
      input.value = filter;
      const tree = h('div', { class: 'fb-tree' });
      el.append(
        h(
          'div',
          { class: 'fallback-board', 'data-board': 'fallback' },
          host.replay ? null : h('section', { class: 'fb-section', 'aria-label': 'your commands' }, h('h3', {}, 'Your commands'), input, commands),
          h('section', { class: 'fb-section', 'aria-label': 'the view' }, h('h3', {}, 'View'), tree),
          h('section', { class: 'fb-section', 'aria-label': 'events' }, h('h3', {}, 'Events'), host.log),
        ),
      );
      parts = { commands, filter: input, tree };
      drawnView = null;
      drawnLegal = null;
    },

    update(view: unknown, info: MatchInfo): void {
      const p = parts;
      if (!p) return;
      const enabled = !info.offline;
      const commandsKey = JSON.stringify([filter, [...opened], enabled, info.mySeat]);
      if (!host.replay && (info.legal !== drawnLegal || commandsKey !== drawnCommands)) {
        drawnLegal = info.legal;
        drawnCommands = commandsKey;
        // The filter is offered once there are more commands than one screen holds.
        p.filter.hidden = info.legal.length <= kOpenChoices && !filter;
        const list = renderCommands(commandGroups(info.legal, filter, opened), (cmd) => host.play(cmd), enabled, toggled);
        const none = info.legal.length ? `No command matches "${filter.trim()}".` : info.mySeat === null ? 'You are watching: no commands.' : 'Nothing to do now.';
        patchChildren(p.commands, list.length ? list : [h('p', { class: 'hint' }, none)]);
      }
      if (view !== drawnView) {
        drawnView = view;
        patchChildren(p.tree, [renderTree(describe(view))]);
      }
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
