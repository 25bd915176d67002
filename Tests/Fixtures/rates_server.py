#!/usr/bin/env python3
"""A rates provider for the tests, on 127.0.0.1 only, on a port the OS picks.

Prints the port on its first line, then serves until its stdin closes (the test ends)
or 120 seconds pass. Paths:
  /latest?from=CODE  a valid snapshot (exchangerate-api / Frankfurter shape) with one
                     non-ISO code (FOK) to be skipped
  /other?from=CODE   another valid snapshot, dated a day later (2026-11-21)
  /slow              answers after 5 seconds
  /error             HTTP 500
  /bad               malformed JSON
  /negative          a snapshot with a negative rate
  /redirect?to=URL   302 to URL (on this server or another)
  /dupbase           "base" twice
  /wrongbase         EUR rates whatever was asked
  /future            dated 2099-01-01
  /escape            a rates key holding an escape sequence
  /nan               a rate of NaN
  /big               a valid snapshot padded past 1 MB
  /seen              what was asked so far: {"latest": count of /latest and /other,
                     "authorization": [Authorization headers], "paths": [request paths]}
"""
import http.server, json, sys, threading, time, urllib.parse

seen = {"latest": 0, "authorization": [], "paths": []}

def snapshot(base, date="2026-11-20", rates=None, extra=""):
    rates = dict(rates or {"INR": "84.2512", "SGD": "1.3377", "EUR": "0.9211", "FOK": "6.8"})
    rates.pop(base, None)
    return '{"provider":"test","base":"%s","date":"%s","time_last_updated":1,%s"rates":{%s}}' % (
        base, date, extra, ",".join('"%s":%s' % (k, v) for k, v in rates.items()))

class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, status, body, headers=()):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        try:
            self.wfile.write(data)
        except OSError:
            pass  # the client stopped reading (a response past its size limit)

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        query = urllib.parse.parse_qs(url.query)
        base = query.get("from", ["USD"])[0]
        if url.path != "/seen":
            seen["paths"].append(self.path)
            if self.headers.get("Authorization"):
                seen["authorization"].append(self.headers["Authorization"])
        if url.path == "/latest":
            seen["latest"] += 1
            self.send(200, snapshot(base))
        elif url.path == "/other":
            seen["latest"] += 1
            self.send(200, snapshot(base, date="2026-11-21", rates={"INR": "85", "SGD": "1.34", "EUR": "0.93"}))
        elif url.path == "/slow":
            time.sleep(5)
            self.send(200, snapshot(base))
        elif url.path == "/error":
            self.send(500, '{"error":"boom"}')
        elif url.path == "/bad":
            self.send(200, '{"base":"USD","date":"2026-11-20","rates":{"INR":84,')
        elif url.path == "/negative":
            self.send(200, '{"base":"USD","date":"2026-11-20","rates":{"INR":-84}}')
        elif url.path == "/redirect":
            self.send(302, "", [("Location", query["to"][0])])
        elif url.path == "/dupbase":
            self.send(200, '{"base":"USD","base":"EUR","date":"2026-11-20","rates":{"INR":84}}')
        elif url.path == "/wrongbase":
            self.send(200, snapshot("EUR"))
        elif url.path == "/future":
            self.send(200, snapshot(base, date="2099-01-01"))
        elif url.path == "/escape":
            self.send(200, '{"base":"USD","date":"2026-11-20","rates":{"INR":84,"\\u001b[31mRED":1}}')
        elif url.path == "/nan":
            self.send(200, '{"base":"USD","date":"2026-11-20","rates":{"INR":NaN}}')
        elif url.path == "/big":
            self.send(200, snapshot(base, extra='"pad":"%s",' % ("a" * (2 << 20))))
        elif url.path == "/seen":
            self.send(200, json.dumps(seen))
        else:
            self.send(404, "{}")

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
deadline = time.time() + 120
def wait_for_stdin():
    sys.stdin.read()
    server.shutdown()
threading.Thread(target=wait_for_stdin, daemon=True).start()
while time.time() < deadline and threading.active_count() > 2:
    time.sleep(0.2)
server.shutdown()
