"""Passkeys against a live auth-server, with a software authenticator built on
python-fido2's CBOR and COSE modules and `cryptography` (issue 39, item 10):
nobody here wrote the encoder of the attestation objects and keys the server
reads. Registers, signs in (the token's amr says passkey), lists, renames and
removes a passkey, and checks that each attack is refused with GoTrue's code:
a wrong origin, a wrong RP ID hash, a replayed challenge, a counter that goes
back, the UV flag missing, an algorithm not offered (RS256), another user's
credential, a credential ID registered twice, a tampered client data JSON.

    python3 passkey_interop.py http://127.0.0.1:PORT

The server runs with --passkeys --webauthn-rp-id example.com
--webauthn-rp-origins https://example.com (Server/scripts/passkey-interop.sh).
"""
import base64
import hashlib
import json
import os
import struct
import sys
import urllib.error
import urllib.request

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from fido2 import cbor
from fido2.cose import ES256, RS256, EdDSA

RP_ID = "example.com"
ORIGIN = "https://example.com"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Server:
    def __init__(self, url):
        self.url = url.rstrip("/")

    def call(self, method, path, body=None, token=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", "Bearer " + token)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                text = response.read()
                return response.status, (json.loads(text) if text else None)
        except urllib.error.HTTPError as error:
            text = error.read()
            return error.code, (json.loads(text) if text else None)


class Authenticator:
    """A passkey authenticator in software: ES256, EdDSA or (to be refused) RS256."""

    def __init__(self, kind="es256"):
        self.kind = kind
        if kind == "es256":
            self.key = ec.generate_private_key(ec.SECP256R1())
            self.cose = ES256.from_cryptography_key(self.key.public_key())
        elif kind == "eddsa":
            self.key = ed25519.Ed25519PrivateKey.generate()
            self.cose = EdDSA.from_cryptography_key(self.key.public_key())
        else:
            self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            self.cose = RS256.from_cryptography_key(self.key.public_key())
        self.credential_id = os.urandom(16)
        self.counter = 0
        self.flags = 0x05  # UP | UV
        self.rp_id = RP_ID
        self.origin = ORIGIN

    def sign(self, data):
        if self.kind == "es256":
            return self.key.sign(data, ec.ECDSA(hashes.SHA256()))
        if self.kind == "eddsa":
            return self.key.sign(data)
        return self.key.sign(data, padding.PKCS1v15(), hashes.SHA256())

    def client_data(self, kind, challenge):
        return json.dumps(
            {"type": kind, "challenge": challenge, "origin": self.origin, "crossOrigin": False}
        ).encode()

    def auth_data(self, attested):
        data = hashlib.sha256(self.rp_id.encode()).digest()
        data += bytes([self.flags | (0x40 if attested else 0)]) + struct.pack(">I", self.counter)
        if attested:
            data += bytes(16) + struct.pack(">H", len(self.credential_id)) + self.credential_id
            data += cbor.encode(dict(self.cose))
        return data

    def create(self, options):
        challenge = options["challenge"]
        client_data = self.client_data("webauthn.create", challenge)
        attestation = cbor.encode({"fmt": "none", "attStmt": {}, "authData": self.auth_data(True)})
        return {
            "id": b64(self.credential_id), "rawId": b64(self.credential_id), "type": "public-key",
            "response": {"clientDataJSON": b64(client_data), "attestationObject": b64(attestation),
                         "transports": ["internal"]},
            "clientExtensionResults": {},
        }

    def get(self, options, user_handle, client_data=None):
        challenge = options["challenge"]
        signed_client_data = self.client_data("webauthn.get", challenge)
        auth_data = self.auth_data(False)
        signature = self.sign(auth_data + hashlib.sha256(signed_client_data).digest())
        return {
            "id": b64(self.credential_id), "rawId": b64(self.credential_id), "type": "public-key",
            "response": {"clientDataJSON": b64(client_data or signed_client_data),
                         "authenticatorData": b64(auth_data), "signature": b64(signature),
                         "userHandle": b64(user_handle.encode())},
            "clientExtensionResults": {},
        }


def expect(condition, message):
    if not condition:
        raise SystemExit("passkey interop: " + message)


def refused(answer, code, what):
    status, body = answer
    expect(status >= 400 and body and body.get("error_code") == code,
           f"{what}: expected {code}, got {status} {body}")
    print(f"  refused: {what} ({code})")


def main():
    server = Server(sys.argv[1])

    def sign_up(email):
        status, body = server.call("POST", "/auth/v1/signup", {"email": email, "password": "correct-horse-1"})
        expect(status == 200 and body.get("access_token"), f"sign-up {email}: {status} {body}")
        return body

    def registration_options(token):
        status, body = server.call("POST", "/auth/v1/passkeys/registration/options", {}, token)
        expect(status == 200, f"registration options: {status} {body}")
        return body

    def register(token, authenticator, options=None):
        options = options or registration_options(token)
        return server.call("POST", "/auth/v1/passkeys/registration/verify",
                           {"challenge_id": options["challenge_id"],
                            "credential": authenticator.create(options["options"]["publicKey"])}, token)

    def authentication_options():
        status, body = server.call("POST", "/auth/v1/passkeys/authentication/options", {})
        expect(status == 200, f"authentication options: {status} {body}")
        return body

    def sign_in(authenticator, user_id, options=None, client_data=None):
        options = options or authentication_options()
        credential = authenticator.get(options["options"], user_id, client_data)
        return server.call("POST", "/auth/v1/passkeys/authentication/verify",
                           {"challenge_id": options["challenge_id"], "credential": credential})

    ada = sign_up("ada@example.com")
    bob = sign_up("bob@example.com")

    options = registration_options(ada["access_token"])
    # GoTrue's envelope: registration's options are go-webauthn's CredentialCreation, {"publicKey": {...}}.
    expect(set(options["options"]) == {"publicKey"}, f"creation options under publicKey: {options}")
    creation = options["options"]["publicKey"]
    expect(creation["rp"]["id"] == RP_ID and unb64(creation["user"]["id"]).decode() == ada["user"]["id"],
           f"creation options name the RP and the user: {creation}")
    expect({p["alg"] for p in creation["pubKeyCredParams"]} == {-7, -8}, "ES256 and EdDSA offered")
    expect(creation["authenticatorSelection"]["userVerification"] == "required", "UV required")
    expect(creation["authenticatorSelection"]["residentKey"] == "required", "a discoverable credential")
    expect(len(unb64(creation["challenge"])) >= 16 and options["expires_at"] > 0, "a challenge and its expiry")

    print("registration attacks")
    wrong_origin = Authenticator()
    wrong_origin.origin = "https://example.com.evil.test"
    refused(register(ada["access_token"], wrong_origin), "webauthn_verification_failed", "wrong origin")
    wrong_rp = Authenticator()
    wrong_rp.rp_id = "evil.test"
    refused(register(ada["access_token"], wrong_rp), "webauthn_verification_failed", "wrong RP ID hash")
    no_uv = Authenticator()
    no_uv.flags = 0x01
    refused(register(ada["access_token"], no_uv), "webauthn_verification_failed", "UV flag missing")
    refused(register(ada["access_token"], Authenticator("rs256")), "webauthn_verification_failed",
            "algorithm not offered (RS256)")

    print("registration")
    passkey = Authenticator()
    options = registration_options(ada["access_token"])
    status, body = register(ada["access_token"], passkey, options)
    expect(status == 200 and body.get("id"), f"registration: {status} {body}")
    passkey_id = body["id"]
    refused(register(ada["access_token"], Authenticator(), options), "webauthn_challenge_not_found",
            "replayed registration challenge")
    status, body = register(ada["access_token"], Authenticator("eddsa"))
    expect(status == 200, f"an EdDSA passkey registers: {status} {body}")
    refused(register(bob["access_token"], passkey), "webauthn_credential_exists", "credential ID registered twice")

    print("sign-in")
    passkey.counter = 1
    options = authentication_options()
    expect(options["options"]["rpId"] == RP_ID and options["options"]["allowCredentials"] == [],
           f"request options for a discoverable credential: {options}")
    status, session = sign_in(passkey, ada["user"]["id"], options)
    expect(status == 200 and session["user"]["id"] == ada["user"]["id"], f"passkey sign-in: {status} {session}")
    claims = json.loads(unb64(session["access_token"].split(".")[1]))
    expect(claims["amr"][0]["method"] == "passkey", f"amr is passkey: {claims['amr']}")
    status, refreshed = server.call("POST", "/auth/v1/token?grant_type=refresh_token",
                                    {"refresh_token": session["refresh_token"]})
    expect(status == 200, f"the passkey session refreshes: {status} {refreshed}")

    print("sign-in attacks")
    passkey.counter = 2
    refused(sign_in(passkey, ada["user"]["id"], options), "webauthn_challenge_not_found", "replayed challenge")
    passkey.counter = 1
    refused(sign_in(passkey, ada["user"]["id"]), "webauthn_verification_failed", "counter that goes back")
    passkey.counter = 3
    refused(sign_in(passkey, bob["user"]["id"]), "webauthn_verification_failed", "another user's credential")
    fresh = authentication_options()
    tampered = passkey.client_data("webauthn.get", fresh["options"]["challenge"]).replace(
        b"https://example.com", b"https://example.com ")
    refused(sign_in(passkey, ada["user"]["id"], fresh, tampered), "webauthn_verification_failed",
            "tampered client data JSON")
    passkey.flags = 0x01
    refused(sign_in(passkey, ada["user"]["id"]), "webauthn_verification_failed", "UV flag missing at sign-in")
    passkey.flags = 0x05
    passkey.origin = "https://evil.test"
    refused(sign_in(passkey, ada["user"]["id"]), "webauthn_verification_failed", "wrong origin at sign-in")
    passkey.origin = ORIGIN
    passkey.counter = 4
    status, body = sign_in(passkey, ada["user"]["id"])
    expect(status == 200, f"the passkey still signs in after the refusals: {status} {body}")

    print("management")
    token = ada["access_token"]
    status, listed = server.call("GET", "/auth/v1/passkeys", None, token)
    expect(status == 200 and len(listed) == 2 and listed[0].get("last_used_at"), f"list: {status} {listed}")
    status, renamed = server.call("PATCH", f"/auth/v1/passkeys/{passkey_id}", {"friendly_name": "Laptop"}, token)
    expect(status == 200 and renamed["friendly_name"] == "Laptop", f"rename: {status} {renamed}")
    status, _ = server.call("DELETE", f"/auth/v1/passkeys/{passkey_id}", None, bob["access_token"])
    expect(status == 404, f"another user cannot remove it: {status}")
    status, _ = server.call("DELETE", f"/auth/v1/passkeys/{passkey_id}", None, token)
    expect(status == 204, f"remove: {status}")
    passkey.counter = 5
    refused(sign_in(passkey, ada["user"]["id"]), "webauthn_verification_failed", "a removed passkey")
    print("passkey interop: all flows passed")


if __name__ == "__main__":
    main()
