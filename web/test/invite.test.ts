// Invite links (docs/accounts.md, "Invite links and private matches"): the links the
// page makes and reads, the create form's `private`, and the Client that joins with
// the link's code once logged in and keeps the codes the server sends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMatchRequest } from '../src/computers.js';
import { inviteKey, inviteLink, parseJoinLink } from '../src/invite.js';
import { harness } from './fake_client.js';

const kCode = 'AbCdEfGhIjKlMnOpQrSt_-';

test('a link is made and read back; anything else is no link', () => {
  const link = inviteLink('http://127.0.0.1:8080', 7, kCode);
  assert.equal(link, `http://127.0.0.1:8080/#join=7&code=${kCode}`);
  assert.deepEqual(parseJoinLink(new URL(link).hash), { match: 7, code: kCode });
  assert.deepEqual(parseJoinLink(`#code=${kCode}&join=12`), { match: 12, code: kCode });
  for (const hash of ['', '#', '#join=7', `#code=${kCode}`, `#join=0&code=${kCode}`, `#join=x&code=${kCode}`, '#join=7&code=<script>', `#join=1.5&code=${kCode}`]) {
    assert.equal(parseJoinLink(hash), null, hash);
  }
});

test('the create form asks for a private match only when ticked', () => {
  assert.deepEqual(createMatchRequest(2, '', 0, 'greedy', undefined, {}, true), { type: 'create_match', players: 2, private: true });
  assert.deepEqual(createMatchRequest(2, '', 0, 'greedy'), { type: 'create_match', players: 2 });
});

test('a link joins once logged in, and the codes the server sends are kept per match', () => {
  const h = harness();
  h.client.followJoinLink({ match: 7, code: kCode });
  h.client.start();
  const s = h.connect();
  assert.equal(s.sent.some((m) => m['type'] === 'join_match'), false, 'nothing before the login');
  h.client.login('bob');
  s.push({ type: 'logged_in', id: 1, nickname: 'bob', token: 't' });
  const join = s.sent.find((m) => m['type'] === 'join_match');
  assert.deepEqual({ ...join, id: undefined }, { type: 'join_match', match: 7, code: kCode, id: undefined });
  assert.equal(h.client.inviteCode(7), kCode, 'the invited player may pass the link on');
  s.push({ type: 'invite', match: 9, code: 'x'.repeat(22) });
  assert.equal(h.tokens.getItem(inviteKey(9)), 'x'.repeat(22));
  s.push({ type: 'invite', match: 9, code: null });
  assert.equal(h.client.inviteCode(9), null, 'a revoked code without a new one is forgotten');
});

test('a player seated elsewhere stays there: the link is not followed', () => {
  const h = harness();
  h.client.followJoinLink({ match: 7, code: kCode });
  h.client.start();
  const s = h.connect();
  h.client.login('alice');
  s.push({ type: 'logged_in', id: 1, nickname: 'alice', token: 't', match: 3, seat: 0 });
  assert.equal(s.sent.some((m) => m['type'] === 'join_match'), false);
});
