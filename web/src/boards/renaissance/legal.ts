// What the player may click, derived once per update from the legal commands the
// server sends (`legal`: every command in its canonical spelling, up to ~8,000 during a
// production turn). `indexLegal` walks the list once and files each command where the
// board looks for it; a click then sends exactly one of the listed commands.
import {
  type Amounts,
  type Board,
  type Colour,
  type Command,
  type Marble,
  type Resource,
  MARBLE_RESOURCE,
  RESOURCES,
  leader,
  leaderName,
  warehouse,
} from './state.js';

export interface LayoutDepot {
  type?: Resource;
  count: number;
}
export interface Layout {
  depots: LayoutDepot[];
  leader_depots?: Record<string, number>;
}

export interface ProduceChoice {
  base: { inputs: Resource[]; output: Resource } | null;
  slots: number[];
  leaders: Array<{ leader: number; output: Resource }>;
}

export interface LegalIndex {
  count: number;
  chooseLeaders: Command[];
  initial: Command[];
  // "row:1" / "column:3" -> the market commands of that line, in the server's order.
  market: Map<string, Command[]>;
  // "level:colour" -> one buy per slot.
  buy: Map<string, Command[]>;
  // produceKey -> the produce command.
  produce: Map<string, Command>;
  produceSlots: Set<number>; // slots that take part in at least one listed production
  produceLeaders: Set<number>;
  produceBase: boolean;
  activate: Map<number, Command>;
  discard: Map<number, Command>;
  arrange: Command[];
  endTurn: Command | null;
  other: Command[]; // anything the board has no place for (the "more moves" list shows all)
}

export function num(cmd: Command, field: string): number {
  const v = cmd[field];
  return typeof v === 'number' ? v : -1;
}

export function produceKey(p: ProduceChoice): string {
  const base = p.base ? `${[...p.base.inputs].sort().join('+')}>${p.base.output}` : '-';
  const slots = [...p.slots].sort((a, b) => a - b).join(',');
  const leaders = [...p.leaders].sort((a, b) => a.leader - b.leader).map((l) => `${l.leader}>${l.output}`).join(',');
  return `${base}|${slots}|${leaders}`;
}

export function produceOf(cmd: Command): ProduceChoice {
  const base = cmd['base'] as ProduceChoice['base'] | undefined;
  return {
    base: base ?? null,
    slots: (cmd['slots'] as number[] | undefined) ?? [],
    leaders: (cmd['leaders'] as ProduceChoice['leaders'] | undefined) ?? [],
  };
}

export function indexLegal(legal: Command[]): LegalIndex {
  const ix: LegalIndex = {
    count: legal.length,
    chooseLeaders: [],
    initial: [],
    market: new Map(),
    buy: new Map(),
    produce: new Map(),
    produceSlots: new Set(),
    produceLeaders: new Set(),
    produceBase: false,
    activate: new Map(),
    discard: new Map(),
    arrange: [],
    endTurn: null,
    other: [],
  };
  const push = <K>(m: Map<K, Command[]>, k: K, c: Command): void => {
    const l = m.get(k);
    if (l) l.push(c);
    else m.set(k, [c]);
  };
  for (const c of legal) {
    switch (c.type) {
      case 'choose_leaders':
        ix.chooseLeaders.push(c);
        break;
      case 'choose_initial_resources':
        ix.initial.push(c);
        break;
      case 'take_from_market':
        push(ix.market, `${String(c['line'])}:${num(c, 'index')}`, c);
        break;
      case 'buy_card':
        push(ix.buy, `${num(c, 'level')}:${String(c['colour'])}`, c);
        break;
      case 'produce': {
        const p = produceOf(c);
        ix.produce.set(produceKey(p), c);
        for (const s of p.slots) ix.produceSlots.add(s);
        for (const l of p.leaders) ix.produceLeaders.add(l.leader);
        if (p.base) ix.produceBase = true;
        break;
      }
      case 'activate_leader':
        ix.activate.set(num(c, 'leader'), c);
        break;
      case 'discard_leader':
        ix.discard.set(num(c, 'leader'), c);
        break;
      case 'arrange_warehouse':
        ix.arrange.push(c);
        break;
      case 'end_turn':
        ix.endTurn = c;
        break;
      default:
        ix.other.push(c);
    }
  }
  return ix;
}

// --- layouts --------------------------------------------------------------------------

export function layoutOf(cmd: Command): Layout {
  return (cmd['layout'] as Layout | undefined) ?? { depots: [] };
}

export function layoutContent(l: Layout): Record<Resource, number> {
  const out: Record<Resource, number> = { coin: 0, servant: 0, shield: 0, stone: 0 };
  for (const d of l.depots) if (d.type && d.count > 0) out[d.type] += d.count;
  for (const [k, n] of Object.entries(l.leader_depots ?? {})) {
    const lc = leader(Number(k.slice(1)));
    if (lc) out[lc.resource] += n;
  }
  return out;
}

