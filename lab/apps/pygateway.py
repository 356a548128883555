"""A rate-limiting gateway in Python, written for the lab as in study 004: aiohttp, one process,
a leaky bucket per client address, 429 on excess, everything else proxied to one upstream.

Run: python pygateway.py --port PORT --upstream unix:/path/app.sock [--rate R --burst B]
     (--rate 0, the default, turns limiting off: the gateway only proxies.)

The bucket follows nginx's limit_req with nodelay: each client has an "excess" that drains at
`rate` per second and grows by one per request; a request that would push it past `burst` is
rejected. Bodies are read whole before they are forwarded, as the study's gateway did.
"""

import argparse
import time

import aiohttp
from aiohttp import web

HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "host",
    "content-length",
}


class LeakyBucket:
    def __init__(self, rate: float, burst: int):
        self.rate = rate
        self.burst = burst
        # client -> (excess, time of last update)
        self.state: dict[str, tuple[float, float]] = {}

    def allow(self, client: str) -> bool:
        now = time.monotonic()
        excess, last = self.state.get(client, (0.0, now))
        excess = max(0.0, excess - self.rate * (now - last)) + 1.0
        if excess > self.burst + 1.0:
            # Rejected requests do not fill the bucket, as in nginx.
            self.state[client] = (excess - 1.0, now)
            return False
        self.state[client] = (excess, now)
        return True


def build_app(upstream: str, rate: float, burst: int) -> web.Application:
    bucket = LeakyBucket(rate, burst) if rate > 0 else None
    if upstream.startswith("unix:"):
        base = "http://upstream"
        socket_path = upstream[len("unix:"):]

        def connector() -> aiohttp.BaseConnector:
            return aiohttp.UnixConnector(path=socket_path, limit=0)
    else:
        base = "http://" + upstream

        def connector() -> aiohttp.BaseConnector:
            return aiohttp.TCPConnector(limit=0)

    async def on_startup(app: web.Application) -> None:
        app["session"] = aiohttp.ClientSession(
            connector=connector(), auto_decompress=False, timeout=aiohttp.ClientTimeout(total=65)
        )

    async def on_cleanup(app: web.Application) -> None:
        await app["session"].close()

    async def proxy(request: web.Request) -> web.StreamResponse:
        client = request.remote or ""
        if bucket is not None and not bucket.allow(client):
            return web.Response(status=429, text="Too Many Requests\n")
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_BY_HOP}
        headers["Host"] = request.host
        forwarded = request.headers.get("X-Forwarded-For")
        headers["X-Forwarded-For"] = f"{forwarded}, {client}" if forwarded else client
        headers["X-Real-IP"] = client
        body = await request.read()
        try:
            async with app["session"].request(
                request.method, base + request.path_qs, headers=headers, data=body or None
            ) as upstream_response:
                payload = await upstream_response.read()
                out_headers = {
                    k: v for k, v in upstream_response.headers.items() if k.lower() not in HOP_BY_HOP
                }
                return web.Response(status=upstream_response.status, body=payload, headers=out_headers)
        except (aiohttp.ClientError, OSError):
            return web.Response(status=502, text="Bad Gateway\n")

    app = web.Application(client_max_size=20 * 1024 * 1024)
    app.on_startup.append(on_startup)
    app.on_cleanup.append(on_cleanup)
    app.router.add_route("*", "/{tail:.*}", proxy)
    return app


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--rate", type=float, default=0.0)
    parser.add_argument("--burst", type=int, default=0)
    args = parser.parse_args()
    app = build_app(args.upstream, args.rate, args.burst)
    web.run_app(app, host="127.0.0.1", port=args.port, backlog=4096, access_log=None, print=None)


if __name__ == "__main__":
    main()
