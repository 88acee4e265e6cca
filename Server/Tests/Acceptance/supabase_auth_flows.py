#!/usr/bin/env python3
"""Acceptance flows: the unmodified `supabase_auth` Python client against a live auth-server.

Two modes, both started by scripts/supabase-acceptance.sh:

  supabase_auth_flows.py jwks --key-file PATH
      Plays Apple's key server: makes an RSA 2048 key, writes its private half
      (PEM) to PATH, serves the public half as a JWKS at http://127.0.0.1:<port>/keys
      from an http.server thread, prints exactly one line `READY <port>`, and runs
      until SIGTERM/SIGINT.

  supabase_auth_flows.py flows --url URL --maildir DIR --key-file PATH --issuer ISS --client-id AUD
                                --service-key-file PATH
      Runs the flows (email code sign-in, password sign-up confirmed by mailed
      code then sign-in, password reset, Sign in with Apple by
      ID token, no mail for an unknown address, the admin API driven by
      client.admin with the service-role key read from PATH, and
      reauthenticate() then update_user({"password", "nonce"}) for a person
      without a password, past the server's re-authentication window) through
      SyncGoTrueClient, reading the codes from the .eml files the SMTP listener
      writes. Prints a PASS line per check; the first failure prints FAIL and
      exits 1.

ACCEPTANCE_PLANT=wrong-code makes flow 1 verify with a code that is not the
mailed one, and ACCEPTANCE_PLANT=no-ban makes flow 5 skip the ban while still
expecting the banned user's refresh to be refused, so the run must fail: proof
that the harness can. ACCEPTANCE_PLANT=autoconfirm (read by the script) starts
the server with --autoconfirm, so flow 2's sign-up signs in at once and fails.
ACCEPTANCE_PLANT=no-nonce makes flow 6 set the password without the mailed
nonce, which the server must refuse.
"""
import argparse
import base64
import email
import email.policy
import hashlib
import json
import os
import re
import secrets
import signal
import sys
import threading
import time
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

KID = "test-1"
MAIL_TIMEOUT = 15.0


# --------------------------------------------------------------------------- failures

class Failure(Exception):
    """An acceptance check that did not hold."""


def check(condition, message):
    if not condition:
        raise Failure(message)


def passed(message):
    print(f"PASS {message}", flush=True)


def describe(error):
    """An exception as one line, with the AuthApiError fields when there are any."""
    fields = [type(error).__name__]
    for name in ("status", "code"):
        value = getattr(error, name, None)
        if value is not None:
            fields.append(f"{name}={value}")
    message = getattr(error, "message", None) or str(error)
    return f"{' '.join(fields)}: {message}"


def expect_api_error(what, action, code=None):
    """Runs `action`, which must raise AuthApiError (with `code`, when given); returns the error."""
    from supabase_auth.errors import AuthApiError

    try:
        result = action()
    except AuthApiError as error:
        if code is not None:
            check(error.code == code, f"{what}: expected AuthApiError code {code!r}, got {describe(error)}")
        check(400 <= error.status < 500, f"{what}: expected a 4xx, got {describe(error)}")
        return error
    except Exception as error:  # noqa: BLE001 - any other error is a failure of its own
        raise Failure(f"{what}: expected AuthApiError, got {describe(error)}") from error
    raise Failure(f"{what}: expected AuthApiError, but the call succeeded and returned {result!r:.300}")


def step(what, action):
    """Runs `action`; any exception becomes a Failure that names the step."""
    try:
        return action()
    except Failure:
        raise
    except Exception as error:  # noqa: BLE001
        raise Failure(f"{what} failed: {describe(error)}") from error


def after_mail_budget(action):
    """Runs `action`; on `over_email_send_rate_limit` waits the seconds the message names (at most 65), then once more."""
    try:
        return action()
    except Exception as error:  # noqa: BLE001
        if getattr(error, "code", None) != "over_email_send_rate_limit":
            raise
        match = re.search(r"after (\d+) seconds", str(error))
        wait = min(int(match.group(1)) if match else 60, 65) + 1
        print(f"  (the per-IP mail budget is spent: waiting {wait} s, as a client told Retry-After would)", flush=True)
        time.sleep(wait)
        return action()


# --------------------------------------------------------------------------- base64url / keys

