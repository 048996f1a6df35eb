#!/usr/bin/env python3
"""An independent implementation of the state hash, written from docs/state.md
("The hash") alone, checked against rules::hash on states of real games.

Usage: state_hash.py EXPORTER   (EXPORTER prints {"name","hash","state"|"view"} lines)
Exit 0 when every hash agrees; otherwise each disagreement is named.
"""
import json
import subprocess
import sys

MASK = (1 << 64) - 1

COLOURS = ["yellow", "blue", "green", "red", "pink"]
ENUMS = {
    "colour": {c: i for i, c in enumerate(COLOURS)},
    "tower": {"black": 0, "white": 1, "grey": 2},
    "mode": {"simple": 0, "expert": 1},
    "phase": {"setup": 0, "planning": 1, "action": 2, "game_over": 3},
    "reason": {"none": 0, "last_tower": 1, "three_groups": 2, "bag_empty": 3,
               "no_assistants": 4, "forfeit": 5, "resign": 6, "ended": 7,
               "abandoned": 8},
    "character": {name: i for i, name in enumerate([
        "monk", "farmer", "herald", "postman", "grandma_herbs", "centaur", "jester",
        "knight", "mushroom_hunter", "minstrel", "princess", "thief"])},
}


def students(s):
    word = 0
    for c in COLOURS:
        word = (word << 8) | s[c]
    return word


def seat(x):
    return x + 1


def boolean(b):
    return 1 if b else 0


def optional(value, word_of):
    return 0 if value is None else word_of(value) + 1


def words(state):
    """The words fed, in the order of "The words fed"."""
    w = []
    w += [state["options"]["players"], ENUMS["mode"][state["options"]["mode"]]]
    seed = int(state.get("seed", "0"))  # a view has no seed: 0
    w.append(seed & MASK)
    if seed >> 64:
        w.append(seed >> 64)
    w += [state["events_applied"], ENUMS["phase"][state["phase"]], state["round"]]
    assert len(state["boards"]) == 4
    for b in state["boards"]:
        w += [students(b["entrance"]), students(b["dining"]), b["towers"], b["coins"], b["hand"],
              b["played"], b["discard"], optional(b["wizard"], lambda v: v),
              optional(b["tower_color"], ENUMS["tower"].__getitem__),
              boolean(b["holds_towers"]), boolean(b["skipped_planning"])]
    assert len(state["groups"]) == 12
    for g in state["groups"]:
        w += [students(g["students"]), g["first_tile"], g["tiles"],
              optional(g["tower"], ENUMS["tower"].__getitem__), g["towers"], g["no_entry"]]
    w += [state["group_count"], state["mother_nature"]]
    assert len(state["clouds"]) == 4
    for c in state["clouds"]:
        w += [students(c["students"]), boolean(c["taken"])]
    w.append(students(state["bag"]))
    w += [seat(state["professors"][c]) for c in COLOURS]
    assert len(state["characters"]) == 3
    for k in state["characters"]:
        w += [ENUMS["character"][k["id"]], boolean(k["used"]), students(k["students"]),
              k["no_entry"]]
    w += [state["supply"], seat(state["first_player"])]
    assert len(state["order"]) == 4
    w += [seat(x) for x in state["order"]]
    w += [state["order_size"], state["turn_index"], boolean(state["last_round"]),
          ENUMS["reason"][state["last_round_reason"]], boolean(state["skip_clouds"])]
    t = state["turn"]
    w += [t["students_moved"], boolean(t["mother_nature_moved"]), boolean(t["character_used"]),
          optional(t["active"], ENUMS["character"].__getitem__),
          optional(t["excluded_color"], ENUMS["colour"].__getitem__)]
    w += [ENUMS["reason"][state["result"]["reason"]], state["result"]["winners"]]
    return w


def state_hash(state):
    """The fold of "The fold"."""
    h = 0x455259414E544953
    for word in words(state):
        h = h ^ ((word + 0x9E3779B97F4A7C15 + ((h << 6) & MASK) + (h >> 2)) & MASK)
        h = (h * 0xFF51AFD7ED558CCD) & MASK
        h = h ^ (h >> 32)
    z = h
    z = ((z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53) & MASK
    z = z ^ (z >> 33)
    return format(z, "016x")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    out = subprocess.run([sys.argv[1]], check=True, capture_output=True, text=True).stdout
    checked, failed = 0, 0
    seen = {"view": 0, "wide seed": 0, "optional present": 0, "game over": 0}
    for line in out.splitlines():
        record = json.loads(line)
        state = record["state"] if "state" in record else record["view"]["state"]
        try:
            mine = state_hash(state)
        except (KeyError, TypeError, AssertionError) as e:
            mine = "cannot read the state: %r" % (e,)
        checked += 1
        if mine != record["hash"]:
            failed += 1
            print("MISMATCH %s: rules::hash %s, docs/state.md gives %s"
                  % (record["name"], record["hash"], mine))
        seen["view"] += "view" in record
        seen["wide seed"] += int(state.get("seed", "0")) >> 64 != 0
        seen["optional present"] += state["turn"]["active"] is not None
        seen["game over"] += state["phase"] == "game_over"
    print("state_hash.py: %d states checked, %d disagree; %s" % (checked, failed, seen))
    # Every kind of value the spec describes must have been exercised.
    missing = [k for k, n in seen.items() if n == 0]
    if missing:
        print("not exercised: %s" % missing)
    return 1 if failed or missing or checked < 50 else 0


if __name__ == "__main__":
    sys.exit(main())
