// The connection to the server and the session on it: hello, login with the
// stored resume token, requests with ids, answers to pings, and reconnecting with
// backoff after a drop or a server restart (back in the seat, or back to the
// match being watched). The socket, timers and storage are passed in, so the
// tests drive it with fakes; the page passes WebSocket, setTimeout, localStorage.
import { playAgainRequests } from './computers.js';
import { type JoinLink, inviteKey } from './invite.js';
import { type LegacyLegal, type Model, type Request, addNotice, backToLobby, disconnected, initialModel, lobbyRequest, reduce } from './model.js';
import type { Command, ServerMessage } from './protocol.js';

export interface SocketLike {
  send(text: string): void;
  close(): void;
  onopen: (() => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: (() => void) | null;
  onerror: (() => void) | null;
}

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface ClientDeps {
  open(url: string | null): SocketLike; // null: the page's own server; else a `redirect`'s `web`
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  tokens: StorageLike; // resume tokens per nickname (survive the browser)
  tab: StorageLike; // this tab's nickname and watched match (survive a reload)
  random(): number;
  legacyLegal?: LegacyLegal; // the game's candidates for a server older than `legal`
  // A JSON POST to the page's own server (the account routes: docs/accounts.md, "The web
  // page's cookie"); resolves to the HTTP status. Absent: accounts are not offered.
  post?(path: string, body: Record<string, unknown>): Promise<number>;
}

export type ConnectionState = 'connecting' | 'open' | 'waiting';

// A `redirect` being followed: shown to the player until the match is reached.
export interface Redirecting {
  match: number;
  to: string; // the WebSocket address
  hop: number; // 1..kMaxRedirects
  reason: string;
}

// docs/protocol.md: at most 3 redirects in a row; a 4th is an error (a loop between
// servers that disagree about who owns a match must not bounce the page forever).
export const kMaxRedirects = 3;

// Reconnect delays: quick first tries for a dropped Wi-Fi, then at most every 8 s
// (a server restart of a few seconds is caught on the 3rd or 4th try).
export const kBackoffMs = [250, 500, 1000, 2000, 4000, 8000];

export function tokenKey(nickname: string): string {
  return `eryantis.token.${nickname}`;
}

export class Client {
  model: Model = initialModel();
  connection: ConnectionState = 'waiting';
  retryAt: number | null = null;
  replaced = false; // another connection took this nickname: do not fight over it
  redirecting: Redirecting | null = null;
  private hops = 0; // redirects followed in a row
  private pending: Request | null = null; // the last join_match/spectate not yet answered
  private repeat: Request | null = null; // to send again once logged in on the new server
  private socket: SocketLike | null = null;
  private nextId = 1;
  private attempts = 0;
  private timer: unknown = null;
  private commandCounter = 0;
  private readonly session: string;
  private listeners: Array<(msg: ServerMessage | null) => void> = [];
  private savedWatching: string | null | undefined = undefined; // what the tab storage holds
  private savedGame: string | null = null; // 〃 for the match's game
  // "Play again" with computers of several levels: added once the new match is joined.
  private afterJoin: { id: unknown; requests: Request[] } | null = null;
  // An invite link the page was opened with: joined once logged in (docs/accounts.md).
  private joinLink: JoinLink | null = null;
  // The account this page is logged in to, or null (a guest, or nobody). Its session is
  // an HttpOnly cookie the page never reads: only the server's answers say who we are.
  account: string | null = null;
  private cookieLogin = false; // welcome said a session cookie came: its login answers (id "cookie")
  private accountRequest: unknown = null; // the id of the register/login with a password in flight
  private logoutRequest: unknown = null; // the id of the account's logout in flight

  constructor(private readonly deps: ClientDeps) {
    this.session = Math.floor(deps.random() * 0xffffffff).toString(36);
    const nick = deps.tab.getItem('eryantis.nickname');
    if (nick) this.model = { ...this.model, nickname: nick };
    const watch = Number(deps.tab.getItem('eryantis.watching') ?? '');
    if (watch > 0) this.model = { ...this.model, watching: watch };
    // The game of the match on screen, for a reload before the lobby or the server says it.
    const [match, game] = (deps.tab.getItem('eryantis.matchGame') ?? '').split(' ');
    if (Number(match) > 0 && game) this.model = { ...this.model, matchGames: { [Number(match)]: game } };
  }

  // The page was opened with `#join=<match>&code=<code>`: the join is sent once the
  // player is logged in (now, if already), and the code kept so the link can be shared on.
  followJoinLink(link: JoinLink): void {
    this.joinLink = link;
    this.deps.tokens.setItem(inviteKey(link.match), link.code);
    if (this.model.loggedIn) this.sendJoinLink();
  }

