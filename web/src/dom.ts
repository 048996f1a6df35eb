// Two small element builders and an in-place update (`morph`). Parts of the page
// are described by building detached elements (cheap: nothing is styled or laid
// out until attached); `morph` then brings the live elements to that description
// by changing only the attributes and texts that differ, so the nodes on screen
// are reused and the browser restyles only what changed.
type Handler = (ev: Event) => void;
type Attrs = Record<string, string | number | boolean | null | undefined | Handler>;
type Child = Node | string | number | null | undefined | false;

// Event handlers live beside the element, not as listeners on it: one listener per
// event type dispatches to the current handler, so `morph` can hand a live element
// the handlers of its new description (they close over the new draw's values).
const handlers = new WeakMap<Element, Record<string, Handler>>();
// The attributes each element was given, as a plain object: `morph` compares these
// (reading attributes back from the DOM costs several times more).
const given = new WeakMap<Element, Record<string, string>>();
// A signature of everything an element's subtree was drawn from (`memo`): `morph`
// leaves a live subtree alone when its description has the same one.
const memos = new WeakMap<Element, string>();

export function memo<T extends Element>(node: T, sig: string): T {
  memos.set(node, sig);
  return node;
}

function dispatch(this: Element, ev: Event): void {
  handlers.get(this)?.[ev.type]?.(ev);
}

function setHandler(node: Element, type: string, fn: Handler): void {
  let map = handlers.get(node);
  if (!map) handlers.set(node, (map = {}));
  if (!(type in map)) node.addEventListener(type, dispatch);
  map[type] = fn;
}

function fill(node: Element, attrs: Attrs, children: Child[]): void {
  const record: Record<string, string> = {};
  for (const k in attrs) {
    const v = attrs[k];
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === 'function') setHandler(node, k.replace(/^on/, ''), v);
    else node.setAttribute(k, (record[k] = v === true ? '' : String(v)));
  }
  given.set(node, record);
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    node.append(typeof c === 'object' ? c : document.createTextNode(String(c)));
  }
}

export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag);
  fill(node, attrs, children);
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function s(tag: string, attrs: Attrs = {}, ...children: Child[]): SVGElement {
  const node = document.createElementNS(SVG_NS, tag);
  fill(node, attrs, children);
  return node;
}

export function clear(node: Element): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

// --- in-place updates -----------------------------------------------------------------

function sameKind(a: Node, b: Node): boolean {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName && (a.nodeType !== 1 || (a as Element).namespaceURI === (b as Element).namespaceURI);
}

// Make `live` look like `fresh` (same tag): attributes, handlers, children. `fresh`
// is consumed (its children may move into `live`). Form fields keep what the user
// typed unless the description changes their value.
export function morph(live: Element, fresh: Element): void {
  const sig = memos.get(fresh);
  if (sig !== undefined && memos.get(live) === sig) return;
  if (sig !== undefined) memos.set(live, sig);
  else memos.delete(live);
  morphAttrs(live, fresh);
  morphChildren(live, Array.from(fresh.childNodes));
}

// Only the element itself: its attributes and handlers (its children are kept).
export function morphAttrs(live: Element, fresh: Element): void {
  const want = given.get(fresh);
  const have = given.get(live);
  if (want && have) {
    for (const k in want) if (have[k] !== want[k]) live.setAttribute(k, want[k]!);
    for (const k in have) if (!(k in want)) live.removeAttribute(k);
    given.set(live, want);
  } else {
    // An element not built here (or changed by hand): compare with the DOM itself.
    const attrs = fresh.attributes;
    for (let i = 0; i < attrs.length; ++i) {
      const a = attrs[i]!;
      if (live.getAttribute(a.name) !== a.value) live.setAttribute(a.name, a.value);
    }
    const old = live.attributes;
    for (let i = old.length - 1; i >= 0; --i) if (!fresh.hasAttribute(old[i]!.name)) live.removeAttribute(old[i]!.name);
    if (want) given.set(live, want);
  }
  const liveOn = handlers.get(live);
  const freshOn = handlers.get(fresh);
  if (liveOn) for (const type of Object.keys(liveOn)) if (!freshOn || !(type in freshOn)) delete liveOn[type];
  if (freshOn) for (const [type, fn] of Object.entries(freshOn)) setHandler(live, type, fn);
}

// Make `parent`'s children look like `fresh`, position by position: a child of the
// same tag is morphed in place, text is rewritten only when it differs, the rest
// is inserted or removed. `fresh` nodes are detached descriptions.
export function morphChildren(parent: Element, fresh: Node[]): void {
  let live = parent.firstChild;
  for (const want of fresh) {
    if (live && sameKind(live, want)) {
      if (live.nodeType === 1) morph(live as Element, want as Element);
      else if (live.nodeValue !== want.nodeValue) live.nodeValue = want.nodeValue;
      live = live.nextSibling;
    } else {
      parent.insertBefore(want, live);
    }
  }
  while (live) {
    const next = live.nextSibling;
    parent.removeChild(live);
    live = next;
  }
}

// A redraw in place, or the old way (every part built again and swapped in): the
// second stays available for the draw benchmark's comparison (`?redraw=full`).
let fullRedraw = false;
export function setFullRedraw(on: boolean): void {
  fullRedraw = on;
}
export function isFullRedraw(): boolean {
  return fullRedraw;
}

// The children of `parent` as described by `fresh`: morphed, or (full redraw) replaced.
export function patchChildren(parent: Element, fresh: Child[]): void {
  const nodes: Node[] = [];
  for (const c of fresh) if (c !== null && c !== undefined && c !== false) nodes.push(typeof c === 'object' ? c : document.createTextNode(String(c)));
  if (fullRedraw) {
    clear(parent);
    parent.append(...nodes);
  } else morphChildren(parent, nodes);
}
