"""The mock external API of study 003: a static JSON answer and nothing else.

Run: python mock_api.py --port PORT   (aiohttp, one process, loopback only)
"""

import argparse

from aiohttp import web

BODY = b'{"id": 42, "name": "mock", "tags": ["a", "b", "c"], "ok": true}'


async def handle(_request: web.Request) -> web.Response:
    return web.Response(body=BODY, content_type="application/json")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    app = web.Application()
    app.router.add_get("/", handle)
    # A large backlog: the app's workers open up to 200 pooled connections at once.
    web.run_app(app, host="127.0.0.1", port=args.port, backlog=4096, access_log=None, print=None)


if __name__ == "__main__":
    main()