  private sendJoinLink(): void {
    const link = this.joinLink;
    if (!link) return;
    this.joinLink = null;
    this.request({ type: 'join_match', match: link.match, code: link.code });
  }

  // The invite code this page knows for `match` (its creator's or the one it came with).
  inviteCode(match: number): string | null {
    return this.deps.tokens.getItem(inviteKey(match));
  }

  onChange(fn: (msg: ServerMessage | null) => void): void {
    this.listeners.push(fn);
  }

  private changed(msg: ServerMessage | null): void {
    for (const fn of this.listeners) fn(msg);
  }

  start(): void {
    this.replaced = false;
    this.connect();
  }

  // url: null for the page's own server. A reconnect after a drop goes there too:
  // it redirects again if the match moved (a failover), while the node we were sent
  // to may be the one that died.
  private connect(url: string | null = null): void {
    this.timer = null;
    this.retryAt = null;
    this.connection = 'connecting';
    const sock = this.deps.open(url);
    this.socket = sock;
    sock.onopen = () => {
      if (this.socket !== sock) return;
      this.sendRaw({ type: 'hello', protocol: 1, client: 'eryantis-web/0.1', updates: 'full' });
    };
    sock.onmessage = (ev) => {
      if (this.socket !== sock || typeof ev.data !== 'string') return;
      let msg: ServerMessage;
      try {
        msg = JSON.parse(ev.data) as ServerMessage;
      } catch {
        return;
      }
      this.receive(msg);
    };
    sock.onclose = () => {
      if (this.socket !== sock) return;
      this.dropped();
    };
    sock.onerror = () => {
      /* onclose follows */
    };
    this.changed(null);
  }

  private dropped(): void {
    this.socket = null;
    this.model = disconnected(this.model);
    if (this.replaced) {
      this.connection = 'waiting';
      this.changed(null);
      return;
    }
    const base = kBackoffMs[Math.min(this.attempts, kBackoffMs.length - 1)]!;
    this.attempts += 1;
    const delay = Math.round(base * (0.75 + 0.5 * this.deps.random())); // jitter: do not all come back at once
    this.connection = 'waiting';
    this.retryAt = this.deps.now() + delay;
    this.timer = this.deps.setTimer(() => this.connect(), delay);
    this.changed(null);
  }

  // Try at once (the "reconnect now" button).
  reconnectNow(): void {
    if (this.socket) return;
    if (this.timer !== null) this.deps.clearTimer(this.timer);
    this.replaced = false;
    this.connect();
  }

  // Follow a `redirect`: close, connect to its `web`, log in again with the same
  // nickname and token (welcome does), then repeat the request it answered (a
  // resuming login needs no repeat: logging in there resumes the seat).
  private redirected(msg: Extract<ServerMessage, { type: 'redirect' }>): void {
    const fail = (text: string): void => {
      this.redirecting = null;
      this.hops = 0;
      this.pending = null;
      this.model = addNotice(this.model, 'REDIRECT', text, this.deps.now());
    };
    if (this.hops >= kMaxRedirects) {
      return fail(`Match ${msg.match} could not be reached: the servers sent this page on more than ${kMaxRedirects} times in a row (last to ${msg.web ?? msg.address}: ${msg.reason}).`);
    }
    if (!msg.web) {
      return fail(`Match ${msg.match} is served by ${msg.address}, which has no web address: it can be played from eryantis-cli there, not from this page.`);
    }
    this.hops += 1;
    this.repeat = this.pending && this.pending['match'] === msg.match ? this.pending : null;
    this.pending = null;
    this.redirecting = { match: msg.match, to: msg.web, hop: this.hops, reason: msg.reason };
    const sock = this.socket;
    this.socket = null; // its close is ours: no reconnect
    sock?.close();
    this.attempts = 0;
    this.connect(msg.web);
  }

  // A request that reached its match (or was refused there): the redirects ended.
  private arrived(): void {
    this.redirecting = null;
    this.hops = 0;
    this.pending = null;
  }

