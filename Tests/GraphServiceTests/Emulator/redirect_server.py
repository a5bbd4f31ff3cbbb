"""A server that redirects, for the test that calport-http never carries the token elsewhere.

GET /same redirects (302) to /landed on this origin; GET /away redirects to /landed on
http://localhost:PORT, another origin (RFC 6454: the host differs). /landed answers 200 with
the Authorization header it received, or "none". Prints "PORT n" when listening.
"""
import http.server
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        port = self.server.server_address[1]
        if self.path == "/same":
            self.send_response(302)
            self.send_header("Location", "/landed")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif self.path == "/away":
            self.send_response(302)
            self.send_header("Location", f"http://localhost:{port}/landed")
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            body = ("auth=" + self.headers.get("Authorization", "none")).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    def log_message(self, *arguments):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
print(f"PORT {server.server_address[1]}", flush=True)
server.serve_forever()
