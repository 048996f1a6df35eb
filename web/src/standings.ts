// The leaderboard (`?leaderboard[=GAME][&players=N]`) and a player's profile
// (`?profile=NAME`): pages of their own, read from the server's JSON routes
// GET /ratings/<game> and GET /history/<name> (docs/web.md, "Ratings and history").
// They open no WebSocket; "Play" goes back to the game page. Every text from the server
// is set as text (h's children), never as markup.
import { clear, h } from './dom.js';

interface Rating {
  rating: number;
  deviation: number;
  volatility: number;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  provisional: boolean;
}
interface Standing extends Rating {
  rank: number | null;
  player: string;
  name: string;
}
interface Pools {
  games: { name: string; title: string; pools: number[] }[];
}
interface Board {
  game: string;
  players: number;
  ratings: Standing[];
}
interface HistorySeat {
  seat: number;
  name: string;
  player: string;
  place: number | null;
  you?: boolean;
  rating: { before: number; after: number; deviation: number } | null;
}
interface HistoryMatch {
  match: number | null; // null: a private match (listed without its id, opponents or replay)
  private?: boolean;
  game: string;
  players: number;
  started_ms: number;
  finished_ms: number; // a private match: the day only
  duration_ms?: number; // absent for a private match
  commands?: number;
  seats: HistorySeat[];
  result: string;
}
interface History {
  player: string;
  name: string;
  replay_url: string | null;
  finished: number;
  private?: number; // finished private matches: rated, listed without opponents or replay (docs/accounts.md)
  ratings: (Rating & { game: string; players: number })[];
  matches: HistoryMatch[];
}
interface ApiError {
  code: string;
  message: string;
}

async function getJson<T>(path: string): Promise<T | ApiError> {
  const res = await fetch(path, { headers: { Accept: 'application/json' } });
  return (await res.json()) as T | ApiError;
}

const isError = (x: unknown): x is ApiError => typeof x === 'object' && x !== null && 'code' in x;

export const profileHref = (name: string): string => `/?profile=${encodeURIComponent(name)}`;
export const leaderboardHref = (game?: string, players?: number): string =>
  `/?leaderboard${game ? `=${encodeURIComponent(game)}` : ''}${players ? `&players=${players}` : ''}`;

// "12 min 5 s", "48 s".
export function durationText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

// "+12", "−8", "±0" for a rating change.
export function changeText(before: number, after: number): string {
  const d = Math.round(after - before);
  return d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '±0';
}

const nav = (): HTMLElement =>
  h('nav', { class: 'standings-nav' }, h('a', { href: '/' }, 'Play'), ' · ', h('a', { href: leaderboardHref(), 'data-nav': 'leaderboard' }, 'Leaderboard'));

const ratingCells = (r: Rating): HTMLElement[] => [
  h('td', { class: 'num', 'data-rating': r.rating }, Math.round(r.rating)),
  h('td', { class: 'num' }, `±${Math.round(r.deviation)}`),
  h('td', { class: 'num' }, r.games),
  h('td', { class: 'num' }, `${r.wins}-${r.draws}-${r.losses}`),
];

export async function startLeaderboard(root: HTMLElement, params: URLSearchParams): Promise<void> {
  document.title = 'Leaderboard · Eryantis';
  clear(root);
  const body = h('div', { class: 'standings leaderboard' });
  root.append(nav(), body);
  const pools = await getJson<Pools>('/ratings/');
  if (isError(pools)) {
    body.append(h('p', { class: 'error', 'data-error': pools.code }, pools.message));
    return;
  }
  const game = params.get('leaderboard') || pools.games[0]?.name || '';
  const info = pools.games.find((g) => g.name === game);
  const players = Number(params.get('players')) || info?.pools[0] || 2;
  const withProvisional = params.get('provisional') === '1';
  const choices = h('p', { class: 'pools' });
  for (const g of pools.games) {
    for (const n of g.pools.length ? g.pools : []) {
      const here = g.name === game && n === players;
      choices.append(here ? h('strong', {}, `${g.title}, ${n} players`) : h('a', { href: leaderboardHref(g.name, n), 'data-pool': `${g.name}/${n}` }, `${g.title}, ${n} players`), ' ');
    }
  }
  const title = info?.title ?? game;
  body.append(h('h2', {}, `Leaderboard: ${title}, ${players} players`), choices);
  const board = await getJson<Board>(`/ratings/${encodeURIComponent(game)}?players=${players}${withProvisional ? '&provisional=1' : ''}`);
  if (isError(board)) {
    body.append(h('p', { class: 'error', 'data-error': board.code }, board.message));
    return;
  }
  const toggle = h('a', { href: `${leaderboardHref(game, players)}${withProvisional ? '' : '&provisional=1'}`, 'data-provisional-toggle': 1 }, withProvisional ? 'Hide provisional ratings' : 'Show provisional ratings');
  if (!board.ratings.length) {
    body.append(h('p', { class: 'hint', 'data-empty': 1 }, 'Nobody is rated here yet: a rating is shown once its deviation falls to 110 (a few finished matches). '), toggle);
    return;
  }
  const rows = board.ratings.map((s) =>
    h('tr', { 'data-player': s.player, class: s.provisional ? 'provisional' : '' },
      h('td', { class: 'num' }, s.rank ?? '?'),
      h('td', {}, h('a', { href: profileHref(s.name) }, s.name)),
      ...ratingCells(s)),
  );
  body.append(
    h('table', { class: 'ratings' },
      h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'Player'), h('th', {}, 'Rating'), h('th', {}, 'Deviation'), h('th', {}, 'Games'), h('th', {}, 'W-D-L'))),
      h('tbody', {}, ...rows)),
    h('p', { class: 'hint' }, 'Glicko-2, per game and player count; the random computer is fixed at 1000. ? = provisional (deviation above 110). '),
    toggle,
  );
}

