// The client's fakes: a socket that records what is sent and takes pushed server
// messages, storages in memory, and a harness with manual timers and clock.
import { Client, type ClientDeps, type SocketLike, type StorageLike } from '../src/client.js';

export class FakeSocket implements SocketLike {
  constructor(readonly url: string | null = null) {}
  sent: Array<Record<string, unknown>> = [];
  closed = false;
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  send(text: string): void {
    this.sent.push(JSON.parse(text) as Record<string, unknown>);
  }
  close(): void {
    this.closed = true;
  }
  push(msg: object): void {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
  types(): string[] {
    return this.sent.map((m) => m['type'] as string);
  }
}

export class MemoryStorage implements StorageLike {
  map = new Map<string, string>();
  getItem(k: string): string | null {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.map.set(k, v);
  }
  removeItem(k: string): void {
    this.map.delete(k);
  }
}

export function harness(tokens = new MemoryStorage(), tab = new MemoryStorage()) {
  const sockets: FakeSocket[] = [];
  const timers: Array<{ fn: () => void; ms: number }> = [];
  let now = 0;
  // The account routes' posts (the session cookie): recorded, answered 200.
  const posts: Array<{ path: string; body: Record<string, unknown> }> = [];
  const deps: ClientDeps = {
    open: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    now: () => now,
    setTimer: (fn, ms) => timers.push({ fn, ms }),
    clearTimer: () => {},
    tokens,
    tab,
    random: () => 0.5,
    post: (path, body) => {
      posts.push({ path, body });
      return Promise.resolve(200);
    },
  };
  const client = new Client(deps);
  const connect = (): FakeSocket => {
    const s = sockets.at(-1)!;
    s.onopen?.();
    s.push({ type: 'welcome', server: 'eryantis/0.1.0', protocol: 1, heartbeat_ms: 5000, timeout_ms: 15000 });
    return s;
  };
  return { client, sockets, timers, connect, tokens, tab, posts, advance: (ms: number) => (now += ms) };
}
