#!/usr/bin/env python3
"""A real SMTP server (aiosmtpd) for the mail tests: stores each message as a .eml file.

Usage: smtp-listener.py --port 0 --maildir DIR [--tls-cert CERT --tls-key KEY] [--auth USER:PASS]

Binds 127.0.0.1 only, prints exactly one line `READY <port>` once listening, and runs until
SIGTERM/SIGINT. Each delivered message is written to DIR/<n>.eml atomically (temp file, then
rename, so a reader never sees half a message), with the envelope prepended as
`X-Envelope-From:` and `X-Envelope-To:` header lines.
"""
import argparse
import asyncio
import itertools
import os
import signal
import ssl
import sys
import time

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


class MaildirHandler:
    def __init__(self, maildir):
        self.maildir = maildir
        self.counter = itertools.count(1)

    async def handle_DATA(self, server, session, envelope):
        name = f"{time.time_ns()}-{os.getpid()}-{next(self.counter)}"
        envelope_lines = (
            f"X-Envelope-From: {envelope.mail_from}\r\n"
            f"X-Envelope-To: {', '.join(envelope.rcpt_tos)}\r\n"
        ).encode("ascii", "replace")
        temporary = os.path.join(self.maildir, f".{name}.tmp")
        with open(temporary, "wb") as file:
            file.write(envelope_lines + envelope.original_content)
            file.flush()
            os.fsync(file.fileno())
        os.rename(temporary, os.path.join(self.maildir, f"{name}.eml"))
        return "250 OK stored"


def make_authenticator(user, password):
    def authenticate(server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and auth_data.login == user.encode() \
            and auth_data.password == password.encode()
        # handled=False makes aiosmtpd answer 535 itself; the default leaves the client waiting.
        return AuthResult(success=ok, handled=False)
    return authenticate


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--maildir", required=True)
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    parser.add_argument("--auth", help="USER:PASS; AUTH (PLAIN or LOGIN) is then required")
    args = parser.parse_args()
    os.makedirs(args.maildir, exist_ok=True)

    options = {"hostname": "localhost", "decode_data": False}
    if args.tls_cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.tls_cert, args.tls_key)
        options.update(tls_context=context, require_starttls=True)
    if args.auth:
        user, _, password = args.auth.partition(":")
        # Without TLS, AUTH in clear is allowed here only because this server binds loopback.
        options.update(authenticator=make_authenticator(user, password), auth_required=True,
                       auth_require_tls=bool(args.tls_cert))

    handler = MaildirHandler(args.maildir)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(handler, **options), host="127.0.0.1", port=args.port)
    stop = asyncio.Event()
    # A parent may start us with these blocked (Foundation's Process inherits
    # the test runner's signal mask): then SIGTERM would never arrive, and
    # every stopped listener would outlive its test.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    print(f"READY {server.sockets[0].getsockname()[1]}", flush=True)
    await stop.wait()
    server.close()
    await server.wait_closed()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
