#!/usr/bin/env python3
"""Acceptance for identity linking (issue 40, items 3 and 8): the unmodified `supabase_auth`
Python client's link_identity, get_user_identities and unlink_identity against a live
auth-server started with --manual-linking and --anonymous-sign-ins (scripts/supabase-acceptance.sh).

  supabase_auth_linking.py --url URL --key-file PATH --issuer ISS --client-id AUD

The run has no provider that can complete a browser flow, so it checks what the client
does with the provider flow (link_identity's URL points at the provider, with the server's
state and callback, after the client sent a PKCE challenge), and gets real second
identities through the other link path this server supports: grant_type=id_token with
link_identity and the user's bearer, ID tokens signed by the key of the Apple stand-in
(`supabase_auth_flows.py jwks`, whose private key PATH is). That request is sent with
httpx, as supabase_auth has no call for it; the session it answers is handed back to the
client with set_session. Prints a PASS line per check; the first failure prints FAIL, exit 1.

ACCEPTANCE_PLANT=no-link skips the second link, so unlinking must meet the last identity
and the run must fail: proof that the harness can.
"""
import argparse
import hashlib
import os
import secrets
import sys
import time
import traceback
from pathlib import Path
from urllib.parse import parse_qs, urlparse

KID = "test-1"  # the Apple stand-in's key id (supabase_auth_flows.py)


class Failure(Exception):
    """An acceptance check that did not hold."""


def check(condition, message):
    if not condition:
        raise Failure(message)


def passed(message):
    print(f"PASS {message}", flush=True)


def payload(token):
    import jwt

    return jwt.decode(token, options={"verify_signature": False})


