#!/usr/bin/env python3
"""A burst of account logins against a running server (bench/load.sh l).

  bench/login_burst.py --port P register N     # N accounts burst-0 .. burst-(N-1)
  bench/login_burst.py --port P login N        # N logins at once, each on its own connection

Each request goes on its own TCP connection (hello, then register or login), all at once,
as N players arriving together would. BUSY (the password workers' queue is full) and
RATE_LIMITED are answered again after the server's retry_after_ms (100 ms for BUSY), as a
client should. Prints one JSON line: how many succeeded, how many BUSY / RATE_LIMITED
answers were retried, and the latency from the first attempt to logged_in (p50, p99, max,
ms) and the whole burst's wall time. Exit 1 when any request ends in another error.
"""
import argparse
import asyncio
import json
import sys
import time

PASSWORD = "burst password 1"


async def one(port, kind, name, deadline):
    """One player's register or login, retried while BUSY/RATE_LIMITED; (ms, retries) or error."""
    start = time.monotonic()
    retries = 0
    while True:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 22)
        try:
            request = {"type": kind, "id": 1, "name": name, "password": PASSWORD}
            writer.write(b'{"type":"hello","protocol":1}\n' + json.dumps(request).encode() + b"\n")
            await writer.drain()
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None, retries, "timeout"
                line = await asyncio.wait_for(reader.readline(), timeout=left)
                if not line:
                    return None, retries, "closed"
                message = json.loads(line)
                if message.get("id") != 1:
                    continue  # welcome, pushes
                if message["type"] == "logged_in":
                    return (time.monotonic() - start) * 1000.0, retries, None
                code = message.get("code", message["type"])
                if code in ("BUSY", "RATE_LIMITED"):
                    retries += 1
                    await asyncio.sleep(max(message.get("retry_after_ms", 100), 1) / 1000.0)
                    break  # a new connection, as a client that reconnects would
                return None, retries, code
        finally:
            writer.close()


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100.0 * (len(ordered) - 1))))]


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds for the whole burst")
    parser.add_argument("kind", choices=["register", "login"])
    parser.add_argument("count", type=int)
    args = parser.parse_args()
    deadline = time.monotonic() + args.timeout
    start = time.monotonic()
    results = await asyncio.gather(
        *(one(args.port, args.kind, f"burst-{i}", deadline) for i in range(args.count)))
    wall_ms = (time.monotonic() - start) * 1000.0
    latencies = [ms for ms, _, error in results if error is None]
    errors = {}
    for _, _, error in results:
        if error is not None:
            errors[error] = errors.get(error, 0) + 1
    print(json.dumps({
        "kind": args.kind,
        "requests": args.count,
        "succeeded": len(latencies),
        "retried": sum(r for _, r, _ in results),
        "errors": errors,
        "latency_p50_ms": round(percentile(latencies, 50), 1),
        "latency_p99_ms": round(percentile(latencies, 99), 1),
        "latency_max_ms": round(max(latencies) if latencies else float("nan"), 1),
        "wall_ms": round(wall_ms, 1),
    }))
    return 0 if not errors else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
