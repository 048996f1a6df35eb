#!/usr/bin/env python3
"""docs/protocol.md section 7 (the walk-throughs) against a real eryantis-server.

Usage: protocol_examples.py SERVER_BINARY PROTOCOL_MD

1. Every example line is read from the document: `C(name): {...}` requests and `S(name): {...}`
   server messages (`{…}`, `{...}`, `[...]` and `,...` mark elided parts; `"field":…` a field
   whose value is left out, which must still be there, in its place).
2. Every request example is sent to the server on a fresh connection (after hello and login,
   unless it is one of those): the decoder must accept it (no BAD_JSON, UNKNOWN_TYPE,
   MISSING_FIELD or INVALID_FIELD), unless the document's reply to it is that very error, which
   must then come back.
3. A scripted session (two 2-player matches, a spectator, a resume, a forfeit, an abandoned
   match, the heartbeat and a shutdown) makes the server write every kind of message the
   walk-throughs show. Each server example is compared with a real message of the same kind
   (type; error code; with or without `id`; event with or without `view`; ack replayed or not;
   logged_in with or without a seat): the same fields in the same order ("Fields are listed in
   the order the server writes them", section 4), recursively into objects and the first
   element of arrays, and the same kind of value (object, array, scalar).

Every disagreement names the document line (docs/protocol.md:LINE, section, speaker) and what
differs. Examples of a kind the session does not produce are listed as not checked.
Exit 0 when nothing disagrees, 1 otherwise, 2 when the server cannot be started.
"""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

ELIDED = "\u2026elided"  # a key marking an object whose other fields the document left out
ANY_VALUE = "\u2026any"  # a value the document left out (`"deadline":…`): the field must be there
DECODE_ERRORS = {"BAD_JSON", "UNKNOWN_TYPE", "MISSING_FIELD", "INVALID_FIELD"}

# Disagreements known when this test was written, each decided elsewhere (issue 11 asks to
# make the code and the document agree on them). Each is reported, not failed; an entry that no
# longer occurs fails the test ("stale"), so it is removed once the code and the page agree.
KNOWN_DRIFT = {}


# ---------------------------------------------------------------------------
# Reading the document


class Example:
    def __init__(self, line_no, section, speaker, direction, text):
        self.line_no = line_no
        self.section = section
        self.speaker = speaker  # "alice", or "" when the example names nobody
        self.direction = direction  # "C" or "S"
        self.text = text
        self.obj = None  # the parsed JSON, elisions marked
        self.partial = False  # some fields were left out somewhere

    def where(self):
        who = "%s(%s)" % (self.direction, self.speaker) if self.speaker else self.direction
        return "docs/protocol.md:%d (%s) %s: %s" % (self.line_no, self.section, who,
                                                     shorten(self.text))


def shorten(text, limit=110):
    return text if len(text) <= limit else text[:limit] + "…"


def parse_elided(text):
    """JSON with the document's elisions, marked so comparisons skip what was left out."""
    marked = text
    marked = marked.replace("{…}", '{"%s":true}' % ELIDED).replace("{...}", '{"%s":true}' % ELIDED)
    marked = marked.replace("[...]", '["%s"]' % ELIDED).replace("[…]", '["%s"]' % ELIDED)
    marked = re.sub(r"\[(\.\.\.|…)[^\]\[{}]*\]", '["%s"]' % ELIDED, marked)  # [...same...]
    marked = re.sub(r'(":)\s*(\.\.\.|…)\s*(?=[,}\]])', r'\1"%s"' % ANY_VALUE, marked)  # "deadline":…
    marked = re.sub(r",\s*(\.\.\.|…)\s*(?=[,}])", ',"%s":true' % ELIDED, marked)
    marked = re.sub(r",\s*(\.\.\.|…)\s*(?=\])", ',"%s"' % ELIDED, marked)
    obj = json.loads(marked)
    return obj, marked != text


