#!/usr/bin/env python3
"""docs/operations.md, "The replay tool": its example session, run for real.

Usage: operations_examples.py OPERATIONS_MD BIN_DIR...

The first ```sh block of the section is a terminal session. Every `$ ` line is a command, run
with bash in a fresh temporary folder (the session's working directory, with a `data/` folder),
with the build's tools first on PATH (each BIN_DIR holds eryantis-replay, eryantis-selfplay, ...).
The lines after a command, up to the next command or an empty line, are what it prints
(standard output and standard error together). They must match what it really prints, where:
  - a line that is only `...` stands for any number of lines;
  - `...` inside a line stands for any text;
  - a time in the page (`2026-11-26T01:40:33.462Z`, `2026-11-26 10:50:02`) stands for any time
    of that form, and the figures of `in 0.01 s (79098 events/s)` for any figures.
Every command must succeed (exit 0): one that fails on purpose shows its exit code with
`; echo $?`. A command the page shows no output for is not compared.
Every disagreement names the page's line. Exit 0 when the page is true, 1 otherwise.
"""
import os
import re
import subprocess
import sys
import tempfile

SECTION = "## The replay tool"
ISO_TIME = r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z"
LOG_TIME = r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}"
RATE = r"in \d+\.\d+ s \(\d+ events/s\)"


def read_session(path):
    """[(line_no, command, [(line_no, expected line)])] of the section's first sh block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(SECTION))
    begin = next(i for i in range(start, len(lines)) if lines[i].strip() == "```sh")
    end = next(i for i in range(begin + 1, len(lines)) if lines[i].strip() == "```")
    session = []
    collecting = False  # an empty line ends a command's output
    for i in range(begin + 1, end):
        line = lines[i]
        if line.startswith("$ "):
            session.append((i + 1, line[2:], []))
            collecting = True
        elif line.strip() == "":
            collecting = False
        elif collecting:
            session[-1][2].append((i + 1, line))
        else:
            raise SystemExit("%s:%d: output outside a command's: %r" % (path, i + 1, line))
    return session


def line_pattern(expected):
    """The regular expression a real line must match (see the module's docstring)."""
    parts = []
    for k, piece in enumerate(expected.split("...")):
        if k:
            parts.append(".*?")
        escaped = re.escape(piece)
        for time_text in re.findall(ISO_TIME, piece):
            escaped = escaped.replace(re.escape(time_text), ISO_TIME)
        for time_text in re.findall(LOG_TIME, piece):
            escaped = escaped.replace(re.escape(time_text), LOG_TIME)
        for rate in re.findall(RATE, piece):
            escaped = escaped.replace(re.escape(rate), RATE)
        parts.append(escaped)
    return re.compile("".join(parts) + r"\Z")


def matches(expected, actual):
    """Whether the real lines match the page's lines ("..." lines match any lines)."""
    if not expected:
        return not actual
    first = expected[0][1]
    if first.strip() == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and line_pattern(first).match(actual[0]) is not None and \
        matches(expected[1:], actual[1:])


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    page = sys.argv[1]
    path = os.pathsep.join(os.path.abspath(d) for d in sys.argv[2:]) + os.pathsep + \
        os.environ.get("PATH", "")
    session = read_session(page)
    failures = 0
    with tempfile.TemporaryDirectory(prefix="eryantis-ops-doc-") as cwd:
        os.mkdir(os.path.join(cwd, "data"))
        env = dict(os.environ, PATH=path, TZ="UTC")
        for line_no, command, expected in session:
            run = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, timeout=300)
            actual = run.stdout.decode("utf-8", "replace").rstrip("\n").split("\n")
            if actual == [""]:
                actual = []
            where = "docs/operations.md:%d: $ %s" % (line_no, command)
            if run.returncode != 0:
                failures += 1
                print("FAIL %s\n  exit %d:\n    %s" % (where, run.returncode,
                                                      "\n    ".join(actual[-10:])))
                continue
            if expected and not matches(expected, actual):
                failures += 1
                print("FAIL %s\n  the page says:\n    %s\n  it prints:\n    %s" % (
                    where, "\n    ".join(text for _, text in expected),
                    "\n    ".join(actual[:40])))
        print("%d commands of docs/operations.md's replay session, %d disagree" % (
            len(session), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
