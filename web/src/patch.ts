// Keyed in-place updates: a redraw keeps every child whose key and signature did
// not change, untouched, so the browser neither rebuilds nor restyles nor lays it
// out again; a child whose signature changed is morphed (dom.ts): its elements
// stay, only the attributes and texts that differ are written. An event changes
// one or two island groups and boards; the rest of the page stays as it is.
import { isFullRedraw, morph } from './dom.js';

export interface Keyed {
  key: string;
  sig: string; // everything the drawing depends on (handlers read current state when clicked)
  build(): Element;
  // Brings a kept element up to date itself (e.g. its own keyed parts) instead of a
  // build and a morph of the whole subtree.
  update?(node: Element): void;
}

const sigs = new WeakMap<Element, string>();
const keys = new WeakMap<Element, string>();

export function reconcile(parent: Element, items: Keyed[]): void {
  const old = new Map<string, Element>();
  for (const child of Array.from(parent.children)) {
    const k = keys.get(child);
    if (k === undefined || old.has(k)) child.remove();
    else old.set(k, child);
  }
  for (const n of Array.from(parent.childNodes)) if (n.nodeType !== 1) n.remove(); // stray text
  items.forEach((item, i) => {
    const prev = old.get(item.key);
    let node: Element;
    if (prev && sigs.get(prev) === item.sig && !isFullRedraw()) {
      node = prev;
    } else if (prev && item.update && !isFullRedraw()) {
      item.update(prev);
      node = prev;
      sigs.set(node, item.sig);
    } else {
      const fresh = item.build();
      if (prev && !isFullRedraw() && prev.nodeName === fresh.nodeName && prev.namespaceURI === fresh.namespaceURI) {
        morph(prev, fresh);
        node = prev;
      } else {
        node = fresh;
        keys.set(node, item.key);
        if (prev) prev.replaceWith(node);
      }
      sigs.set(node, item.sig);
    }
    old.delete(item.key);
    const at = parent.children[i];
    if (at !== node) parent.insertBefore(node, at ?? null);
  });
  for (const rest of old.values()) rest.remove();
}

// A persistent child of `parent` found by key, created by `make` the first time.
export function slot<T extends Element>(parent: Element, key: string, make: () => T): T {
  for (const child of Array.from(parent.children)) if (keys.get(child) === key) return child as T;
  const node = make();
  keys.set(node, key);
  sigs.set(node, '');
  parent.append(node);
  return node;
}
