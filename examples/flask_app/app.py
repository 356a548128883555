"""An example Flask app to put weir in front of, under Gunicorn's sync workers.

Gunicorn's sync worker closes the connection after every response, so this app also checks that
the gateway copes with an upstream that never keeps a connection alive.

Run: .venv/bin/gunicorn -w 2 --chdir examples --bind unix:/tmp/weir-example/flask.sock flask_app.app:app
"""

import time

from flask import Flask, Response, jsonify, request

app = Flask(__name__)

SMALL = {
    "message": "hello from weir's example app",
    "items": [1, 2, 3, 4, 5],
    "ok": True,
}

BIG = b"x" * 1_000_000


@app.get("/")
def root():
    return jsonify(SMALL)


@app.post("/echo")
def echo():
    body = request.get_data()
    return Response(body, content_type=request.content_type or "application/octet-stream")


@app.get("/headers")
def headers():
    return jsonify(
        {
            "headers": [[name, value] for name, value in request.headers.items()],
            "client": request.remote_addr,
        }
    )


@app.get("/big")
def big():
    # ?mb=N sends N megabytes (default 1), streamed, for tests of slow clients.
    megabytes = request.args.get("mb", default=1, type=int)
    if megabytes == 1:
        return Response(BIG, content_type="application/octet-stream")
    return Response(
        (BIG for _ in range(megabytes)),
        content_type="application/octet-stream",
        headers={"Content-Length": str(len(BIG) * megabytes)},
    )


@app.get("/slow")
def slow():
    ms = request.args.get("ms", default=100, type=int)
    time.sleep(ms / 1000)
    return jsonify({"slept_ms": ms})
