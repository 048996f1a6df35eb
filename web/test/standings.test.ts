// The leaderboard's and profile's small words (standings.ts): lengths, rating changes
// and the pages' addresses.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changeText, durationText, finishedHeading, leaderboardHref, profileHref } from '../src/standings.js';

test("the profile's heading counts the matches, the private ones among them", () => {
  assert.equal(finishedHeading(3, 3), 'Finished matches: 3');
  assert.equal(finishedHeading(80, 50), 'Finished matches: 80 (the newest 50)');
  assert.equal(finishedHeading(1, 1, 1), 'Finished matches: 1 (1 private)');
  assert.equal(finishedHeading(2, 2, 0), 'Finished matches: 2');
});

test('a match length reads in seconds, minutes or hours', () => {
  assert.equal(durationText(0), '0 s');
  assert.equal(durationText(48_400), '48 s');
  assert.equal(durationText(725_000), '12 min 5 s');
  assert.equal(durationText(3_900_000), '1 h 5 min');
  assert.equal(durationText(-5), '0 s');
});

test('a rating change is signed and rounded', () => {
  assert.equal(changeText(1500, 1531.19), '+31');
  assert.equal(changeText(1500, 1492.4), '−8');
  assert.equal(changeText(1000, 1000), '±0');
});

test('profile and leaderboard addresses escape what they carry', () => {
  assert.equal(profileHref('computer:strong'), '/?profile=computer%3Astrong');
  assert.equal(profileHref('a b'), '/?profile=a%20b');
  assert.equal(leaderboardHref(), '/?leaderboard');
  assert.equal(leaderboardHref('eriantys', 3), '/?leaderboard=eriantys&players=3');
});
