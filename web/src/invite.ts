// Invite links of private matches (docs/accounts.md, "Invite links and private
// matches"): `http://host:port/#join=<match>&code=<code>`. The code sits in the
// fragment, which the browser never sends to a server (not in requests, not in a
// Referer). Pure, so the unit tests check the links the page makes and reads.

export interface JoinLink {
  match: number;
  code: string;
}

// The code's alphabet (22 characters of base64url); anything else is no link.
const kCode = /^[A-Za-z0-9_-]{1,64}$/;

// The join link in a location's fragment ("#join=7&code=..."), or null.
export function parseJoinLink(hash: string): JoinLink | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const match = Number(params.get('join') ?? '');
  const code = params.get('code') ?? '';
  if (!Number.isInteger(match) || match <= 0 || !kCode.test(code)) return null;
  return { match, code };
}

// The link a friend opens: the page's origin ("http://127.0.0.1:8080") and the fragment.
export function inviteLink(origin: string, match: number, code: string): string {
  return `${origin}/#join=${match}&code=${code}`;
}

// Where the page keeps the code of a match it knows one of (its creator's, or the
// one it was invited with): localStorage, so a reload still offers the link.
export function inviteKey(match: number): string {
  return `eryantis.invite.${match}`;
}