def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_uint(value: int) -> str:
    return b64url(value.to_bytes((value.bit_length() + 7) // 8 or 1, "big"))


def new_rsa_key():
    from cryptography.hazmat.primitives.asymmetric import rsa

    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def jwks_document(private_key) -> bytes:
    numbers = private_key.public_key().public_numbers()
    key = {"kty": "RSA", "kid": KID, "alg": "RS256", "use": "sig",
           "n": b64url_uint(numbers.n), "e": b64url_uint(numbers.e)}
    return json.dumps({"keys": [key]}).encode()


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# --------------------------------------------------------------------------- jwks mode

def serve_jwks(key_file: str) -> int:
    from cryptography.hazmat.primitives import serialization

    private_key = new_rsa_key()
    pem = private_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
    descriptor = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(pem)
    body = jwks_document(private_key)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - http.server's naming
            if self.path.split("?")[0] != "/keys":
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format, *args):  # noqa: A002 - overriding
            sys.stderr.write(f"jwks: {self.address_string()} {format % args}\n")

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="jwks", daemon=True)
    thread.start()
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    print(f"READY {server.server_address[1]}", flush=True)
    while not stop.wait(1):
        pass
    server.shutdown()
    server.server_close()
    return 0


# --------------------------------------------------------------------------- mail

