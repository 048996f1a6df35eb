#!/usr/bin/env python3
"""Writes the seed corpora of fuzz_http_request and fuzz_ws_frames (run by hand:
`python3 tests/fuzz/make_web_corpus.py tests/fuzz/corpus`; the corpus is committed).

The requests are what a browser sends the web listener (the page, its files, the
replay API, the WebSocket upgrade), alone and pipelined; the frames are what the
web client sends after the upgrade: masked text frames carrying the protocol
lines of corpus/request, a fragmented message, ping, pong and close."""
import pathlib
import sys

BROWSER = ("Host: 127.0.0.1:8080\r\n"
           "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0\r\n"
           "Accept: */*\r\nAccept-Language: en-US,en;q=0.5\r\nAccept-Encoding: gzip, deflate\r\n")


def get(target, extra="", method="GET"):
    return f"{method} {target} HTTP/1.1\r\n{BROWSER}{extra}Connection: keep-alive\r\n\r\n"


UPGRADE = ("GET /ws HTTP/1.1\r\n" + BROWSER +
           "Origin: http://127.0.0.1:8080\r\nSec-WebSocket-Version: 13\r\n"
           "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nConnection: keep-alive, Upgrade\r\n"
           "Upgrade: websocket\r\n\r\n")

REQUESTS = {
    "page": get("/"),
    "script": get("/app.js", "Referer: http://127.0.0.1:8080/\r\n"),
    "revalidate": get("/style.css", 'If-None-Match: "1a2b-65f0c1d2"\r\n'),
    "head": get("/index.html", method="HEAD"),
    "replay-list": get("/api/matches"),
    "replay-log": get("/api/matches/42/log"),
    "replay-at": get("/api/matches/42/at/17?x=1"),
    "health": "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    "pipelined": get("/") + get("/app.js") + get("/api/matches"),
    "http10": "GET /readyz HTTP/1.0\r\n\r\n",
    "post-body": ("POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  "Content-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"limit\": 10}"),
    "chunked": ("POST /api/x HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                "5\r\nhello\r\n0\r\n\r\n"),
    "encoded-path": get("/assets/a%20b.svg"),
    "upgrade": UPGRADE,
    "upgrade-then-frame": UPGRADE + "\x81\x85\x37\xfa\x21\x3d\x7f\x9f\x4d\x51\x58",
    "upgrade-old-version": UPGRADE.replace("Version: 13", "Version: 8"),
}


def frame(opcode, payload, fin=True, mask=b"\x37\xfa\x21\x3d"):
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head += bytes([0x80 | 127]) + n.to_bytes(8, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def main(out):
    out = pathlib.Path(out)
    http = out / "http_request"
    http.mkdir(parents=True, exist_ok=True)
    for name, text in REQUESTS.items():
        (http / name).write_bytes(text.encode("latin-1"))

    ws = out / "ws_frames"
    ws.mkdir(parents=True, exist_ok=True)
    lines = []
    for path in sorted((out / "request").iterdir()):
        lines += [l for l in path.read_bytes().split(b"\n") if l][:4]
    for i, line in enumerate(lines[:24]):
        (ws / f"line-{i}").write_bytes(frame(1, line))
    session = b"".join(frame(1, l) for l in lines[:6])
    (ws / "session").write_bytes(session)
    text = lines[0]
    (ws / "fragmented").write_bytes(frame(1, text[:10], fin=False) + frame(9, b"p") +
                                    frame(0, text[10:]))
    (ws / "ping-pong").write_bytes(frame(9, b"hi") + frame(10, b"") + frame(1, text))
    (ws / "close").write_bytes(frame(1, text) + frame(8, (1000).to_bytes(2, "big") + b"bye"))
    (ws / "binary").write_bytes(frame(2, b"\x00\x01\x02"))
    (ws / "long").write_bytes(frame(1, b'{"type":"login","id":1,"nickname":"' + b"x" * 600 + b'"}'))
    (ws / "unicode").write_bytes(frame(1, '{"type":"login","nickname":"Zoë 🦜"}'.encode()))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/fuzz/corpus")
