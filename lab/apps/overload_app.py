"""The app of the overload tests and the lab's `overload` scenario, as WSGI (sync, gthread) and
ASGI (Uvicorn workers).

`GET /work?ms=N&id=X` takes N milliseconds (default 50) and counts itself: with OVERLOAD_STATE
set to a directory, every worker process adds to `count` (requests in the app now and the most
ever at once, under a file lock), appends X to `seen` as it starts and to `finished` as it ends
(before its answer is written), so a test can read how many requests the app held at once, which
ones reached it and which ones were done with. `GET /stream?ms=N` (ASGI) sends its head and a
first chunk at once and its last chunk N milliseconds later (a body of unknown length: a stream, as
server-sent events), uncounted. `GET /watch?ms=N&id=X` (ASGI) waits N milliseconds or until its
client's leaving is seen (Starlette's `request.is_disconnected()` reads the same message), and
appends X-stopped or X-finished to `seen` (after X, as it starts), uncounted. Any other path answers
at once, uncounted.

`GET /mode?set=M` (with OVERLOAD_STATE) switches every worker's `/work`, for the adaptive-limit
tests: `ok` (the default), `fail` (answers 502 at once: a degraded app) or `block` (the ASGI app
sleeps without yielding, so requests in one worker run one after another: concurrency costs
latency, as with a blocking call in an async app).
"""

import asyncio
import fcntl
import os
import time
from urllib.parse import parse_qs

STATE = os.environ.get("OVERLOAD_STATE")


def _update(delta, seen=None, finished=None):
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
        # Written whole and renamed over: a reader that takes no lock (the tests) never finds
        # the file empty or half written.
        with open(path + ".new", "w") as f:
            f.write(f"{current} {most}")
        os.replace(path + ".new", path)
        for name, ident in (("seen", seen), ("finished", finished)):
            if ident is not None:
                with open(os.path.join(STATE, name), "a") as f:
                    f.write(ident + "\n")


def _mode():
    if not STATE:
        return "ok"
    try:
        with open(os.path.join(STATE, "mode")) as f:
            return f.read().strip() or "ok"
    except FileNotFoundError:
        return "ok"


def _set_mode(query):
    mode = parse_qs(query).get("set", ["ok"])[0]
    if STATE:
        with open(os.path.join(STATE, "mode"), "w") as f:
            f.write(mode)


def _params(query):
    params = parse_qs(query)
    millis = int(params.get("ms", ["50"])[0])
    ident = params.get("id", ["-"])[0]
    return millis, ident


def wsgi(environ, start_response):
    if environ.get("PATH_INFO") == "/mode":
        _set_mode(environ.get("QUERY_STRING", ""))
    if environ.get("PATH_INFO") == "/work":
        millis, ident = _params(environ.get("QUERY_STRING", ""))
        _update(1, ident)
        try:
            if _mode() == "fail":
                start_response("502 Bad Gateway", [("Content-Length", "0")])
                return [b""]
            time.sleep(millis / 1000)
        finally:
            _update(-1, finished=ident)
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "3")])
    return [b"ok\n"]


async def asgi(scope, receive, send):
    if scope["type"] != "http":
        return
    if scope["path"] == "/mode":
        _set_mode(scope.get("query_string", b"").decode())
    if scope["path"] == "/watch":
        millis, ident = _params(scope.get("query_string", b"").decode())
        _update(0, ident)
        await receive()  # the request (no body)
        try:
            message = await asyncio.wait_for(receive(), millis / 1000)
            outcome = "stopped" if message["type"] == "http.disconnect" else "finished"
        except asyncio.TimeoutError:
            outcome = "finished"
        _update(0, f"{ident}-{outcome}")
        if outcome == "stopped":
            return
    if scope["path"] == "/stream":
        millis, _ = _params(scope.get("query_string", b"").decode())
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"text/plain")],
            }
        )
        await send({"type": "http.response.body", "body": b"first\n", "more_body": True})
        await asyncio.sleep(millis / 1000)
        await send({"type": "http.response.body", "body": b"last\n"})
        return
    status = 200
    if scope["path"] == "/work":
        millis, ident = _params(scope.get("query_string", b"").decode())
        _update(1, ident)
        try:
            mode = _mode()
            if mode == "fail":
                status = 502
            elif mode == "block":
                time.sleep(millis / 1000)
            else:
                await asyncio.sleep(millis / 1000)
        finally:
            _update(-1, finished=ident)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/plain"), (b"content-length", b"3")],
        }
    )
    await send({"type": "http.response.body", "body": b"ok\n"})