class Linking:
    def __init__(self, args):
        from cryptography.hazmat.primitives import serialization

        self.url = args.url
        self.issuer = args.issuer
        self.client_id = args.client_id
        self.apple_key = serialization.load_pem_private_key(Path(args.key_file).read_bytes(), password=None)
        self.plant = os.environ.get("ACCEPTANCE_PLANT", "")

    def client(self):
        from supabase_auth import SyncGoTrueClient

        return SyncGoTrueClient(url=self.url, headers={"apikey": "anon"}, flow_type="pkce",
                                auto_refresh_token=False, persist_session=False)

    def id_token(self, sub, raw_nonce):
        import jwt

        now = int(time.time())
        claims = {"iss": self.issuer, "aud": self.client_id, "sub": sub, "iat": now, "exp": now + 600,
                  "email": f"{sub[:12]}@privaterelay.example.com", "email_verified": "true",
                  "nonce": hashlib.sha256(raw_nonce.encode()).hexdigest()}
        return jwt.encode(claims, self.apple_key, algorithm="RS256", headers={"kid": KID})

    def link_apple(self, client, sub, what):
        """POST /token?grant_type=id_token with link_identity and the client's bearer; the answer goes back into the client."""
        import httpx

        before = client.get_session()
        raw_nonce = secrets.token_urlsafe(16)
        response = httpx.post(f"{self.url}/token", params={"grant_type": "id_token"},
                              headers={"apikey": "anon", "Authorization": f"Bearer {before.access_token}"},
                              json={"provider": "apple", "id_token": self.id_token(sub, raw_nonce), "nonce": raw_nonce,
                                    "link_identity": True}, timeout=10)
        check(response.status_code == 200, f"{what}: {response.status_code} {response.text[:300]}")
        body = response.json()
        check(payload(body["access_token"])["session_id"] == payload(before.access_token)["session_id"],
              f"{what}: the link answered another session")
        check(body["refresh_token"] != before.refresh_token, f"{what}: the refresh token was not swapped")
        client.set_session(body["access_token"], body["refresh_token"])
        return body

    def run(self):
        from supabase_auth.errors import AuthApiError, AuthSessionMissingError

        client = self.client()
        try:
            client.link_identity({"provider": "github"})
            raise Failure("link_identity without a session did not raise")
        except AuthSessionMissingError:
            passed("link_identity without a session raises AuthSessionMissingError")

        anonymous = client.sign_in_anonymously()
        check(anonymous.user is not None and anonymous.user.is_anonymous, "sign_in_anonymously gave no anonymous user")
        user_id = anonymous.user.id
        session_id = payload(anonymous.session.access_token)["session_id"]

        oauth = client.link_identity({"provider": "github", "options": {"redirect_to": "http://localhost:3000/linked"}})
        url = urlparse(oauth.url)
        query = parse_qs(url.query)
        check(url.hostname == "github.com", f"link_identity's URL is not the provider's: {oauth.url[:200]}")
        check(query.get("state") and query.get("response_type") == ["code"], f"no state or code flow: {oauth.url[:200]}")
        callback = query.get("redirect_uri", [""])[0]
        check(callback == f"{self.url}/callback", f"redirect_uri {callback!r} is not the server's callback")
        verifier = client._storage.get_item(f"{client._storage_key}-code-verifier")
        check(verifier, "the client kept no PKCE code verifier: it sent no code_challenge")
        passed("link_identity answers the provider's URL with the server's state and callback; the client sent PKCE")

        try:
            client.link_identity({"provider": "gitlab", "options": {"redirect_to": "http://localhost:3000/linked"}})
            raise Failure("link_identity with an unknown provider did not raise")
        except AuthApiError as error:
            passed(f"link_identity with a provider this server lacks is refused ({error.code})")

        first_sub = f"001234.{secrets.token_hex(12)}.0001"
        linked = self.link_apple(client, first_sub, "link Apple to the anonymous user")
        check(linked["user"]["id"] == user_id and linked["user"].get("is_anonymous") is False,
              f"the anonymous user did not become permanent: {linked['user']!r:.300}")
        check(payload(linked["access_token"]).get("is_anonymous") is False, "the new access token still says anonymous")
        passed("linking Apple made the anonymous user permanent, same id and session")

        if self.plant != "no-link":
            self.link_apple(client, f"001234.{secrets.token_hex(12)}.0002", "link a second Apple account")
        identities = client.get_user_identities().identities
        check(len(identities) == 2, f"get_user_identities lists {len(identities)} identities, expected 2")
        check(payload(client.get_session().access_token)["session_id"] == session_id, "the session changed")
        passed("get_user_identities lists both linked identities; still one session")

        second = [identity for identity in identities if identity.id != first_sub][0]
        client.unlink_identity(second)
        remaining = client.get_user_identities().identities
        check([identity.id for identity in remaining] == [first_sub], f"after unlink_identity: {remaining!r:.300}")
        passed("unlink_identity removed the second identity")

        try:
            client.unlink_identity(remaining[0])
            raise Failure("unlinking the last identity did not raise")
        except AuthApiError as error:
            check(error.code == "single_identity_not_deletable", f"the last identity: {error.code} {error.message}")
            passed("unlink_identity of the last identity is refused (single_identity_not_deletable)")

        other = self.client()
        other.sign_in_anonymously()
        try:
            self.link_apple(other, first_sub, "link the first Apple account to another user")
            raise Failure("an identity of another user was linked")
        except Failure as failure:
            check("identity_already_exists" in str(failure), f"another user's identity: {failure}")
            passed("linking an identity another user holds is refused (identity_already_exists)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="e.g. http://127.0.0.1:PORT/auth/v1")
    parser.add_argument("--key-file", required=True, help="the Apple stand-in's private key (PEM)")
    parser.add_argument("--issuer", required=True)
    parser.add_argument("--client-id", required=True)
    args = parser.parse_args()
    try:
        Linking(args).run()
    except Failure as failure:
        print(f"FAIL {failure}", file=sys.stderr, flush=True)
        return 1
    except Exception:  # noqa: BLE001 - a bug in the harness, or an unexpected client error, is a failure too
        print("FAIL the linking checks raised unexpectedly:", file=sys.stderr, flush=True)
        traceback.print_exc()
        return 1
    print("PASS all supabase_auth linking checks", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
