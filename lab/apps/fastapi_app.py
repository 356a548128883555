"""The lab's FastAPI app, run under Gunicorn + UvicornWorker in the studies' layouts.

Endpoints, each as a plain `def` (run in AnyIO's thread pool) and as an `async def`:
  /sync, /async                    ~100 B JSON (studies 000, 001)
  /sync-big, /async-big            1 MB body (studies 000, 001)
  /external-sync, /external-async  call the mock external API through an httpx client (study 003)
  /upload (POST, the body's length), /limited (small, behind weir's limit), /ws (WebSocket echo;
  needs the `websockets` package of .venv-standard)  the soak's mixed traffic
/ is the async small endpoint, so every gateway's health probe has a cheap target.

The httpx pool limits come from the environment, so one app file serves every pool size:
  LAB_EXTERNAL_URL      the mock API, e.g. http://127.0.0.1:9000/
  LAB_POOL_MAX          httpx max_connections (default 100)
  LAB_POOL_KEEPALIVE    httpx max_keepalive_connections (default 20)
Gunicorn forks its workers after importing nothing (no --preload), so every worker builds its own
clients: pools are per worker, as the study stresses.
"""

import os

import httpx
from fastapi import FastAPI, Request, Response, WebSocket, WebSocketDisconnect

app = FastAPI()

SMALL = {
    "message": "hello from the weir lab",
    "items": [1, 2, 3, 4, 5],
    "ok": True,
    "pad": "abcdefghijklmnop",
}
BIG = b"x" * 1_000_000

EXTERNAL_URL = os.environ.get("LAB_EXTERNAL_URL", "http://127.0.0.1:9000/")
POOL_MAX = int(os.environ.get("LAB_POOL_MAX", "100"))
POOL_KEEPALIVE = int(os.environ.get("LAB_POOL_KEEPALIVE", "20"))


def limits() -> httpx.Limits:
    return httpx.Limits(max_connections=POOL_MAX, max_keepalive_connections=POOL_KEEPALIVE)


# A pool-full wait is part of what study 003 measures, so the pool timeout is long rather than
# httpx's 5 s default, which would turn queueing into errors.
TIMEOUT = httpx.Timeout(30.0, pool=60.0)
sync_client = httpx.Client(limits=limits(), timeout=TIMEOUT)
async_client = None


def get_async_client() -> httpx.AsyncClient:
    # Built on first use, inside the worker's event loop.
    global async_client
    if async_client is None:
        async_client = httpx.AsyncClient(limits=limits(), timeout=TIMEOUT)
    return async_client


@app.get("/")
async def root():
    return SMALL


@app.get("/sync")
def sync_small():
    return SMALL


@app.get("/async")
async def async_small():
    return SMALL


@app.get("/sync-big")
def sync_big():
    return Response(content=BIG, media_type="application/octet-stream")


@app.get("/async-big")
async def async_big():
    return Response(content=BIG, media_type="application/octet-stream")


# httpx's sync pool, shared by the thread pool's threads, now and then hands a request a
# connection that another thread's request has just closed (`ReadError: Bad file descriptor`,
# seen in the lab's quick runs at pool=2). The app's answer would then be a 500 that no gateway
# caused, and a void cell; one retry when the connection broke, before any byte of the answer, is what
# a careful client does, and keeps what study 003 measures (the wait for the pool).
TRANSPORT_RETRIES = 1
# A connection that broke under the request; not a time-out (a pool wait is what is measured).
STALE_CONNECTION = (httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError)


@app.get("/external-sync")
def external_sync():
    for attempt in range(TRANSPORT_RETRIES + 1):
        try:
            response = sync_client.get(EXTERNAL_URL)
            break
        except STALE_CONNECTION:
            if attempt == TRANSPORT_RETRIES:
                raise
    response.raise_for_status()
    return response.json()


@app.get("/external-async")
async def external_async():
    for attempt in range(TRANSPORT_RETRIES + 1):
        try:
            response = await get_async_client().get(EXTERNAL_URL)
            break
        except STALE_CONNECTION:
            if attempt == TRANSPORT_RETRIES:
                raise
    response.raise_for_status()
    return response.json()


@app.post("/upload")
async def upload(request: Request):
    body = await request.body()
    return {"received": len(body)}


@app.get("/limited")
async def limited():
    return SMALL


@app.websocket("/ws")
async def websocket_echo(websocket: WebSocket):
    await websocket.accept()
    try:
        while True:
            await websocket.send_text(await websocket.receive_text())
    except WebSocketDisconnect:
        pass