// The profile's heading over its matches: how many are listed, and how many private
// ones the server left out (rated, never listed).
export function finishedHeading(finished: number, shown: number, privateMatches = 0): string {
  const newest = shown < finished ? ` (the newest ${shown})` : '';
  const hidden = privateMatches > 0 ? ` (${privateMatches} private)` : '';
  return `Finished matches: ${finished}${newest}${hidden}`;
}

export async function startProfile(root: HTMLElement, name: string): Promise<void> {
  document.title = `${name} · Eryantis`;
  clear(root);
  const body = h('div', { class: 'standings profile' });
  root.append(nav(), body);
  body.append(h('h2', { 'data-profile': name }, name));
  const history = await getJson<History>(`/history/${encodeURIComponent(name)}`);
  if (isError(history)) {
    body.append(h('p', { class: 'error', 'data-error': history.code }, history.message));
    return;
  }
  if (history.ratings.length) {
    body.append(
      h('h3', {}, 'Ratings'),
      h('table', { class: 'ratings' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Game'), h('th', {}, 'Players'), h('th', {}, 'Rating'), h('th', {}, 'Deviation'), h('th', {}, 'Games'), h('th', {}, 'W-D-L'))),
        h('tbody', {}, ...history.ratings.map((r) =>
          h('tr', { 'data-pool': `${r.game}/${r.players}`, class: r.provisional ? 'provisional' : '' },
            h('td', {}, h('a', { href: leaderboardHref(r.game, r.players) }, r.game)),
            h('td', { class: 'num' }, r.players),
            ...ratingCells(r))))),
    );
  }
  body.append(h('h3', {}, finishedHeading(history.finished, history.matches.length, history.private ?? 0)));
  if (history.private) body.append(h('p', { class: 'hint', 'data-private-matches': history.private }, 'Private matches are listed without their opponents or a replay: this page is public.'));
  const rows = history.matches.map((m) => {
    const you = m.seats.find((s) => s.you);
    const others = m.seats.filter((s) => !s.you);
    const replay = m.match === null
      ? h('span', { class: 'hint' }, 'private')
      : history.replay_url ? h('a', { href: `${history.replay_url}#match=${m.match}`, 'data-replay': m.match, target: '_blank', rel: 'noopener' }, 'replay') : h('span', { class: 'hint' }, `#${m.match}`);
    return h('tr', { 'data-match': m.match ?? 'private', 'data-private': m.private ? 'true' : null, 'data-result': m.result },
      h('td', {}, m.private ? new Date(m.finished_ms).toLocaleDateString() : new Date(m.finished_ms).toLocaleString()),
      h('td', {}, `${m.game}, ${m.players}`),
      h('td', { class: `result ${m.result}` }, you?.place ? `${m.result} (place ${you.place})` : m.result),
      m.private
        ? h('td', { class: 'hint' }, 'a private match')
        : h('td', {}, ...others.flatMap((s, i) => [i ? ', ' : '', h('a', { href: profileHref(s.player.startsWith('computer:') ? s.player : s.name) }, s.name), s.place ? ` (${s.place})` : ''])),
      h('td', { class: 'num' }, you?.rating ? changeText(you.rating.before, you.rating.after) : '—'),
      h('td', { class: 'num' }, m.private ? '—' : `${m.commands ?? 0} moves, ${durationText(m.duration_ms ?? 0)}`),
      h('td', {}, replay));
  });
  body.append(
    h('table', { class: 'history' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Finished'), h('th', {}, 'Game'), h('th', {}, 'Result'), h('th', {}, 'Opponents (place)'), h('th', {}, 'Rating'), h('th', {}, 'Length'), h('th', {}, 'Replay'))),
      h('tbody', {}, ...rows)),
  );
  if (!history.replay_url) body.append(h('p', { class: 'hint' }, 'Replays: run `eryantis-replay DB serve` and set [web] replay_url to link them here.'));
}
