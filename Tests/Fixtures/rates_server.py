#!/usr/bin/env python3
"""A rates provider for the tests, on 127.0.0.1 only, on a port the OS picks.

Prints the port on its first line, then serves until its stdin closes (the test ends)
or 120 seconds pass. Paths:
  /latest?from=CODE  a valid snapshot (exchangerate-api / Frankfurter shape) with one
                     non-ISO code (FOK) to be skipped
  /slow              answers after 5 seconds
  /error             HTTP 500
  /bad               malformed JSON
  /negative          a snapshot with a negative rate
  /count             how many /latest requests were served
"""
import http.server, json, sys, threading, time, urllib.parse

served = {"latest": 0}

class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, status, body):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path == "/latest":
            served["latest"] += 1
            base = query.get("from", ["USD"])[0]
            rates = {"INR": "84.2512", "SGD": "1.3377", "EUR": "0.9211", "FOK": "6.8"}
            rates.pop(base, None)
            body = '{"provider":"test","base":"%s","date":"2026-11-20","time_last_updated":1,"rates":{%s}}' % (
                base, ",".join('"%s":%s' % (k, v) for k, v in rates.items()))
            self.send(200, body)
        elif url.path == "/slow":
            time.sleep(5)
            self.send(200, '{"base":"USD","date":"2026-11-20","rates":{"INR":84}}')
        elif url.path == "/error":
            self.send(500, '{"error":"boom"}')
        elif url.path == "/bad":
            self.send(200, '{"base":"USD","date":"2026-11-20","rates":{"INR":84,')
        elif url.path == "/negative":
            self.send(200, '{"base":"USD","date":"2026-11-20","rates":{"INR":-84}}')
        elif url.path == "/count":
            self.send(200, json.dumps(served))
        else:
            self.send(404, "{}")

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
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