def read_examples(path):
    examples = []
    in_section = False
    in_block = False
    section = ""
    line_re = re.compile(r"^(C|S)(?:\(([^)]*)\))?: (.*)$")
    with open(path, encoding="utf-8") as f:
        for line_no, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if line.startswith("## "):
                in_section = re.match(r"## 7\b", line) is not None
                continue
            if not in_section:
                continue
            if line.startswith("### "):
                section = line[4:].strip()
                continue
            if line.startswith("```"):
                in_block = not in_block
                continue
            if not in_block:
                continue
            m = line_re.match(line)
            if not m:
                continue
            direction, speaker, text = m.group(1), m.group(2) or "", m.group(3)
            ex = Example(line_no, section, speaker, direction, text)
            try:
                ex.obj, ex.partial = parse_elided(text)
            except ValueError:
                ex.obj = None  # "garbage" (a request that is not JSON) or prose
            examples.append(ex)
    return examples


# ---------------------------------------------------------------------------
# Talking to the server


class Server:
    def __init__(self, binary, folder):
        self.folder = folder
        self.log_path = os.path.join(folder, "server.log")
        config = os.path.join(folder, "eryantis.toml")
        with open(config, "w") as f:
            f.write("""[network]
listen = "127.0.0.1"
port = 0
[storage]
database = "%s"
durability = "normal"
[heartbeat]
interval_ms = 1000
timeout_ms = 3000
[matches]
turn_grace_ms = 300
forfeit_after_ms = 600
abandon_after_ms = 600
[limits]
commands_per_second = 100000
""" % os.path.join(folder, "eryantis.db"))
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen([binary, "--config", config, "--port", "0"],
                                        stdout=self.log, stderr=subprocess.STDOUT)
        self.port = 0
        deadline = time.time() + 20
        while time.time() < deadline and self.process.poll() is None:
            with open(self.log_path, encoding="utf-8", errors="replace") as f:
                m = re.search(r"listening on 127\.0\.0\.1:(\d+) ", f.read())
            if m:
                self.port = int(m.group(1))
                return
            time.sleep(0.02)
        raise RuntimeError("the server did not start:\n" + self.tail())

    def tail(self):
        with open(self.log_path, encoding="utf-8", errors="replace") as f:
            return "".join(f.readlines()[-30:])

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)
        self.log.close()


RECEIVED = []  # (connection name, message) of every line any connection received
KNOWN_SEEN = set()  # the KNOWN_DRIFT entries that occurred


class Conn:
    def __init__(self, port, name, answer_pings=True):
        self.name = name
        self.answer_pings = answer_pings  # as a client must (section 3, "Answering the server's ping")
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.buffer = b""
        self.inbox = []
        self.closed = False
        self.token = None
        self.next_id = 100

    def send(self, line):
        if not isinstance(line, str):
            line = json.dumps(line, separators=(",", ":"))
        self.sock.sendall(line.encode() + b"\n")

    def _read_one(self, deadline):
        while b"\n" not in self.buffer:
            if self.closed:
                return None
            left = deadline - time.time()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                return None
            except OSError:
                data = b""
            if not data:
                self.closed = True
                return None
            self.buffer += data
        line, self.buffer = self.buffer.split(b"\n", 1)
        message = json.loads(line.decode())
        RECEIVED.append((self.name, message))
        if self.answer_pings and message.get("type") == "ping" and "id" not in message:
            self.send({"type": "pong"})
        return message

    def next(self, timeout=5.0):
        if self.inbox:
            return self.inbox.pop(0)
        return self._read_one(time.time() + timeout)

    def wait(self, predicate, timeout=5.0, what="a message"):
        for i, m in enumerate(self.inbox):
            if predicate(m):
                return self.inbox.pop(i)
        deadline = time.time() + timeout
        while True:
            m = self._read_one(deadline)
            if m is None:
                raise AssertionError("%s: no %s within %.1f s" % (self.name, what, timeout))
            if predicate(m):
                return m
            self.inbox.append(m)

    def wait_type(self, type_, timeout=5.0):
        return self.wait(lambda m: m.get("type") == type_, timeout, "`%s`" % type_)

    def request(self, body, timeout=5.0):
        body = dict(body)
        if "id" not in body:
            self.next_id += 1
            body["id"] = self.next_id
        self.send(body)
        return self.wait(lambda m: m.get("id") == body["id"] and m.get("type") != "event",
                         timeout, "reply to %s" % json.dumps(body))

    def hello(self, updates="full"):
        reply = self.request({"type": "hello", "protocol": 1, "updates": updates})
        assert reply["type"] == "welcome", reply
        return reply

    def login(self, nickname, token=None):
        body = {"type": "login", "nickname": nickname}
        if token:
            body["token"] = token
        reply = self.request(body)
        if reply["type"] == "logged_in":
            self.token = reply["token"]
        return reply

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