  private receive(msg: ServerMessage): void {
    if (msg.type === 'redirect') {
      this.redirected(msg);
      this.changed(msg);
      return;
    }
    if (msg.type === 'joined' || msg.type === 'spectating' || msg.type === 'state' || msg.type === 'error') this.arrived();
    if (msg.type === 'logged_in' && msg.match !== undefined) this.arrived(); // a seat resumed
    if (msg.type === 'welcome') {
      this.connection = 'open';
      this.attempts = 0;
      this.cookieLogin = msg.cookie === true;
      if (!this.cookieLogin) {
        // No cookie came (expired, cleared): the account's name is not a guest's nickname.
        if (this.deps.tab.getItem('eryantis.account') !== null) this.forgetAccount();
        this.afterWelcome();
      }
    }
    if (this.cookieLogin && 'id' in msg && msg.id === 'cookie') {
      // The session cookie's login: an account (seats back), or ended (play as before).
      this.cookieLogin = false;
      if (msg.type === 'logged_in') this.account = msg.account ?? null;
      else {
        this.forgetAccount();
        this.afterWelcome();
      }
    }
    if (this.accountRequest !== null && 'id' in msg && msg.id === this.accountRequest) {
      this.accountRequest = null;
      if (msg.type === 'logged_in' && msg.account) {
        this.account = msg.account;
        // The ticket becomes the cookie; the secret itself never reaches this page.
        if (msg.ticket) void this.deps.post?.('/account/session', { ticket: msg.ticket });
      }
    }
    if (msg.type === 'logged_in') {
      if (this.account) this.deps.tab.setItem('eryantis.account', this.account);
    }
    if (this.logoutRequest !== null && 'id' in msg && msg.id === this.logoutRequest) {
      this.logoutRequest = null;
      this.clearCookie();
    }
    if (msg.type === 'logged_in') {
      this.deps.tokens.setItem(tokenKey(msg.nickname), msg.token);
      this.deps.tab.setItem('eryantis.nickname', msg.nickname);
      const watch = this.model.watching;
      const again = this.repeat;
      if (again) this.request(again); // the join or spectate a redirect answered
      else if (msg.match === undefined && watch) {
        // A logged-in spectator: login ended the watching; take it up again.
        this.request({ type: 'spectate', match: watch });
      }
    }
    if (msg.type === 'error' && msg.code === 'NICKNAME_TAKEN' && !this.model.loggedIn) {
      // Our own earlier connection may not have timed out yet (docs/protocol.md, checklist 4):
      // stay logged out; the player sees the message and may try again.
      this.deps.tab.removeItem('eryantis.nickname');
    }
    if (msg.type === 'invite') {
      if (msg.code) this.deps.tokens.setItem(inviteKey(msg.match), msg.code);
      else this.deps.tokens.removeItem(inviteKey(msg.match));
    }
    if (msg.type === 'shutdown' && /another connection/.test(msg.message)) this.replaced = true;
    const step = reduce(this.model, msg, this.deps.now(), this.deps.legacyLegal);
    this.model = step.model;
    // Written only when it changes: a storage write per message cost 0.6 ms of each event's draw.
    const watching = this.model.watching ? String(this.model.watching) : null;
    if (watching !== this.savedWatching) {
      if (watching) this.deps.tab.setItem('eryantis.watching', watching);
      else this.deps.tab.removeItem('eryantis.watching');
      this.savedWatching = watching;
    }
    const m = this.model.match;
    const game = m && m.game ? `${m.match} ${m.game}` : null;
    if (game && game !== this.savedGame) {
      this.deps.tab.setItem('eryantis.matchGame', game);
      this.savedGame = game;
    }
    for (const r of step.requests) {
      if (r.type === 'pong') this.sendRaw(r);
      else this.request(r);
    }
    // An invite link waits for the login; a resumed seat elsewhere keeps the player there.
    if (msg.type === 'logged_in' && this.joinLink) {
      if (msg.match === undefined) this.sendJoinLink();
      else this.joinLink = null; // seated already (in that match or another): stay
    }
    if (this.afterJoin && 'id' in msg && msg.id === this.afterJoin.id) {
      const then = msg.type === 'joined' ? this.afterJoin.requests : [];
      this.afterJoin = null;
      for (const r of then) this.request(r);
    }
    this.changed(msg);
  }

  // The account this tab was logged in to is no longer: its name is not a guest's nickname.
  private forgetAccount(): void {
    this.account = null;
    const name = this.deps.tab.getItem('eryantis.account');
    if (name !== null && this.model.nickname === name) {
      this.model = { ...this.model, nickname: null };
      this.deps.tab.removeItem('eryantis.nickname');
    }
    this.deps.tab.removeItem('eryantis.account');
  }

  // What a welcome leads to when no session cookie is logging in: the nickname's login,
  // the request a redirect repeats, the match watched, or the lobby.
  private afterWelcome(): void {
    if (this.model.nickname) this.login(this.model.nickname);
    else if (this.repeat) this.request(this.repeat);
    else if (this.model.watching) this.request({ type: 'spectate', match: this.model.watching });
    else {
      const step = lobbyRequest(this.model);
      this.model = step.model;
      this.request(step.request);
    }
  }

