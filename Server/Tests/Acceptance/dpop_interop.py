#!/usr/bin/env python3
"""DPoP (RFC 9449) against a live auth-server, from a client nobody here wrote
(issue 43, item 9): its proofs are built with `cryptography` alone (ECDSA
P-256 over SHA-256, the DER signature turned into JOSE's raw r || s), its
thumbprint by RFC 7638, and no code of this repository is imported.

  dpop_interop.py --url http://127.0.0.1:PORT [--local-address 127.0.0.3]

Started by scripts/supabase-acceptance.sh against the server it runs (with
--anonymous-sign-ins):

  1. an anonymous sign-up with a proof: token_type "DPoP", and the access
     token's cnf.jkt is this key's RFC 7638 thumbprint;
  2. a refresh with a proof: still DPoP, still the same jkt;
  3. GET /v1/auth/me with `Authorization: DPoP <token>` and a proof carrying
     `ath`: 200; the same token as Bearer: 401 DPOP_PROOF_REQUIRED;
  4. the refresh token stolen: presented without a proof, and with another
     key's proof, both refused with invalid_dpop_proof; the owner then
     refreshes with it (neither consumed nor revoked);
  5. the unmodified supabase_auth client: sign_in_anonymously and
     refresh_session stay unbound (token_type bearer, no cnf).

The requests leave from --local-address, so the anonymous sign-in budget per
IP the other flows spend is not this file's.
"""
import argparse
import base64
import hashlib
import http.client
import json
import os
import sys
import time
import traceback
import urllib.parse

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def passed(message):
    print(f"ok   {message}", flush=True)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def claims(token):
    """The access token's payload (its signature is checked by the other flows, against JWKS)."""
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


class ProofKey:
    """A P-256 key that signs DPoP proofs (RFC 9449 §4.2)."""

    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        numbers = self.key.public_key().public_numbers()
        self.jwk = {"kty": "EC", "crv": "P-256",
                    "x": b64url(numbers.x.to_bytes(32, "big")), "y": b64url(numbers.y.to_bytes(32, "big"))}

    def thumbprint(self):
        # RFC 7638 §3.2: the required members in lexical order, no whitespace.
        members = {name: self.jwk[name] for name in ("crv", "kty", "x", "y")}
        canonical = json.dumps(members, separators=(",", ":"), sort_keys=True)
        return b64url(hashlib.sha256(canonical.encode()).digest())

    def proof(self, method, url, access_token=None):
        header = {"typ": "dpop+jwt", "alg": "ES256", "jwk": self.jwk}
        parts = urllib.parse.urlsplit(url)
        payload = {"jti": b64url(os.urandom(16)), "htm": method,
                   "htu": f"{parts.scheme}://{parts.netloc}{parts.path}", "iat": int(time.time())}
        if access_token is not None:
            payload["ath"] = b64url(hashlib.sha256(access_token.encode("ascii")).digest())
        signing_input = (b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(payload).encode())).encode()
        r, s = decode_dss_signature(self.key.sign(signing_input, ec.ECDSA(hashes.SHA256())))
        return signing_input.decode() + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


class Server:
    def __init__(self, url, local_address):
        self.url = url.rstrip("/")
        parts = urllib.parse.urlsplit(self.url)
        self.host, self.port = parts.hostname, parts.port
        self.local_address = local_address

    def call(self, method, path, body=None, headers=None):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=10,
                                                source_address=(self.local_address, 0))
        try:
            data = None if body is None else json.dumps(body).encode()
            all_headers = {"Content-Type": "application/json", "apikey": "anon", **(headers or {})}
            connection.request(method, path, body=data, headers=all_headers)
            response = connection.getresponse()
            text = response.read()
            return response.status, (json.loads(text) if text else None), response.headers
        finally:
            connection.close()