# ---------------------------------------------------------------------------
# The requests of the document, one fresh connection each


def replies_to(examples):
    """For each request example, the document's reply: the next server example of the same
    speaker with the same id (or, for a request without id, the next server example)."""
    out = {}
    for i, ex in enumerate(examples):
        if ex.direction != "C":
            continue
        want_id = ex.obj.get("id") if isinstance(ex.obj, dict) else None
        for later in examples[i + 1:i + 6]:
            if later.direction == "C" and later.speaker == ex.speaker:
                break
            if later.direction != "S" or later.speaker != ex.speaker or not isinstance(later.obj, dict):
                continue
            if want_id is None or later.obj.get("id") == want_id:
                out[i] = later
                break
    return out


def check_requests(port, examples, problems):
    documented = replies_to(examples)
    checked = 0
    for i, ex in enumerate(examples):
        if ex.direction != "C":
            continue
        doc_reply = documented.get(i)
        doc_code = doc_reply.obj.get("code") if doc_reply and doc_reply.obj.get("type") == "error" else None
        request_type = ex.obj.get("type") if isinstance(ex.obj, dict) else None
        conn = Conn(port, "request-check")
        try:
            # The context a request needs to be decoded: hello first, and a login for
            # everything but hello and login themselves.
            if request_type != "hello" and doc_code != "HELLO_FIRST":
                conn.hello()
                if request_type != "login":
                    conn.login("chk%d" % i)
            conn.send(ex.text)
            conn.send({"type": "ping", "id": "sentinel"})
            reply = None
            while True:
                m = conn.next(5.0)
                if m is None:
                    problems.append("%s\n    no reply at all (not even to a ping after it)" % ex.where())
                    break
                if m.get("id") == "sentinel":
                    break
                if m.get("type") in ("state", "seats", "event", "ping", "game_over"):
                    continue  # pushes
                if reply is None:
                    reply = m
            code = reply.get("code") if reply and reply.get("type") == "error" else None
            if code in DECODE_ERRORS and code != doc_code:
                problems.append("%s\n    the server refuses this request: %s" % (ex.where(), json.dumps(reply)))
            elif doc_code in DECODE_ERRORS and code != doc_code:
                problems.append("%s\n    documented reply %s, the server sent %s"
                                % (ex.where(), doc_code, json.dumps(reply)))
            checked += 1
        except (AssertionError, OSError, ValueError) as e:
            problems.append("%s\n    could not be checked: %s" % (ex.where(), e))
        finally:
            conn.close()
    return checked


# ---------------------------------------------------------------------------
# The scripted session


def play(conn, command, **extra):
    body = {"type": "play", "command": command}
    body.update(extra)
    return conn.request(body)


