"""A DNS server for weir's tests (weir-testkit's DnsServer): answers A and AAAA queries over UDP
on 127.0.0.1 from a table the test changes through stdin, so that a test can move a name to
other addresses while weir runs.

Protocol, one line each way:
  start:  prints "ready PORT" once it listens (port 0: the kernel chooses).
  stdin:  "set NAME TTL [ADDR ...]" sets NAME's addresses (none: the name is removed, NXDOMAIN);
          answers "ok".
        "count NAME" answers how many queries for NAME came so far (A and AAAA alike).
        "silent on" / "silent off": from now on queries are counted but not answered (a
          resolver that has gone quiet), or answered again; answers "ok".
        End of stdin stops the server.
A name in the table with no address of the asked family answers NOERROR with no records (as
Docker's resolver answers AAAA); a name not in the table answers NXDOMAIN.
"""

import ipaddress
import socket
import sys
import threading

from dnslib import AAAA, QTYPE, RCODE, RR, A, DNSRecord

table = {}
queries = {}
silent = threading.Event()
lock = threading.Lock()


def key(name):
    return str(name).rstrip(".").lower()


def answer(data):
    request = DNSRecord.parse(data)
    reply = request.reply()
    question = request.q
    with lock:
        entry = table.get(key(question.qname))
        queries[key(question.qname)] = queries.get(key(question.qname), 0) + 1
    if silent.is_set():
        return None
    if entry is None:
        reply.header.rcode = RCODE.NXDOMAIN
        return reply.pack()
    ttl, addrs = entry
    for addr in addrs:
        if addr.version == 4 and question.qtype in (QTYPE.A, QTYPE.ANY):
            reply.add_answer(RR(question.qname, QTYPE.A, rdata=A(str(addr)), ttl=ttl))
        if addr.version == 6 and question.qtype in (QTYPE.AAAA, QTYPE.ANY):
            reply.add_answer(RR(question.qname, QTYPE.AAAA, rdata=AAAA(str(addr)), ttl=ttl))
    return reply.pack()


def serve(sock):
    while True:
        data, peer = sock.recvfrom(4096)
        try:
            reply = answer(data)
            if reply is not None:
                sock.sendto(reply, peer)
        except Exception as error:  # a malformed query: no answer, as a real server may do
            print(f"dns: {error}", file=sys.stderr, flush=True)


def main():
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    threading.Thread(target=serve, args=(sock,), daemon=True).start()
    print(f"ready {sock.getsockname()[1]}", flush=True)
    for line in sys.stdin:
        words = line.split()
        if len(words) >= 3 and words[0] == "set":
            name, ttl = key(words[1]), int(words[2])
            addrs = [ipaddress.ip_address(word) for word in words[3:]]
            with lock:
                if addrs:
                    table[name] = (ttl, addrs)
                else:
                    table.pop(name, None)
            print("ok", flush=True)
        elif len(words) == 2 and words[0] == "silent" and words[1] in ("on", "off"):
            if words[1] == "on":
                silent.set()
            else:
                silent.clear()
            print("ok", flush=True)
        elif len(words) == 2 and words[0] == "count":
            with lock:
                print(queries.get(key(words[1]), 0), flush=True)
        else:
            print(f"error: {line.strip()!r}", flush=True)


if __name__ == "__main__":
    main()
