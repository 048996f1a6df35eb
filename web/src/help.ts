// The rules in the page: the games' help texts, exactly the terminal client's
// (`help`), read once per game from the server's GET /help/<game> (docs/web.md,
// "Rules"). The shell's "Rules" panel shows the topics of what the player may do now
// and every topic; boards put a character's or leader's full text on its card
// (`title` for hover, a "?" to tap). Text is always set as text, never as HTML.
import { h } from './dom.js';

export interface HelpTexts {
  game: string;
  overview: string; // help("")
  topics: Record<string, string>; // help(topic) for each topic, in the server's order
}

// Command types whose topic is not their own name nor a word of it.
const ALIASES: Record<string, string> = {
  // Eriantys: every move of setup and of a round is explained by `help turn`.
  choose_wizard: 'turn',
  choose_tower_color: 'turn',
  play_assistant: 'turn',
  move_to_dining: 'turn',
  move_to_island: 'turn',
  move_mother_nature: 'turn',
  choose_cloud: 'turn',
  use_grandma_herbs: 'herbs',
  use_mushroom_hunter: 'mushroom',
  // Masters of Renaissance.
  choose_leaders: 'setup',
  choose_initial_resources: 'setup',
  take_from_market: 'market',
};

// The topics that explain the command types allowed now, in their order, each once:
// the alias, the type itself, the type without `use_`, else its first word that is a
// topic ("buy_card" -> "buy"); a type with none adds nothing. No type at all (a
// spectator, a seat waiting): "turn" when the game has it.
export function phaseTopics(types: readonly string[], topics: readonly string[]): string[] {
  const known = new Set(topics);
  const out: string[] = [];
  const add = (t: string | undefined): boolean => {
    if (t === undefined || !known.has(t)) return false;
    if (!out.includes(t)) out.push(t);
    return true;
  };
  for (const type of types) {
    if (add(ALIASES[type]) || add(type) || add(type.startsWith('use_') ? type.slice(4) : undefined)) continue;
    for (const word of type.split('_')) if (add(word)) break;
  }
  if (out.length === 0) add('turn');
  return out;
}

// The Renaissance topic of leader `id` ("L05").
export function leaderTopic(id: number): string {
  return `L${String(id).padStart(2, '0')}`;
}

// The Eriantys topic of a character card's id ("grandma_herbs" -> "herbs").
export function characterTopic(id: string): string {
  return ALIASES[`use_${id}`] ?? id;
}

const loaded = new Map<string, HelpTexts | 'loading' | 'failed'>();
const waiting = new Set<() => void>();

// The game's texts once they arrived; the first call starts the request and `onLoaded`
// runs when it ends (the page then draws again). A failure is not retried until reload.
export function helpFor(game: string, onLoaded?: () => void): HelpTexts | null {
  const got = loaded.get(game);
  if (got === undefined) {
    loaded.set(game, 'loading');
    void fetch(`/help/${encodeURIComponent(game)}`, { headers: { Accept: 'application/json' } })
      .then(async (res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const body = (await res.json()) as HelpTexts;
        loaded.set(game, { game, overview: String(body.overview ?? ''), topics: body.topics ?? {} });
      })
      .catch(() => loaded.set(game, 'failed'))
      .finally(() => {
        const calls = [...waiting];
        waiting.clear();
        for (const f of calls) f();
      });
  }
  if (onLoaded && (got === undefined || got === 'loading')) waiting.add(onLoaded);
  return typeof got === 'object' ? got : null;
}

// One topic's text, if the game's texts arrived (boards call it while drawing).
export function helpText(game: string, topic: string, onLoaded?: () => void): string | null {
  return helpFor(game, onLoaded)?.topics[topic] ?? null;
}

// For tests: forget what was loaded.
export function forgetHelp(): void {
  loaded.clear();
  waiting.clear();
}

// The "?" of a card: tapping it (phones have no hover) opens the same full text.
export function cardHelp(text: string | null, topic: string): HTMLElement | null {
  if (text === null) return null;
  return h('details', { class: 'card-help', 'data-help': topic }, h('summary', { title: 'Rules of this card' }, '?'), h('pre', {}, text));
}

// The contents of the "Rules" panel: the topics of what may be done now, then every topic.
export function rulesContents(help: HelpTexts | null, types: readonly string[]): HTMLElement[] {
  if (!help) return [h('p', { class: 'muted' }, 'Loading the rules…')];
  const names = Object.keys(help.topics);
  const now = phaseTopics(types, names);
  return [
    h('h3', {}, 'Now'),
    ...now.map((t) => h('pre', { class: 'rules-now', 'data-topic': t }, help.topics[t] ?? '')),
    h('h3', {}, 'All topics'),
    h('pre', { class: 'rules-overview' }, help.overview),
    ...names.map((t) => h('details', { class: 'rules-topic', 'data-topic': t }, h('summary', {}, t), h('pre', {}, help.topics[t] ?? ''))),
  ];
}