def session(server, steps_failed, problems):
    port = server.port

    def expect(reply, code, where):
        """The walk-through's reply to a request the session replays: a difference is drift."""
        got = reply.get("code") if reply.get("type") == "error" else reply.get("type")
        if got != code:
            text = ("docs/protocol.md section %s: the walk-through answers %s, the server sends %s"
                    % (where, code, json.dumps(reply)))
            known = "%s %s" % (where, code)
            if known in KNOWN_DRIFT:
                KNOWN_SEEN.add(known)
                print("KNOWN DRIFT %s\n    (%s)" % (text, KNOWN_DRIFT[known]))
            else:
                problems.append(text)
        return reply
    views = {}  # the latest full view state per match (from any full-mode message)

    def remember(m):
        view = m.get("view")
        if isinstance(view, dict) and "state" in view and "match" in m:
            views[m["match"]] = view["state"]

    def step(name, fn):
        try:
            fn()
        except Exception as e:  # a step that fails is reported; the others still run
            steps_failed.append("scripted step '%s' failed: %s: %s" % (name, type(e).__name__, e))

    ctx = {}

    def connect_and_errors():
        silent = Conn(port, "silent", answer_pings=False)
        silent.hello()
        ctx["silent"] = silent
        a = Conn(port, "alice")
        expect(a.request({"type": "login", "nickname": "alice"}), "HELLO_FIRST", "7.1")
        expect(a.request({"type": "hello", "protocol": 2}), "UNSUPPORTED_PROTOCOL", "7.1")
        a.request({"type": "hello", "protocol": 1, "client": "doc-check/1", "updates": "full"})
        a.login("alice")
        expect(a.request({"type": "login", "nickname": "bob"}), "ALREADY_LOGGED_IN", "7.1")
        a.send("garbage")
        a.wait(lambda m: m.get("code") == "BAD_JSON")
        a.request({"type": "nope", "id": "x"})
        a.request({"type": "create_match", "players": 5})
        a.request({"type": "ping", "id": "p1"})
        a.send({"type": "pong"})
        b = Conn(port, "bob")
        b.hello("events")
        b.login("bob")
        c = Conn(port, "carol")
        c.hello("full")
        c.login("carol")
        ctx.update(alice=a, bob=b, carol=c)

    def lobby():
        a, b, c = ctx["alice"], ctx["bob"], ctx["carol"]
        # dave watches the lobby (7.2, watching): the list now, then a push per change.
        d = Conn(port, "dave")
        d.hello()
        d.request({"type": "watch_lobby"})
        a.request({"type": "list_matches"})
        joined = a.request({"type": "create_match", "players": 2, "mode": "simple"})
        ctx["m1"] = joined["match"]
        remember(a.wait_type("state"))
        d.wait(lambda m: m.get("type") == "match_list" and "id" not in m and m["open"])
        expect(d.request({"type": "unwatch_lobby"}), "unwatched", "7.2")
        d.close()
        joined2 = c.request({"type": "create_match", "players": 3, "mode": "expert"})
        c.wait_type("state")
        b.request({"type": "list_matches"})
        expect(a.request({"type": "create_match", "players": 2}), "ALREADY_IN_MATCH", "7.2")
        b.request({"type": "join_match", "match": joined2["match"]})
        b.wait_type("state")
        c.wait_type("seats")
        b.request({"type": "leave_match"})
        c.wait_type("seats")
        j = b.request({"type": "quick_join", "players": 2})
        assert j["type"] == "joined" and j["match"] == ctx["m1"], j
        b.wait_type("state")
        a.wait_type("seats")
        # Full but still in setup: bob could still leave (the text after the example), and
        # takes the seat back at once.
        expect(b.request({"type": "leave_match"}), "left", "7.2")
        a.wait_type("seats")
        j = b.request({"type": "quick_join", "players": 2})
        assert j["type"] == "joined" and j["match"] == ctx["m1"], j
        b.wait_type("state")
        a.wait_type("seats")
        c.request({"type": "leave_match"})
        expect(c.request({"type": "join_match", "match": ctx["m1"]}), "MATCH_FULL", "7.2")
        expect(c.request({"type": "join_match", "match": ctx["m1"], "seat": 4}), "INVALID_FIELD", "7.3")
        c.request({"type": "spectate", "match": ctx["m1"]})
        remember(c.wait_type("state"))

    def setup():
        a, b = ctx["alice"], ctx["bob"]
        assert play(a, {"type": "choose_wizard", "wizard": 0})["type"] == "ack"
        remember(a.wait_type("event"))
        expect(play(b, {"type": "choose_wizard", "wizard": 0}), "WIZARD_TAKEN", "7.3")
        ack = play(b, {"type": "choose_wizard", "wizard": 1})
        assert ack["type"] == "ack", ack
        stale = play(a, {"type": "choose_tower_color", "color": "black"}, expected_seq=ack["seq"] + 1)
        expect(stale, "STALE_SEQ", "7.3")
        assert play(a, {"type": "choose_tower_color", "color": "black"},
                    expected_seq=ack["seq"])["type"] == "ack"
        expect(play(b, {"type": "choose_tower_color", "color": "black"}), "TOWER_COLOR_TAKEN", "7.3")
        expect(play(b, {"type": "choose_tower_color", "color": "grey"}), "TOWER_COLOR_NOT_AVAILABLE", "7.3")
        last = play(b, {"type": "choose_tower_color", "color": "white"})
        assert last["type"] == "ack", last
        started = a.wait(lambda m: m.get("type") == "event" and m.get("seq") == last["seq"])
        remember(started)
        ctx["to_act"] = started["to_act"]

    def planning():
        a, b = ctx["alice"], ctx["bob"]
        players = {0: a, 1: b}
        first = players[ctx["to_act"][0]]
        other = b if first is a else a
        expect(play(other, {"type": "play_assistant", "value": 3}), "NOT_YOUR_TURN", "7.4")
        body = {"type": "play", "command_id": "first-1",
                "command": {"type": "play_assistant", "value": 5}}
        ack = first.request(body)
        assert ack["type"] == "ack", ack
        body["expected_seq"] = ack["seq"] - 1
        replayed = first.request(body)
        assert replayed.get("replayed") is True, replayed
        expect(play(other, {"type": "play_assistant", "value": 5}), "ASSISTANT_ALREADY_PLAYED", "7.4")
        ack2 = play(other, {"type": "play_assistant", "value": 3}, command_id="other-1")
        assert ack2["type"] == "ack", ack2
        ctx["actor"] = other  # the lower assistant acts first
        # Play has started: a seat can no longer be given back (section 7.2, after the example).
        expect(a.request({"type": "leave_match"}), "ALREADY_IN_MATCH", "7.2")
        event = a.wait(lambda m: m.get("type") == "event" and m.get("seq") == ack2["seq"])
        remember(event)
        ctx["carol_event"] = ctx["carol"].wait(lambda m: m.get("type") == "event" and m.get("seq") == ack2["seq"])
        remember(ctx["carol_event"])

    def action():
        actor = ctx["actor"]
        m1 = ctx["m1"]
        expect(play(actor, {"type": "move_mother_nature", "steps": 1}), "STUDENTS_NOT_MOVED", "7.5")
        seat = 0 if actor is ctx["alice"] else 1
        for _ in range(3):
            state = views[m1]
            entrance = state["boards"][seat]["entrance"]
            colour = next(c for c, n in entrance.items() if n > 0)
            ack = play(actor, {"type": "move_to_island", "color": colour, "island": 0})
            assert ack["type"] == "ack", ack
            remember(ctx["carol"].wait(lambda m: m.get("type") == "event" and m.get("seq") == ack["seq"]))
        expect(play(actor, {"type": "move_to_island", "color": "green", "island": 3}), "NO_STUDENT_MOVES_LEFT", "7.5")
        expect(play(actor, {"type": "move_mother_nature", "steps": 3}), "MOTHER_NATURE_TOO_FAR", "7.5")
        moved = play(actor, {"type": "move_mother_nature", "steps": 1})
        assert moved["type"] == "ack", moved
        remember(ctx["carol"].wait(lambda m: m.get("type") == "event" and m.get("seq") == moved["seq"]))
        clouds = views[m1]["clouds"]
        cloud = next(i for i in range(2) if not clouds[i]["taken"])
        ack = play(actor, {"type": "choose_cloud", "cloud": cloud})
        assert ack["type"] == "ack", ack
        ctx["alice"].request({"type": "sync"})

    def spectate_other():
        e = Conn(port, "eve")
        e.hello()
        e.request({"type": "spectate", "match": ctx["m1"]})
        e.wait_type("state")
        # Arrived mid-match: the events before, read back (7.10, move_log).
        log = expect(e.request({"type": "move_log"}), "move_log", "7.10")
        assert log["lines"] and log["lines"][0]["seq"] == 1 and not log["more"], log
        e.request({"type": "sync"})
        expect(e.request({"type": "play", "command": {"type": "play_assistant", "value": 1}}), "NOT_A_PLAYER", "7.10")
        # Logging in keeps spectating (the login takes back no seat), and play stays NOT_A_PLAYER.
        e.login("eve")
        expect(e.request({"type": "sync"}), "state", "7.10")
        expect(e.request({"type": "play", "command": {"type": "play_assistant", "value": 1}}), "NOT_A_PLAYER", "7.10")
        # A logged-in spectator chats with the spectators (7.10, chat): the reply, then the push.
        expect(e.request({"type": "chat", "text": "<img src=x onerror=alert(1)>"}), "chat_sent", "7.10")
        e.wait_type("chat")
        expect(e.request({"type": "leave_match"}), "left", "7.10")
        # A logged-in spectator (carol watches match 1) cannot play either.
        expect(play(ctx["carol"], {"type": "play_assistant", "value": 1}), "NOT_A_PLAYER", "7.10")
        expect(e.request({"type": "sync"}), "NOT_IN_MATCH", "7.10")
        e.close()

    def resume_and_forfeit():
        a, b = ctx["alice"], ctx["bob"]
        token = b.token
        b.close()
        a.wait(lambda m: m.get("type") == "seats" and not m["seats"][1]["connected"])
        b2 = Conn(port, "bob")
        b2.send({"type": "hello", "protocol": 1, "updates": "events"})
        b2.wait_type("welcome")
        expect(b2.request({"type": "login", "nickname": "bob"}), "NICKNAME_TAKEN", "7.8")
        expect(b2.request({"type": "login", "nickname": "bob", "token": "0000"}), "BAD_TOKEN", "7.8")
        back = b2.login("bob", token)
        assert back.get("match") == ctx["m1"], back
        b2.wait_type("state")
        b2.wait_type("seats")
        b2.close()  # alice alone: she wins by forfeit
        a.wait(lambda m: m.get("type") == "event" and m["event"]["type"] == "award_forfeit", 5)
        a.wait_type("game_over", 5)
        expect(a.request({"type": "sync"}), "NOT_IN_MATCH", "7.8")
        a.request({"type": "quick_join"})
        a.wait_type("state")

    def abandon():
        a = ctx["alice"]
        d = Conn(port, "dave")
        d.hello()
        d.login("dave")
        d.request({"type": "quick_join", "players": 2})
        a.wait_type("seats")
        d.close()
        a.wait_type("match_abandoned", 5)

    def heartbeat():
        silent = ctx["silent"]
        silent.wait_type("ping", 5)
        silent.wait_type("shutdown", 6)

    def shutdown():
        z = Conn(port, "zoe")
        z.hello()
        server.process.send_signal(signal.SIGTERM)
        z.wait_type("shutdown", 5)
        try:  # the server may be gone before these arrive: best effort
            z.send({"type": "sync", "id": 9})
            z.send({"type": "ping", "id": 10})
            z.wait(lambda m: m.get("id") == 10, 2)
        except (AssertionError, OSError):
            pass

    for name, fn in [("7.1 connect and errors", connect_and_errors), ("7.2 lobby", lobby),
                     ("7.3 setup", setup), ("7.4 planning", planning), ("7.5 action", action),
                     ("7.10 spectating", spectate_other),
                     ("7.8 resume and forfeit", resume_and_forfeit),
                     ("7.8 abandoned match", abandon), ("7.11 heartbeat", heartbeat)]:
        step(name, fn)
    return lambda: step("7.11 shutdown", shutdown)


