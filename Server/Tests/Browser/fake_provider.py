#!/usr/bin/env python3
"""A Strava-shaped OAuth provider for the browser flows, answering as the
OAuth end-to-end tests' FakeStrava does (Server/Tests/EndToEndTests/OAuth/FakeStrava.swift):

  GET  /oauth/authorize   the consent screen, approved at once: 302 to redirect_uri
                          with `state` and a one-time `code`
  POST /oauth/token       form body: client id and secret, grant_type=authorization_code,
                          the code (good once); answers tokens and the `athlete`, which
                          here also carries a verified email, athlete-<id>@example.com
                          (Strava gives none; a provider-only person with no address
                          could not be mailed a code)

Usage: fake_provider.py --providers-file PATH
Writes the auth-server provider file (generic provider `fake-strava`) to PATH,
binds 127.0.0.1 on a free port, prints exactly one line `READY <port>` and runs
until SIGTERM/SIGINT.
"""
import argparse
import json
import secrets
import signal
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CLIENT_ID = "12345"
CLIENT_SECRET = "strava-secret-for-tests"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--providers-file", required=True)
    args = parser.parse_args()
    codes, lock = {}, threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - http.server's naming
            url = urllib.parse.urlparse(self.path)
            query = dict(urllib.parse.parse_qsl(url.query))
            if url.path != "/oauth/authorize" or query.get("client_id") != CLIENT_ID \
                    or query.get("response_type") != "code" or "redirect_uri" not in query or "state" not in query:
                return self.answer(400, "text/plain", b"bad authorize request")
            redirect = query["redirect_uri"]
            items = {"state": query["state"]}
            athlete = 100_000 + secrets.randbelow(900_000)
            with lock:
                code = secrets.token_urlsafe(16)
                codes[code] = {"id": athlete, "email": f"athlete-{athlete}@example.com"}
            items["code"] = code
            self.send_response(302)
            self.send_header("Location", redirect + "?" + urllib.parse.urlencode(items))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_POST(self):  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
            with lock:
                account = codes.pop(form.get("code", ""), None)
            if self.path != "/oauth/token" or form.get("client_id") != CLIENT_ID \
                    or form.get("client_secret") != CLIENT_SECRET or form.get("grant_type") != "authorization_code" \
                    or account is None:
                body = {"message": "Bad Request", "errors": [{"resource": "AuthorizationCode", "field": "code", "code": "invalid"}]}
                return self.answer(400, "application/json", json.dumps(body).encode())
            body = {"token_type": "Bearer", "expires_at": 1568775134, "expires_in": 21600,
                    "refresh_token": "strava-refresh", "access_token": "strava-access",
                    "athlete": {"id": account["id"], "username": "marianne", "firstname": "Marianne",
                                "email": account["email"], "email_verified": True}}
            self.answer(200, "application/json", json.dumps(body).encode())

        def answer(self, status, content_type, body):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format, *args):  # noqa: A002 - overriding
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port = server.server_address[1]
    provider = {
        "name": "fake-strava", "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET,
        "authorize_url": f"http://127.0.0.1:{port}/oauth/authorize", "token_url": f"http://127.0.0.1:{port}/oauth/token",
        "account_id_field": "athlete.id", "profile_field": "athlete", "scopes": ["read"], "scope_separator": ",",
    }
    with open(args.providers_file, "w") as file:
        json.dump([provider], file)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(f"READY {port}", flush=True)
    try:
        server.serve_forever()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
