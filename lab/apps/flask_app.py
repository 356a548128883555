"""The lab's Flask app, run under Gunicorn's sync workers (studies 002 and 004).

  /          ~100 B JSON
  /big       1 MB body
  /file      the file named by LAB_STATIC_FILE, sent with send_file (study 002's Flask side)
"""

import os

from flask import Flask, Response, jsonify, send_file

app = Flask(__name__)

SMALL = {
    "message": "hello from the weir lab",
    "items": [1, 2, 3, 4, 5],
    "ok": True,
    "pad": "abcdefghijklmnop",
}
BIG = b"x" * 1_000_000
STATIC_FILE = os.environ.get("LAB_STATIC_FILE", "")


@app.get("/")
def root():
    return jsonify(SMALL)


@app.get("/big")
def big():
    return Response(BIG, content_type="application/octet-stream")


@app.get("/file")
def file():
    return send_file(STATIC_FILE, mimetype="application/octet-stream")