# ---------------------------------------------------------------------------
# Comparing shapes


def kind_key(m):
    """What makes two messages comparable field by field."""
    t = m.get("type")
    has_id = "id" in m
    if t == "error":
        return (t, m.get("code"), has_id)
    if t == "event":
        # `status` only on the event that moved the match on (docs/protocol.md 6).
        return (t, "view" in m, "status" in m)
    if t == "ack":
        return (t, "replayed" in m, has_id)
    if t == "logged_in":
        return (t, "match" in m, has_id)
    return (t, has_id)


def value_kind(v):
    if isinstance(v, dict):
        return "object"
    if isinstance(v, list):
        return "array"
    return "scalar"


def compare(doc, real, path, out):
    """Appends to `out` how `real` differs from the document's `doc` (elisions skipped)."""
    if isinstance(doc, dict) and isinstance(real, dict):
        elided = ELIDED in doc
        doc_keys = [k for k in doc if k != ELIDED]
        real_keys = list(real)
        missing = [k for k in doc_keys if k not in real]
        if missing:
            out.append("%s: the server does not send %s (it sends %s)" % (path or "message", missing, real_keys))
        if not elided:
            extra = [k for k in real_keys if k not in doc]
            if extra:
                out.append("%s: the server also sends %s, not in the example" % (path or "message", extra))
        common_doc = [k for k in doc_keys if k in real]
        common_real = [k for k in real_keys if k in common_doc]
        if common_doc != common_real:
            out.append("%s: fields in the order %s, the server writes %s" % (path or "message", common_doc, common_real))
        for k in common_doc:
            compare(doc[k], real[k], (path + "." if path else "") + k, out)
    elif isinstance(doc, list) and isinstance(real, list):
        items = [x for x in doc if x != ELIDED]
        if items and real and isinstance(items[0], (dict, list)):
            compare(items[0], real[0], path + "[0]", out)
    elif doc == ANY_VALUE:
        return  # the document left the value out; the field itself was checked above
    elif doc is None or real is None:
        return  # null stands for an absent value of any kind (a spectator's seat, a free seat's nickname)
    elif value_kind(doc) != value_kind(real):
        out.append("%s: the example has %s, the server sends %s" % (path, json.dumps(doc), json.dumps(real)))