// "coin | 2 shield | 3 stone · L05: 2 stone"
export function layoutText(l: Layout): string {
  const depots = l.depots.map((d) => (d.type && d.count > 0 ? (d.count > 1 ? `${d.count} ${d.type}` : d.type) : '—')).join(' | ');
  const extra = Object.entries(l.leader_depots ?? {})
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k}: ${n} ${leader(Number(k.slice(1)))?.resource ?? ''}`);
  return [depots, ...extra].join(' · ');
}

export function amountsOf(r: Record<Resource, number>): Amounts {
  const out: Amounts = {};
  for (const k of RESOURCES) if (r[k] > 0) out[k] = r[k];
  return out;
}

// --- the market -----------------------------------------------------------------------

export function lineMarbles(tray: Marble[], line: string, index: number): Marble[] {
  if (line === 'row') return tray.slice(index * 4, index * 4 + 4);
  return [0, 1, 2].map((r) => tray[r * 4 + index]!);
}

// What a market command gives (before the layout decides what is kept): the resources
// of the marbles, whites by the active white-marble leaders (one: its resource; two: the
// command's white_choices), and the faith of red marbles.
export function marketGain(b: Board, tray: Marble[], cmd: Command): { gain: Record<Resource, number>; faith: number } {
  const gain: Record<Resource, number> = { coin: 0, servant: 0, shield: 0, stone: 0 };
  let faith = 0;
  const whites = b.leaders.filter((l) => l.status === 'active' && leader(l.id)?.kind === 'white_marble').map((l) => leader(l.id)!.resource);
  const choices = (cmd['white_choices'] as Resource[] | undefined) ?? [];
  let w = 0;
  for (const m of lineMarbles(tray, String(cmd['line']), num(cmd, 'index'))) {
    const r = MARBLE_RESOURCE[m];
    if (r === 'faith') faith += 1;
    else if (r) gain[r] += 1;
    else if (whites.length === 1) gain[whites[0]!] += 1;
    else if (whites.length === 2) {
      const c = choices[w++];
      if (c && c in gain) gain[c] += 1;
    }
  }
  return { gain, faith };
}

export interface MarketOption {
  cmd: Command;
  whites: string; // the white choices in words ('' without)
  kept: Record<Resource, number>; // the warehouse afterwards
  discarded: number; // units thrown away (each gives the others 1 faith)
  discards: Record<Resource, number>;
}

// The market commands of one line, best first: fewest discarded, then the server's order
// (for the same content the server lists one canonical layout).
export function marketOptions(b: Board, tray: Marble[], cmds: Command[]): MarketOption[] {
  const have = warehouse(b);
  const out = cmds.map((cmd) => {
    const { gain } = marketGain(b, tray, cmd);
    const kept = layoutContent(layoutOf(cmd));
    const discards: Record<Resource, number> = { coin: 0, servant: 0, shield: 0, stone: 0 };
    let discarded = 0;
    for (const r of RESOURCES) {
      discards[r] = Math.max(0, have[r] + gain[r] - kept[r]);
      discarded += discards[r];
    }
    const wc = (cmd['white_choices'] as string[] | undefined) ?? [];
    return { cmd, whites: wc.join(', '), kept, discarded, discards };
  });
  return out
    .map((o, i) => ({ o, i }))
    .sort((a, b) => a.o.discarded - b.o.discarded || a.i - b.i)
    .map((x) => x.o);
}

// --- production -----------------------------------------------------------------------

// The first listed production using exactly these slots and leaders with any base and
// outputs the player has not fixed yet: what "Produce" sends when the choice is open.
export interface ProduceDraft {
  slots: Set<number>;
  leaders: Map<number, Resource>; // leader -> output
  base: { inputs: [Resource, Resource]; output: Resource } | null;
}

export function draftKey(d: ProduceDraft): string {
  return produceKey({
    base: d.base ? { inputs: d.base.inputs, output: d.base.output } : null,
    slots: [...d.slots],
    leaders: [...d.leaders].map(([l, o]) => ({ leader: l, output: o })),
  });
}

export function productionLeaders(b: Board): number[] {
  return b.leaders.filter((l) => l.status === 'active' && leader(l.id)?.kind === 'production').map((l) => l.id);
}

export function leaderLabel(id: number): string {
  const lc = leader(id);
  return lc ? `${leaderName(id)} (${lc.kind.replace('_', ' ')}: ${lc.resource})` : leaderName(id);
}

// The buy commands' slots for the top card of (level, colour).
export function buySlots(ix: LegalIndex, level: number, colour: Colour): Command[] {
  return ix.buy.get(`${level}:${colour}`) ?? [];
}