class Mailbox:
    """The SMTP listener's maildir: one .eml per delivered message, names sorting oldest first."""

    def __init__(self, directory: str):
        self.directory = Path(directory)

    def names(self):
        return sorted(path.name for path in self.directory.glob("*.eml"))

    def read(self, name):
        data = (self.directory / name).read_bytes()
        return email.message_from_bytes(data, policy=email.policy.default)

    @staticmethod
    def recipients(message):
        return [part.strip().lower() for part in str(message.get("X-Envelope-To", "")).split(",") if part.strip()]

    def to(self, address):
        """Every stored message whose envelope names `address`."""
        return [name for name in self.names() if address.lower() in self.recipients(self.read(name))]

    def wait_for(self, address, seen, timeout=MAIL_TIMEOUT):
        """The first message to `address` not among `seen` (names), waiting up to `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            for name in self.names():
                if name not in seen and address.lower() in self.recipients(self.read(name)):
                    return self.read(name)
            if time.monotonic() > deadline:
                raise Failure(f"no mail to {address} arrived within {timeout:.0f} s "
                              f"(maildir holds {len(self.names())} message(s))")
            time.sleep(0.1)


def plain_text(message):
    part = message.get_body(preferencelist=("plain",))
    check(part is not None, f"the mail {message['Subject']!r} has no text/plain part")
    return part.get_content()


def code_from(message, subject_pattern, text_pattern, what):
    subject = str(message["Subject"])
    subject_match = re.fullmatch(subject_pattern, subject)
    check(subject_match is not None, f"{what}: subject {subject!r} does not match {subject_pattern!r}")
    text = plain_text(message)
    text_match = re.search(text_pattern, text)
    check(text_match is not None, f"{what}: text/plain part does not match {text_pattern!r}:\n{text[:500]}")
    code = text_match.group(1)
    if subject_match.groups():
        check(subject_match.group(1) == code,
              f"{what}: the subject's code {subject_match.group(1)} differs from the text's {code}")
    return code


# --------------------------------------------------------------------------- flows

class Flows:
    def __init__(self, args):
        self.url = args.url
        self.mailbox = Mailbox(args.maildir)
        self.key_file = args.key_file
        self.issuer = args.issuer
        self.client_id = args.client_id
        self.mail_from = args.mail_from
        self.plant = os.environ.get("ACCEPTANCE_PLANT", "")
        run = secrets.token_hex(4)
        self.ghost = f"ghost-{run}@example.com"
        self.ada = f"ada-{run}@example.com"
        self.bob = f"bob-{run}@example.com"
        self.cy = f"cy-{run}@example.com"
        self.dee = f"dee-{run}@example.com"
        self.eve = f"eve-{run}@example.com"
        self.reauthentication_window = args.reauthentication_window
        self.apple_email = None
        self.service_key = Path(args.service_key_file).read_text().strip()
        # Every token and password the run handles; the audit log must hold none of them.
        self.secrets = {"service-role key": self.service_key}

    def remember(self, what, *sessions):
        for index, session in enumerate(sessions):
            if session is not None:
                self.secrets[f"{what} #{index} access token"] = session.access_token
                self.secrets[f"{what} #{index} refresh token"] = session.refresh_token

    def client(self):
        from supabase_auth import SyncGoTrueClient

        return SyncGoTrueClient(url=self.url, headers={"apikey": "anon"},
                                auto_refresh_token=False, persist_session=False)

    def admin(self, bearer=None):
        """`client.admin` of a client of its own whose Authorization is `bearer` (the service-role key)."""
        from supabase_auth import SyncGoTrueClient

        token = self.service_key if bearer is None else bearer
        return SyncGoTrueClient(url=self.url, headers={"apikey": "anon", "Authorization": f"Bearer {token}"},
                                auto_refresh_token=False, persist_session=False).admin

    def check_mail_headers(self, message, address, what):
        to = str(message["To"])
        check(address.lower() in to.lower(), f"{what}: To is {to!r}, expected {address}")
        if self.mail_from:
            sender = str(message["From"])
            check(sender == self.mail_from, f"{what}: From is {sender!r}, expected {self.mail_from!r}")

    # Flow 0, first half: no account, no creation, no mail (checked after flow 1's mail arrives).
    def unknown_address_request(self):
        client = self.client()
        before = self.mailbox.names()
        step(f"sign_in_with_otp for unknown {self.ghost} with should_create_user=False",
             lambda: client.sign_in_with_otp({"email": self.ghost, "options": {"should_create_user": False}}))
        time.sleep(1.0)
        check(self.mailbox.names() == before,
              f"mail appeared within 1 s of the code request for unknown {self.ghost}: "
              f"{sorted(set(self.mailbox.names()) - set(before))}")
        passed(f"sign_in_with_otp(should_create_user=False) for an unknown address returned without error "
               f"and no mail arrived within 1 s")
        return before

    def unknown_address_final(self, before, later_mail_names):
        after = self.mailbox.names()
        check(not self.mailbox.to(self.ghost), f"a mail was delivered to unknown {self.ghost}")
        grown = sorted(set(after) - set(before))
        check(grown == sorted(later_mail_names),
              f"expected only the later mail(s) {later_mail_names} since the unknown-address request, got {grown}")
        passed("still no mail to the unknown address after a later mail to another address arrived")

    # Flow 1: email code sign-in with sign-up, refresh, single use.
    def email_code_sign_in(self):
        client = self.client()
        seen = set(self.mailbox.names())
        response = step("flow 1: sign_in_with_otp",
                        lambda: client.sign_in_with_otp({"email": self.ada, "options": {
                            "should_create_user": True, "data": {"name": "Ada"}}}))
        check(response.session is None, "flow 1: sign_in_with_otp returned a session before the code was used")
        message = self.mailbox.wait_for(self.ada, seen)
        self.check_mail_headers(message, self.ada, "flow 1 mail")
        code = code_from(message, r"Your sign-in code: (\d{6})", r"Your sign-in code is (\d{6})", "flow 1 mail")
        passed(f"flow 1: sign-in code mail delivered to {self.ada} (subject and text agree on the code)")
        mail_name = next(name for name in self.mailbox.names() if name not in seen)

        used = code
        if self.plant == "wrong-code":
            used = f"{(int(code) + 1) % 1_000_000:06d}"
            print(f"PLANTED: flow 1 verifies with {used} instead of the mailed {code}", flush=True)
        label = "the mailed code" if used == code else f"planted wrong code {used} (mailed: {code})"
        response = step(f"flow 1: verify_otp(type=email) with {label}",
                        lambda: client.verify_otp({"email": self.ada, "token": used, "type": "email"}))
        session = response.session
        check(session is not None and session.access_token and session.refresh_token,
              f"flow 1: verify_otp returned no session: {response!r:.300}")
        check(session.user.email == self.ada, f"flow 1: session user email {session.user.email!r} != {self.ada}")
        check(session.user.user_metadata.get("name") == "Ada",
              f"flow 1: user_metadata is {session.user.user_metadata!r}, expected name 'Ada'")
        check(session.user.email_confirmed_at is not None, "flow 1: email not confirmed after a code sign-in")
        passed("flow 1: verify_otp(type=email) gave a session for the new user with user_metadata.name == 'Ada'")

        refreshed = step("flow 1: refresh_session()", client.refresh_session).session
        check(refreshed is not None and refreshed.access_token, "flow 1: refresh_session returned no session")
        check(refreshed.refresh_token != session.refresh_token, "flow 1: refresh did not rotate the refresh token")
        check(refreshed.user.id == session.user.id, "flow 1: refreshed session is for another user")
        user = step("flow 1: get_user() with the refreshed token", client.get_user)
        check(user is not None and user.user.email == self.ada, "flow 1: get_user after refresh is not Ada")
        self.remember("flow 1", session, refreshed)
        passed("flow 1: refresh_session() rotated the refresh token and the new access token works")

        error = expect_api_error("flow 1: the same code a second time",
                                 lambda: self.client().verify_otp({"email": self.ada, "token": code, "type": "email"}),
                                 code="otp_expired")
        passed(f"flow 1: the code is single use ({describe(error)})")
        return mail_name

    # Flow 2: password sign-up confirmed by emailed code, sign-in, reset by emailed code, new password.
    def password_reset(self):
        client = self.client()
        seen = set(self.mailbox.names())
        signed_up = step("flow 2: sign_up", lambda: client.sign_up({"email": self.bob, "password": "old-password-1"}))
        check(signed_up.user is not None and signed_up.user.email == self.bob,
              f"flow 2: sign_up returned {signed_up!r:.300}")
        # With mail configured the address must be confirmed first: a user, no session (GoTrue's answer).
        check(signed_up.session is None and signed_up.user.email_confirmed_at is None,
              f"flow 2: sign_up signed in before the address was confirmed: {signed_up!r:.300}")
        passed(f"flow 2: sign_up created {self.bob}, unconfirmed, with no session")

        error = expect_api_error("flow 2: sign_in_with_password before confirming",
                                 lambda: self.client().sign_in_with_password(
                                     {"email": self.bob, "password": "old-password-1"}),
                                 code="email_not_confirmed")
        passed(f"flow 2: sign-in before confirming is refused ({describe(error)})")

        message = self.mailbox.wait_for(self.bob, seen)
        self.check_mail_headers(message, self.bob, "flow 2 confirmation mail")
        code = code_from(message, r"Confirm your email: (\d{6})", r"Your confirmation code is (\d{6})", "flow 2 confirmation mail")
        confirming = self.client()
        confirmed = step("flow 2: verify_otp(type=signup)",
                         lambda: confirming.verify_otp({"email": self.bob, "token": code, "type": "signup"}))
        check(confirmed.session is not None and confirmed.user.email_confirmed_at is not None,
              f"flow 2: verify_otp(type=signup) returned {confirmed!r:.300}")
        self.remember("flow 2 confirmation", confirmed.session)
        passed("flow 2: verify_otp(type=signup) with the mailed code confirmed the address and gave a session")
        signed_in = step("flow 2: sign_in_with_password after confirming",
                         lambda: self.client().sign_in_with_password({"email": self.bob, "password": "old-password-1"}))
        check(signed_in.session is not None, f"flow 2: sign-in after confirming returned {signed_in!r:.300}")
        self.remember("flow 2 first sign-in", signed_in.session)
        passed("flow 2: the sign-up's password signs in once the address is confirmed")

        seen = set(self.mailbox.names())
        step("flow 2: reset_password_for_email", lambda: client.reset_password_for_email(self.bob))
        message = self.mailbox.wait_for(self.bob, seen)
        self.check_mail_headers(message, self.bob, "flow 2 mail")
        code = code_from(message, r"Reset your password", r"Your reset code is (\d{6})", "flow 2 mail")
        passed(f"flow 2: reset code mail delivered to {self.bob}")

        recovering = self.client()
        response = step("flow 2: verify_otp(type=recovery)",
                        lambda: recovering.verify_otp({"email": self.bob, "token": code, "type": "recovery"}))
        check(response.session is not None and response.session.user.email == self.bob,
              f"flow 2: verify_otp(type=recovery) returned no session for {self.bob}: {response!r:.300}")
        recovery_refresh = response.session.refresh_token
        self.remember("flow 2 recovery", response.session)
        self.secrets["flow 2 old password"] = "old-password-1"
        self.secrets["flow 2 new password"] = "new-password-2"
        passed("flow 2: verify_otp(type=recovery) gave a session")

        updated = step("flow 2: update_user(password)",
                       lambda: recovering.update_user({"password": "new-password-2"}))
        check(updated.user is not None and updated.user.email == self.bob,
              f"flow 2: update_user returned {updated!r:.300}")
        passed("flow 2: update_user({'password': ...}) accepted without the current password")

        step("flow 2: sign_out()", recovering.sign_out)
        check(recovering.get_session() is None, "flow 2: the client still holds a session after sign_out")
        expect_api_error("flow 2: refresh with the signed-out session's refresh token",
                         lambda: self.client().refresh_session(recovery_refresh))
        passed("flow 2: sign_out() ended the recovery session (its refresh token is refused)")

        error = expect_api_error("flow 2: sign_in_with_password with the OLD password",
                                 lambda: self.client().sign_in_with_password(
                                     {"email": self.bob, "password": "old-password-1"}))
        passed(f"flow 2: the old password is refused ({describe(error)})")
        fresh = self.client()
        signed_in = step("flow 2: sign_in_with_password with the NEW password",
                         lambda: fresh.sign_in_with_password({"email": self.bob, "password": "new-password-2"}))
        check(signed_in.session is not None and signed_in.user.email == self.bob,
              f"flow 2: sign-in with the new password returned {signed_in!r:.300}")
        self.remember("flow 2 sign-in", signed_in.session)
        passed("flow 2: the new password signs in")

    # Flow 3: Sign in with Apple by ID token, the test being Apple.
    def apple_id_token(self):
        import jwt
        from cryptography.hazmat.primitives import serialization

        apple_key = serialization.load_pem_private_key(Path(self.key_file).read_bytes(), password=None)
        sub = f"001234.{secrets.token_hex(16)}.0042"
        apple_email = f"apple-{secrets.token_hex(4)}@privaterelay.example.com"
        self.apple_email = apple_email

        def id_token(key, raw_nonce, **overrides):
            now = int(time.time())
            claims = {"iss": self.issuer, "aud": self.client_id, "sub": sub, "iat": now, "exp": now + 600,
                      "email": apple_email, "email_verified": "true", "nonce": sha256_hex(raw_nonce)}
            claims.update(overrides)
            return jwt.encode(claims, key, algorithm="RS256", headers={"kid": KID})

        raw_nonce = secrets.token_urlsafe(24)
        client = self.client()
        response = step("flow 3: sign_in_with_id_token(provider=apple)",
                        lambda: client.sign_in_with_id_token(
                            {"provider": "apple", "token": id_token(apple_key, raw_nonce), "nonce": raw_nonce}))
        session = response.session
        check(session is not None and session.access_token, f"flow 3: no session: {response!r:.300}")
        identities = session.user.identities or []
        apple = [identity for identity in identities if identity.provider == "apple"]
        check(apple, f"flow 3: no identity with provider 'apple' on the user; identities: "
                     f"{[identity.provider for identity in identities]}")
        check(any(str((identity.identity_data or {}).get("sub", identity.id)) == sub for identity in apple),
              f"flow 3: the apple identity does not carry sub {sub}: {apple!r:.400}")
        passed(f"flow 3: sign_in_with_id_token gave a session whose user has an 'apple' identity (sub {sub[:14]}…)")

        again = step("flow 3: a second Apple sign-in for the same sub",
                     lambda: self.client().sign_in_with_id_token(
                         {"provider": "apple", "token": id_token(apple_key, raw_nonce), "nonce": raw_nonce}))
        check(again.user is not None and again.user.id == session.user.id,
              "flow 3: the same Apple sub signed in as a different user")
        self.remember("flow 3", session, again.session)
        passed("flow 3: the same sub signs in to the same user")

        other_key = new_rsa_key()
        error = expect_api_error("flow 3: an ID token signed by another key (same kid)",
                                 lambda: self.client().sign_in_with_id_token(
                                     {"provider": "apple", "token": id_token(other_key, raw_nonce),
                                      "nonce": raw_nonce}))
        passed(f"flow 3: an ID token signed by another key is refused ({describe(error)})")

        error = expect_api_error("flow 3: the right token with another raw nonce",
                                 lambda: self.client().sign_in_with_id_token(
                                     {"provider": "apple", "token": id_token(apple_key, raw_nonce),
                                      "nonce": raw_nonce + "x"}))
        passed(f"flow 3: a raw nonce that does not hash to the token's nonce is refused ({describe(error)})")

        error = expect_api_error("flow 3: an ID token for another audience",
                                 lambda: self.client().sign_in_with_id_token(
                                     {"provider": "apple", "token": id_token(apple_key, raw_nonce, aud="com.evil.app"),
                                      "nonce": raw_nonce}))
        passed(f"flow 3: an ID token for another aud is refused ({describe(error)})")

    # Flow 5: the admin API through client.admin with the service-role key.
    def admin_api(self):
        import httpx

        admin = self.admin()

        # 5a. A backend creates a user and mints a session for it by a magic link's hashed token.
        created = step(f"flow 5: admin.create_user({self.cy}, email_confirm)",
                       lambda: admin.create_user({"email": self.cy, "email_confirm": True,
                                                  "user_metadata": {"name": "Cy"}}))
        cy = created.user
        check(cy is not None and cy.email == self.cy, f"flow 5: create_user returned {created!r:.300}")
        check(cy.email_confirmed_at is not None, "flow 5: create_user(email_confirm=True) left the email unconfirmed")
        check(cy.user_metadata.get("name") == "Cy", f"flow 5: user_metadata is {cy.user_metadata!r}, expected name 'Cy'")
        passed(f"flow 5: admin.create_user made {self.cy} (confirmed, user_metadata.name == 'Cy')")

        # The bare call: without redirect_to the server answers its root (GoTrue's site URL).
        link = step("flow 5: admin.generate_link(type=magiclink)",
                    lambda: admin.generate_link({"type": "magiclink", "email": self.cy}))
        properties = link.properties
        check(link.user is not None and link.user.id == cy.id,
              f"flow 5: generate_link's user is {getattr(link.user, 'id', None)}, expected {cy.id}")
        check(properties.verification_type == "magiclink" and properties.hashed_token and properties.action_link
              and properties.redirect_to and re.fullmatch(r"\d{6}", properties.email_otp or ""),
              f"flow 5: generate_link's properties are {properties!r:.400}")
        self.secrets["flow 5 hashed token"] = properties.hashed_token
        passed("flow 5: admin.generate_link(magiclink) returned the user, action_link, email_otp and hashed_token")

        cy_client = self.client()
        response = step("flow 5: verify_otp(type=magiclink, token_hash)",
                        lambda: cy_client.verify_otp({"token_hash": properties.hashed_token, "type": "magiclink"}))
        cy_session = response.session
        check(cy_session is not None and cy_session.access_token and cy_session.refresh_token,
              f"flow 5: verify_otp(token_hash) returned no session: {response!r:.300}")
        check(cy_session.user.id == cy.id and cy_session.user.email == self.cy,
              f"flow 5: the session is for {cy_session.user.id} {cy_session.user.email}, expected {cy.id} {self.cy}")
        self.remember("flow 5 Cy", cy_session)
        passed("flow 5: verify_otp(token_hash=hashed_token, type=magiclink) gave a session for the created user")

        # 5b. Listing, with GoTrue's pagination.
        # The bare call: supabase_auth sends `?page=&per_page=`, which means the defaults (50 a page).
        users = step("flow 5: admin.list_users()", lambda: admin.list_users())
        emails = {user.email for user in users}
        expected = {self.ada, self.bob, self.cy, self.apple_email}
        check(expected <= emails, f"flow 5: list_users lacks {sorted(expected - emails)}; it has {sorted(emails)}")
        passed(f"flow 5: admin.list_users() lists {len(users)} users, among them every user of the run")
        page = step("flow 5: admin.list_users(page=1, per_page=1)", lambda: admin.list_users(page=1, per_page=1))
        check(len(page) == 1, f"flow 5: list_users(page=1, per_page=1) returned {len(page)} users")
        raw = step("flow 5: GET admin/users?page=1&per_page=1 (httpx)",
                   lambda: httpx.get(f"{self.url}/admin/users", params={"page": 1, "per_page": 1},
                                     headers={"apikey": "anon", "Authorization": f"Bearer {self.service_key}"}))
        check(raw.status_code == 200 and raw.headers.get("x-total-count") == str(len(users)),
              f"flow 5: GET admin/users?per_page=1 answered {raw.status_code} with X-Total-Count "
              f"{raw.headers.get('x-total-count')!r}, expected {len(users)}")
        passed(f"flow 5: admin.list_users(page=1, per_page=1) returns exactly one user (X-Total-Count {len(users)})")

        # 5c. Ban: refresh and password sign-in refused with user_banned; lifted, refresh works again.
        dee_password = f"dee-password-{secrets.token_hex(4)}"
        self.secrets["flow 5 Dee password"] = dee_password
        made = step(f"flow 5: admin.create_user({self.dee}, password)",
                    lambda: admin.create_user({"email": self.dee, "password": dee_password, "email_confirm": True}))
        dee_id = made.user.id
        dee = self.client()
        signed_in = step("flow 5: sign_in_with_password as the created user",
                         lambda: dee.sign_in_with_password({"email": self.dee, "password": dee_password}))
        check(signed_in.session is not None and signed_in.user.id == dee_id,
              f"flow 5: sign_in_with_password returned {signed_in!r:.300}")
        dee_session = signed_in.session
        self.remember("flow 5 Dee", dee_session)
        passed("flow 5: a user made by admin.create_user with a password signs in with it")

        if self.plant == "no-ban":
            print("PLANTED: flow 5 skips admin.update_user_by_id(ban_duration=24h)", flush=True)
        else:
            banned = step("flow 5: admin.update_user_by_id(ban_duration=24h)",
                          lambda: admin.update_user_by_id(dee_id, {"ban_duration": "24h"}))
            check(banned.user is not None and banned.user.banned_until is not None,
                  f"flow 5: the banned user has no banned_until: {banned!r:.300}")
            passed(f"flow 5: admin.update_user_by_id(ban_duration='24h') set banned_until {banned.user.banned_until}")
        error = expect_api_error("flow 5: the banned user's refresh_session()",
                                 lambda: dee.refresh_session(dee_session.refresh_token), code="user_banned")
        passed(f"flow 5: the banned user's refresh is refused ({describe(error)})")
        error = expect_api_error("flow 5: the banned user's sign_in_with_password",
                                 lambda: self.client().sign_in_with_password(
                                     {"email": self.dee, "password": dee_password}), code="user_banned")
        passed(f"flow 5: the banned user's password sign-in is refused ({describe(error)})")

        lifted = step("flow 5: admin.update_user_by_id(ban_duration=none)",
                      lambda: admin.update_user_by_id(dee_id, {"ban_duration": "none"}))
        check(lifted.user is not None and lifted.user.banned_until is None,
              f"flow 5: banned_until is still {lifted.user.banned_until!r} after ban_duration 'none'")
        refreshed = step("flow 5: refresh_session() after the ban is lifted",
                         lambda: dee.refresh_session(dee_session.refresh_token)).session
        check(refreshed is not None and refreshed.user.id == dee_id, "flow 5: the refresh after the ban gave no session")
        self.remember("flow 5 Dee refreshed", refreshed)
        passed("flow 5: ban_duration 'none' lifts the ban and the same refresh token works again")

        # 5d. Deletion.
        step("flow 5: admin.delete_user(Cy)", lambda: admin.delete_user(cy.id))
        error = expect_api_error("flow 5: admin.get_user_by_id of the deleted user",
                                 lambda: admin.get_user_by_id(cy.id))
        check(error.status == 404, f"flow 5: get_user_by_id of a deleted user answered {describe(error)}, expected 404")
        passed(f"flow 5: admin.delete_user, then admin.get_user_by_id answers 404 ({describe(error)})")
        error = expect_api_error("flow 5: the deleted user's refresh_session()",
                                 lambda: cy_client.refresh_session(cy_session.refresh_token))
        passed(f"flow 5: the deleted user's refresh is refused ({describe(error)})")

        # 5e. Not the service role: a person's access token is refused with not_admin, no token with 401.
        error = expect_api_error("flow 5: admin.list_users with a person's access token",
                                 lambda: self.admin(refreshed.access_token).list_users(), code="not_admin")
        check(error.status == 403, f"flow 5: a person's token on admin answered {describe(error)}, expected 403")
        passed(f"flow 5: a person's access token on the admin API is refused ({describe(error)})")
        error = expect_api_error("flow 5: admin.list_users with no Authorization", lambda: self.client().admin.list_users())
        check(error.status == 401, f"flow 5: no token on admin answered {describe(error)}, expected 401")
        passed(f"flow 5: no token on the admin API is refused ({describe(error)})")

        # 5f. The audit log: the actions of the run, and none of its secrets.
        audit = step("flow 5: GET admin/audit (httpx, service-role key)",
                     lambda: httpx.get(f"{self.url}/admin/audit", params={"per_page": 1000},
                                       headers={"apikey": "anon", "Authorization": f"Bearer {self.service_key}"}))
        check(audit.status_code == 200, f"flow 5: GET admin/audit answered {audit.status_code}: {audit.text[:300]}")
        entries = audit.json()
        check(isinstance(entries, list) and entries, f"flow 5: GET admin/audit returned {audit.text[:300]}")
        actions = [((entry.get("payload") or {}).get("action")) for entry in entries]
        wanted = ["user_created", "link_generated", "user_banned", "user_deleted", "login"]
        missing = [action for action in wanted if action not in actions]
        check(not missing, f"flow 5: the audit log lacks {missing}; it has {sorted(set(map(str, actions)))}")
        stamps = [entry.get("created_at") for entry in entries]
        check(stamps == sorted(stamps, reverse=True), "flow 5: the audit log is not newest first")
        deleted = [entry for entry in entries if entry["payload"].get("action") == "user_deleted"]
        check(any(cy.id in json.dumps(entry["payload"]) for entry in deleted),
              f"flow 5: no user_deleted entry names {cy.id}: {deleted!r:.400}")
        passed(f"flow 5: the audit log ({len(entries)} entries, newest first) has {', '.join(wanted)}")
        leaked = [what for what, value in self.secrets.items() if value and value in audit.text]
        check(not leaked, f"flow 5: the audit log's text contains {leaked}")
        passed(f"flow 5: the audit log's text contains none of the run's {len(self.secrets)} tokens and passwords")

    # Flow 6: a person without a password proves presence with reauthenticate()'s mailed nonce.
    def reauthentication_nonce(self):
        client = self.client()
        seen = set(self.mailbox.names())
        step("flow 6: sign_in_with_otp", lambda: client.sign_in_with_otp({"email": self.eve}))
        message = self.mailbox.wait_for(self.eve, seen)
        code = code_from(message, r"Your sign-in code: (\d{6})", r"Your sign-in code is (\d{6})", "flow 6 sign-in mail")
        session = step("flow 6: verify_otp(type=email)",
                       lambda: client.verify_otp({"email": self.eve, "token": code, "type": "email"})).session
        check(session is not None, "flow 6: verify_otp gave no session")
        self.remember("flow 6", session)
        self.secrets["flow 6 password"] = "eve-password-1"
        # Past the server's re-authentication window (the script starts it with a short one):
        # the session alone no longer proves presence.
        time.sleep(self.reauthentication_window + 1)
        error = expect_api_error("flow 6: update_user(password) without proof, past the window",
                                 lambda: client.update_user({"password": "eve-password-1"}),
                                 code="reauthentication_needed")
        passed(f"flow 6: a password without proof is refused past the window ({describe(error)})")

        seen = set(self.mailbox.names())
        # The server's per-IP mail budget (5 a minute) covers /reauthenticate too, and this run has
        # mailed from one address already: a person's app waits the Retry-After it is told, once.
        step("flow 6: reauthenticate()", lambda: after_mail_budget(client.reauthenticate))
        message = self.mailbox.wait_for(self.eve, seen)
        self.check_mail_headers(message, self.eve, "flow 6 nonce mail")
        nonce = code_from(message, r"Confirm it is you: (\d{6})", r"Your confirmation code is (\d{6})", "flow 6 nonce mail")
        check("/auth/v1/verify" not in plain_text(message), "flow 6: the nonce mail carries a sign-in link")
        passed(f"flow 6: reauthenticate() mailed a nonce to {self.eve} (no link in it)")

        wrong = f"{(int(nonce) + 1) % 1_000_000:06d}"
        error = expect_api_error("flow 6: update_user with a wrong nonce",
                                 lambda: client.update_user({"password": "eve-password-1", "nonce": wrong}),
                                 code="reauthentication_not_valid")
        passed(f"flow 6: a wrong nonce is refused ({describe(error)})")
        attributes = {"password": "eve-password-1", "nonce": nonce}
        if self.plant == "no-nonce":
            attributes = {"password": "eve-password-1"}
            print("PLANTED: flow 6 sends the new password without the mailed nonce", flush=True)
        updated = step("flow 6: update_user({'password', 'nonce'}) with the mailed nonce",
                       lambda: client.update_user(attributes))
        check(updated.user is not None and updated.user.email == self.eve, f"flow 6: update_user returned {updated!r:.300}")
        signed_in = step("flow 6: sign_in_with_password with the password set by the nonce",
                         lambda: self.client().sign_in_with_password({"email": self.eve, "password": "eve-password-1"}))
        check(signed_in.session is not None, f"flow 6: sign-in returned {signed_in!r:.300}")
        self.remember("flow 6 password sign-in", signed_in.session)
        passed("flow 6: update_user({'password', 'nonce'}) set a first password that signs in")
        error = expect_api_error("flow 6: the same nonce a second time",
                                 lambda: client.update_user({"password": "eve-password-2", "nonce": nonce}),
                                 code="reauthentication_not_valid")
        passed(f"flow 6: the nonce is single use ({describe(error)})")

    def run(self):
        import supabase_auth.version as version

        print(f"supabase_auth {version.__version__} against {self.url}", flush=True)
        before_ghost = self.unknown_address_request()
        ada_mail = self.email_code_sign_in()
        self.unknown_address_final(before_ghost, [ada_mail])
        self.password_reset()
        self.apple_id_token()
        self.admin_api()
        self.reauthentication_nonce()
        check(not self.mailbox.to(self.ghost), f"a mail was delivered to unknown {self.ghost} by the end of the run")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    modes = parser.add_subparsers(dest="mode", required=True)
    jwks = modes.add_parser("jwks")
    jwks.add_argument("--key-file", required=True)
    flows = modes.add_parser("flows")
    flows.add_argument("--url", required=True, help="e.g. http://127.0.0.1:PORT/auth/v1")
    flows.add_argument("--maildir", required=True)
    flows.add_argument("--key-file", required=True)
    flows.add_argument("--issuer", required=True)
    flows.add_argument("--client-id", required=True)
    flows.add_argument("--mail-from", default="")
    flows.add_argument("--service-key-file", required=True, help="the service-role key (auth-server keys service-role)")
    flows.add_argument("--reauthentication-window", type=int, default=600,
                       help="the server's --reauthentication-window in seconds (flow 6 waits it out)")
    args = parser.parse_args()

    if args.mode == "jwks":
        return serve_jwks(args.key_file)
    try:
        Flows(args).run()
    except Failure as failure:
        print(f"FAIL {failure}", file=sys.stderr, flush=True)
        cause = failure.__cause__
        if cause is not None and os.environ.get("ACCEPTANCE_TRACEBACK"):
            traceback.print_exception(cause)
        return 1
    except Exception:  # noqa: BLE001 - a bug in the harness is a failure too
        print("FAIL the harness raised unexpectedly:", file=sys.stderr, flush=True)
        traceback.print_exc()
        return 1
    print("PASS all supabase_auth acceptance flows", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