  // Register or log in to an account with its password (docs/accounts.md). The answer
  // carries a one-time ticket, exchanged at POST /account/session for the session cookie
  // that the next connections (a reload, another tab) log in with.
  accountLogin(kind: 'login' | 'register', name: string, password: string): boolean {
    if (this.connection !== 'open' || this.model.loggedIn) return false;
    this.accountRequest = this.nextId;
    return this.request({ type: kind, name, password, cookie: true, label: 'web' });
  }

  // Ends this session (`all`: every session of the account), clears the cookie, and
  // starts again logged out.
  accountLogout(all: boolean): void {
    if (!this.account) return this.logout();
    this.logoutRequest = this.nextId;
    if (!this.request({ type: 'logout', all })) {
      // No connection: the cookie is cleared all the same (the session itself ends when it
      // expires, or with a "log out everywhere" from another device).
      this.logoutRequest = null;
      this.clearCookie();
    }
  }

  // POST /account/logout clears the cookie; then the page starts again logged out.
  private clearCookie(): void {
    const done = (): void => {
      this.account = null;
      this.deps.tab.removeItem('eryantis.account');
      this.logout();
    };
    const clearing = this.deps.post?.('/account/logout', {});
    if (clearing) clearing.then(done, done);
    else done();
  }

  private sendRaw(obj: Record<string, unknown>): boolean {
    if (!this.socket) return false;
    try {
      this.socket.send(JSON.stringify(obj));
      return true;
    } catch {
      return false;
    }
  }

  request(req: Request): boolean {
    if (req.type === 'join_match' || req.type === 'spectate') {
      // Remembered for a redirect; a new one from the player starts a new count.
      if (req !== this.repeat) this.hops = 0;
      this.pending = req;
    }
    if (req === this.repeat) this.repeat = null;
    if (req.type === 'create_match' || req.type === 'quick_join') {
      // The `joined` answer names the match, not the game: remembered until then.
      this.model = { ...this.model, expectGame: typeof req['game'] === 'string' ? req['game'] : null };
    } else if (req.type === 'join_match' && this.model.expectGame) {
      this.model = { ...this.model, expectGame: null }; // a refused create's game is not this match's
    }
    // A request may name its own id (the model's move_log, to know its errors).
    return this.sendRaw({ ...req, id: req['id'] ?? this.nextId++ });
  }

  login(nickname: string): void {
    const token = this.deps.tokens.getItem(tokenKey(nickname));
    this.model = { ...this.model, nickname };
    // Before the welcome, the welcome logs in with this nickname. Sending now too would log in
    // twice on one connection when the socket is open and the welcome on its way: the second
    // login is refused (ALREADY_LOGGED_IN) and its notice hides the next move's answer (seen in
    // WebClientFallback on a loaded machine).
    if (this.connection !== 'open') return;
    this.request(token ? { type: 'login', nickname, token } : { type: 'login', nickname });
  }

  // Logging out = forgetting the nickname in this tab and starting a new connection.
  logout(): void {
    this.deps.tab.removeItem('eryantis.nickname');
    this.deps.tab.removeItem('eryantis.watching');
    this.savedWatching = null;
    this.model = initialModel();
    const sock = this.socket;
    this.socket = null;
    sock?.close();
    this.connect();
  }

  // A command is sent for the position the player saw (`expected_seq`: STALE_SEQ if the match
  // moved on), except while several seats choose at once (a setup): another seat's choice does
  // not change what this one means, and one it made impossible is refused by the rules with
  // their own reason. Else a computer's choice made at the same moment would refuse the
  // player's click for nothing.
  play(command: Command): boolean {
    const m = this.model.match;
    if (!m) return false;
    this.commandCounter += 1;
    const simultaneous = m.toAct.length > 1;
    return this.request({
      type: 'play',
      command,
      ...(simultaneous ? {} : { expected_seq: m.seq }),
      command_id: `web-${this.session}-${this.commandCounter}`,
    });
  }

  spectate(match: number): void {
    this.model = { ...this.model, watching: match };
    this.request({ type: 'spectate', match });
  }

  leave(): void {
    this.request({ type: 'leave_match' });
  }

  // A chat message to my channel of my match; refusals come back as notices.
  say(text: string): boolean {
    return this.request({ type: 'chat', text });
  }

  closeGameOver(): void {
    this.model = backToLobby(this.model);
    this.changed(null);
  }

  // The same kind of match again, with the same computer players (docs/web.md).
  playAgain(): void {
    const g = this.model.gameOver;
    this.model = backToLobby(this.model);
    if (g) {
      const { first, then } = playAgainRequests(g);
      if (then.length) this.afterJoin = { id: this.nextId, requests: then };
      this.request(first);
    } else this.request({ type: 'quick_join' });
    this.changed(null);
  }
}
