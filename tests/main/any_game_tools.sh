#!/usr/bin/env bash
# eryantis-selfplay and eryantis-arena on every game of the catalogue, as a user
# runs them (--game): each game plays to its end, a game or options the build does
# not have are refused with exit 2 and a sentence; eryantis-bot refuses them the
# same way before it connects (its games are played against a server: tests/client).
# Usage: any_game_tools.sh SELFPLAY ARENA [BOT TEST_BOT]
set -uo pipefail
selfplay=$1
arena=$2
bot=${3:-}
test_bot=${4:-}
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
expect() {  # expect CODE PATTERN -- COMMAND...
  local code=$1 pattern=$2
  shift 3
  local out
  out=$("$@" 2>&1)
  local got=$?
  [ "$got" -eq "$code" ] || fail "$* exited $got, not $code: $(tail -3 <<<"$out")"
  grep -qE -- "$pattern" <<<"$out" || fail "$* printed no /$pattern/: $(tail -5 <<<"$out")"
}

expect 0 '5 finished, 0 broken' -- "$selfplay" --game renaissance --players 2 --games 5 --quiet
expect 0 'command uses' -- "$selfplay" --game renaissance --players 4 --games 2 --quiet
expect 0 '3 finished, 0 broken' -- "$selfplay" --game renaissance --players 1 --games 3 --quiet
# The game's own coverage (issue 25): every leader kind played and every solo token revealed.
# Random commands seldom meet a leader's requirement, so the greedy computers play; the seeds
# are fixed, so this is the same run every time.
covered() {  # covered "WORDS..." -- COMMAND...: each word's line shows in the output
  local words=$1
  shift 2
  local out
  out=$("$@" 2>&1) || fail "$* exited $?: $(tail -3 <<<"$out")"
  for w in $words; do
    grep -qE -- "^ +${w/_/ } +[0-9]+" <<<"$out" || fail "$* never used ${w/_/ }: $(tail -12 <<<"$out")"
  done
}
covered "leader_discount leader_extra_depot leader_white_marble leader_production" -- \
  "$selfplay" --game renaissance --players 2 --games 200 --quiet --policy greedy
covered "token_T1 token_T2 token_T3 token_T4 token_T5 token_T6 token_T7" -- \
  "$selfplay" --game renaissance --players 1 --games 20 --quiet --policy greedy
expect 2 'games other than Eriantys' -- "$selfplay" --game eriantys --policy greedy --games 1
expect 0 'strong +alone +1p.*wins' -- "$arena" --game renaissance --levels strong --players 1 --games 1 --playouts 50
expect 2 'players must be' -- "$arena" --game eriantys --players 1 --games 1
expect 0 '3 finished, 0 broken' -- "$selfplay" --game eriantys --players 3 --games 3 --quiet
expect 2 'renaissance' -- "$selfplay" --game chess --games 1
expect 2 'Eriantys' -- "$selfplay" --game renaissance --mode expert --games 1
expect 2 'options' -- "$selfplay" --game renaissance --options '[1]' --games 1
expect 0 'greedy +v random +2p' -- "$arena" --game renaissance --levels random,greedy --players 2 --games 2
expect 0 'greedy +v random +2p .*"mode":"simple"' -- "$arena" --levels random,greedy --players 2 --games 2 --mode simple
expect 2 'renaissance' -- "$arena" --game chess --games 1
if [ -n "$bot" ]; then
  # An unused port: a check that let one of these through would fail to connect, not hang.
  expect 2 'renaissance' -- "$bot" --game chess --games 1 --port 9 --give-up 1
  expect 2 'Eriantys' -- "$bot" --game renaissance --mode expert --games 1 --port 9 --give-up 1
  expect 2 'options' -- "$bot" --game renaissance --options '[1]' --games 1 --port 9 --give-up 1
  expect 2 'mode' -- "$bot" --options '{"mode":"blitz"}' --games 1 --port 9 --give-up 1
  expect 2 '2 to 4 players' -- "$bot" --game eriantys --players 1 --games 1 --port 9 --give-up 1
  expect 2 'no game "goofspiel"' -- "$bot" --game goofspiel --games 1 --port 9 --give-up 1
  expect 2 'sometimes not in' -- "$bot" --game renaissance --updates sometimes --games 1 --port 9 --give-up 1
fi
if [ -n "$test_bot" ]; then
  # The tests' bot knows Goofspiel (and checks its options); the release's does not.
  expect 2 'cards' -- "$test_bot" --game goofspiel --options '{"cards":20}' --games 1 --port 9
  expect 2 'Eriantys' -- "$test_bot" --game goofspiel --mode expert --games 1 --port 9
  # Goofspiel's hidden bids cannot be followed from events alone: the bot says so and exits.
  expect 2 'cannot follow goofspiel from events alone' -- "$test_bot" --game goofspiel --updates events --games 1 --port 9 --give-up 1
fi

if [ "$failures" -gt 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "every game of the catalogue runs in eryantis-selfplay and eryantis-arena; eryantis-bot checks its --game and --options"
