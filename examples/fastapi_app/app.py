"""An example FastAPI app to put weir in front of, under Gunicorn + UvicornWorker.

Its endpoints cover what a gateway must carry: small JSON from sync and async handlers, a 1 MB
body, a request body echoed back, any status, a slow handler, a slow stream (`/drip`), the headers the app received (to
check X-Forwarded-For and friends), and a WebSocket echo.

Run: .venv/bin/gunicorn -k uvicorn.workers.UvicornWorker -w 2 --chdir examples \
         --bind unix:/tmp/weir-example/gunicorn.sock fastapi_app.app:app
"""

import asyncio
import time

from fastapi import FastAPI, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.responses import StreamingResponse

app = FastAPI()

# About 100 bytes of JSON, like the small responses in the studies.
SMALL = {
    "message": "hello from weir's example app",
    "items": [1, 2, 3, 4, 5],
    "ok": True,
}

# 1 MB (10^6 bytes) of JSON-safe text, built once at import.
BIG = b"x" * 1_000_000


@app.get("/")
async def root():
    return SMALL


@app.get("/sync")
def sync_small():
    # A plain def runs in AnyIO's thread pool, as sync endpoints do in production.
    return SMALL


@app.get("/async")
async def async_small():
    return SMALL


@app.get("/big")
async def big():
    return Response(content=BIG, media_type="application/octet-stream")


@app.post("/echo")
async def echo(request: Request):
    body = await request.body()
    content_type = request.headers.get("content-type", "application/octet-stream")
    return Response(content=body, media_type=content_type)


@app.get("/status/{code}")
async def status(code: int):
    return Response(content=f"status {code}\n", status_code=code, media_type="text/plain")


# `/slow` requests the app is in the middle of, for a test that must know the app has its request
# (`/slow-in-flight`) before it kills the app.
slow_in_flight = 0


@app.get("/slow")
async def slow(ms: int = 100):
    global slow_in_flight
    slow_in_flight += 1
    try:
        await asyncio.sleep(ms / 1000)
    finally:
        slow_in_flight -= 1
    return {"slept_ms": ms}


@app.get("/slow-in-flight")
async def slow_requests_in_flight():
    return {"in_flight": slow_in_flight}


@app.get("/slow-sync")
def slow_sync(ms: int = 100):
    time.sleep(ms / 1000)
    return {"slept_ms": ms}


@app.get("/drip")
async def drip(chunks: int = 10, ms: int = 100, length: bool = False):
    # `chunks` pieces of 1 KiB, `ms` apart: chunked, or under a Content-Length with `length`.
    # For the tests that crash the app mid-response.
    async def pieces():
        for _ in range(chunks):
            yield b"x" * 1024
            await asyncio.sleep(ms / 1000)

    headers = {"Content-Length": str(chunks * 1024)} if length else None
    return StreamingResponse(pieces(), media_type="application/octet-stream", headers=headers)


@app.get("/headers")
async def headers(request: Request):
    # Lists keep repeated headers; the client address is what the app saw as its peer.
    return {
        "headers": [[name, value] for name, value in request.headers.items()],
        "client": request.client.host if request.client else None,
    }


@app.websocket("/ws")
async def websocket_echo(websocket: WebSocket):
    await websocket.accept()
    try:
        while True:
            message = await websocket.receive_text()
            await websocket.send_text(message)
    except WebSocketDisconnect:
        pass
