"""The app of the overload tests and the lab's `overload` scenario, as WSGI (sync, gthread) and
ASGI (Uvicorn workers).

`GET /work?ms=N&id=X` takes N milliseconds (default 50) and counts itself: with OVERLOAD_STATE
set to a directory, every worker process adds to `count` (requests in the app now and the most
ever at once, under a file lock) and appends X to `seen`, so a test can read how many requests
the app held at once and which ones reached it. Any other path answers at once, uncounted.
"""

import asyncio
import fcntl
import os
import time
from urllib.parse import parse_qs

STATE = os.environ.get("OVERLOAD_STATE")


def _update(delta, seen=None):
    if not STATE:
        return
    with open(os.path.join(STATE, "lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        path = os.path.join(STATE, "count")
        try:
            with open(path) as f:
                current, most = (int(x) for x in f.read().split())
        except (FileNotFoundError, ValueError):
            current, most = 0, 0
        current += delta
        most = max(most, current)
        with open(path, "w") as f:
            f.write(f"{current} {most}")
        if seen is not None:
            with open(os.path.join(STATE, "seen"), "a") as f:
                f.write(seen + "\n")


def _params(query):
    params = parse_qs(query)
    millis = int(params.get("ms", ["50"])[0])
    ident = params.get("id", ["-"])[0]
    return millis, ident


def wsgi(environ, start_response):
    if environ.get("PATH_INFO") == "/work":
        millis, ident = _params(environ.get("QUERY_STRING", ""))
        _update(1, ident)
        try:
            time.sleep(millis / 1000)
        finally:
            _update(-1)
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "3")])
    return [b"ok\n"]


async def asgi(scope, receive, send):
    if scope["type"] != "http":
        return
    if scope["path"] == "/work":
        millis, ident = _params(scope.get("query_string", b"").decode())
        _update(1, ident)
        try:
            await asyncio.sleep(millis / 1000)
        finally:
            _update(-1)
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"text/plain"), (b"content-length", b"3")],
        }
    )
    await send({"type": "http.response.body", "body": b"ok\n"})