def check_server_examples(examples, problems, not_checked):
    by_kind = {}
    for _, m in RECEIVED:
        by_kind.setdefault(kind_key(m), []).append(m)
    checked = 0
    for ex in examples:
        if ex.direction != "S":
            continue
        if not isinstance(ex.obj, dict) or "type" not in ex.obj:
            not_checked.append("%s (not a JSON message)" % ex.where())
            continue
        key = kind_key(ex.obj)
        candidates = by_kind.get(key)
        if not candidates and key[0] == "error":
            # A code the session cannot provoke (it needs a particular character in play):
            # its shape is checked against the errors of other codes.
            candidates = [m for k, ms in by_kind.items() if k[0] == "error" and k[2] == key[2]
                          for m in ms]
            if candidates:
                not_checked.append("%s (its code is not produced: checked as another error)"
                                   % ex.where())
        if not candidates:
            not_checked.append("%s (the session produced no %s)" % (ex.where(), key))
            continue
        doc = ex.obj
        event = doc.get("event")
        if ex.obj.get("type") == "event" and isinstance(event, dict) and "type" in event:
            same = [m for m in candidates if m["event"].get("type") == event["type"]]
            if same:
                candidates = same
            elif isinstance(event.get("command"), dict):
                # Each command's fields are docs/state.md's (tests/codec checks them): here
                # only that the event carries a command object.
                doc = json.loads(json.dumps(doc))
                doc["event"]["command"] = {ELIDED: True}
        # The closest real message: the one with the fewest differences.
        best = None
        for real in candidates[:50]:
            diffs = []
            compare(doc, real, "", diffs)
            if best is None or len(diffs) < len(best[0]):
                best = (diffs, real)
            if not diffs:
                break
        checked += 1
        if best[0]:
            problems.append("%s\n    %s\n    server: %s" % (ex.where(), "\n    ".join(best[0]),
                                                           shorten(json.dumps(best[1], separators=(",", ":")), 300)))
    return checked


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    binary, document = sys.argv[1], sys.argv[2]
    examples = read_examples(document)
    requests = [e for e in examples if e.direction == "C"]
    pushes = [e for e in examples if e.direction == "S"]
    print("protocol_examples.py: %d request and %d server examples in section 7 of %s"
          % (len(requests), len(pushes), document))
    if len(requests) < 10 or len(pushes) < 10:
        print("too few examples found: has the section's format changed?")
        return 1
    problems, not_checked, steps_failed = [], [], []
    with tempfile.TemporaryDirectory() as folder:
        try:
            server = Server(binary, folder)
        except RuntimeError as e:
            print(e)
            return 2
        try:
            # The session first: the requests' throwaway matches would be quick-joined.
            shutdown = session(server, steps_failed, problems)
            requests_checked = check_requests(server.port, examples, problems)
            shutdown()
        finally:
            log = server.tail()
            server.stop()
    pushes_checked = check_server_examples(examples, problems, not_checked)
    stale = sorted(set(KNOWN_DRIFT) - KNOWN_SEEN)
    for k in stale:
        problems.append("KNOWN_DRIFT entry '%s' no longer occurs: remove it from %s"
                        % (k, os.path.basename(__file__)))
    for s in steps_failed:
        print("STEP FAILED " + s)
    for p in problems:
        print("DRIFT " + p)
    for n in not_checked:
        print("note: " + n)
    print("protocol_examples.py: %d of %d requests and %d of %d server examples checked, "
          "%d disagree, %d scripted steps failed"
          % (requests_checked, len(requests), pushes_checked, len(pushes), len(problems),
             len(steps_failed)))
    if steps_failed:
        print("---- server log (tail) ----\n" + log)
    # Most examples must be checkable, or the test would pass by checking nothing.
    if pushes_checked < 0.8 * len(pushes):
        print("fewer than 80% of the server examples were checked")
        return 1
    return 1 if problems or steps_failed else 0


if __name__ == "__main__":
    sys.exit(main())