class Interop:
    def __init__(self, args):
        self.server = Server(args.url, args.local_address)
        self.base = self.server.url
        self.local_address = args.local_address
        self.key = ProofKey()

    def with_proof(self, key, method, path, body=None, access_token=None):
        headers = {"DPoP": key.proof(method, self.base + path, access_token)}
        if access_token is not None:
            headers["Authorization"] = "DPoP " + access_token
        return self.server.call(method, path, body, headers)

    def refresh(self, refresh_token, key=None):
        path = "/auth/v1/token?grant_type=refresh_token"
        if key is None:
            return self.server.call("POST", path, {"refresh_token": refresh_token})
        return self.with_proof(key, "POST", path, {"refresh_token": refresh_token})

    def check_bound(self, what, status, session):
        check(status == 200, f"{what}: HTTP {status} {session}")
        check(session.get("token_type") == "DPoP", f"{what}: token_type is {session.get('token_type')!r}")
        jkt = claims(session["access_token"]).get("cnf", {}).get("jkt")
        check(jkt == self.key.thumbprint(), f"{what}: cnf.jkt {jkt!r} is not the key's thumbprint")

    def check_refused(self, what, status, body):
        check(status == 400, f"{what}: HTTP {status} {body}, expected 400")
        check(body.get("error_code") == "invalid_dpop_proof", f"{what}: error_code {body.get('error_code')!r}")
        check(body.get("error") == "invalid_dpop_proof", f"{what}: error {body.get('error')!r}")

    def run(self):
        status, session, _ = self.with_proof(self.key, "POST", "/auth/v1/signup", {})
        self.check_bound("sign-up with a proof", status, session)
        passed("1 an anonymous sign-up with a proof is bound: token_type DPoP, cnf.jkt is the RFC 7638 thumbprint")

        status, session, _ = self.refresh(session["refresh_token"], self.key)
        self.check_bound("refresh with a proof", status, session)
        passed("2 a refresh with a proof stays bound to the same key")

        token = session["access_token"]
        status, me, _ = self.with_proof(self.key, "GET", "/v1/auth/me", access_token=token)
        check(status == 200, f"GET /v1/auth/me with DPoP: HTTP {status} {me}")
        status, body, headers = self.server.call("GET", "/v1/auth/me", headers={"Authorization": "Bearer " + token})
        check(status == 401, f"a bound token as Bearer: HTTP {status} {body}, expected 401")
        check("DPoP" in (headers.get("WWW-Authenticate") or ""), f"a bound token as Bearer: WWW-Authenticate {headers.get('WWW-Authenticate')!r}")
        passed("3 GET /v1/auth/me answers with Authorization: DPoP and an ath proof; refused as Bearer (401)")

        stolen = session["refresh_token"]
        self.check_refused("the stolen refresh token without a proof", *self.refresh(stolen)[:2])
        self.check_refused("the stolen refresh token with another key's proof", *self.refresh(stolen, ProofKey())[:2])
        status, session, _ = self.refresh(stolen, self.key)
        self.check_bound("the owner's refresh after the theft attempts", status, session)
        passed("4 a stolen refresh token is refused without the key and with another key; the owner still refreshes")

        self.supabase_auth_unbound()
        passed("5 the unmodified supabase_auth client signs in and refreshes unbound (bearer)")

    def supabase_auth_unbound(self):
        import httpx
        from supabase_auth import SyncGoTrueClient

        http = httpx.Client(transport=httpx.HTTPTransport(local_address=self.local_address), timeout=30)
        client = SyncGoTrueClient(url=self.base + "/auth/v1", headers={"apikey": "anon"}, http_client=http,
                                  auto_refresh_token=False, persist_session=False)
        signed_in = client.sign_in_anonymously()
        for what, session in (("sign_in_anonymously", signed_in.session),
                              ("refresh_session", client.refresh_session(signed_in.session.refresh_token).session)):
            check(session.token_type.lower() == "bearer", f"supabase_auth {what}: token_type {session.token_type!r}")
            check("cnf" not in claims(session.access_token), f"supabase_auth {what}: the token carries cnf")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the server's base, e.g. http://127.0.0.1:PORT")
    parser.add_argument("--local-address", default="127.0.0.3", help="the loopback address requests leave from")
    args = parser.parse_args()
    try:
        Interop(args).run()
    except Failure as failure:
        print(f"FAIL {failure}", file=sys.stderr, flush=True)
        return 1
    except Exception:  # noqa: BLE001 - a bug in the harness is a failure too
        print("FAIL the interop client raised unexpectedly", file=sys.stderr, flush=True)
        traceback.print_exc()
        return 1
    print("PASS the DPoP interop client", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
