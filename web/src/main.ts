// Entry point: replay mode when the page is served by `eryantis-replay DB serve`
// (its /api/matches answers JSON) or asked for with ?replay; the leaderboard
// (?leaderboard) and a profile (?profile=NAME); else the live game.
import { startGame } from './app.js';
import { type ReplayMatch, startReplay } from './replay.js';
import { startLeaderboard, startProfile } from './standings.js';

async function detectReplay(): Promise<ReplayMatch[] | null> {
  try {
    const res = await fetch('/api/matches', { headers: { Accept: 'application/json' } });
    if (!res.ok || !(res.headers.get('Content-Type') ?? '').includes('json')) return null;
    const body: unknown = await res.json();
    return Array.isArray(body) ? (body as ReplayMatch[]) : null;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const root = document.getElementById('app');
  if (!root) return;
  const params = new URLSearchParams(location.search);
  // The leaderboard and the profiles: pages of the live server's JSON routes.
  if (params.has('leaderboard')) return startLeaderboard(root, params);
  const profile = params.get('profile');
  if (profile) return startProfile(root, profile);
  const forced = params.has('replay');
  const replay = await detectReplay();
  if (replay) {
    document.body.classList.add('replay-mode');
    startReplay(root, replay);
  } else if (forced) {
    root.textContent = 'Replay mode needs the page served by `eryantis-replay DB serve`: /api/matches did not answer.';
  } else {
    startGame(root);
  }
}

void main();
