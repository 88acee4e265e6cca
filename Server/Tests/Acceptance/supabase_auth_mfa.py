#!/usr/bin/env python3
"""Second factors through the unmodified `supabase_auth` client (issue 38, item 10).

Started by scripts/supabase-mfa-acceptance.sh against a live auth-server:

  supabase_auth_mfa.py --url URL

Runs mfa.enroll, list_factors, get_authenticator_assurance_level, challenge,
verify, challenge_and_verify and unenroll through SyncGoTrueClient, with codes
from pyotp (an independent RFC 6238 implementation). Every enrolment's QR code
(the SVG the server sends) is rasterised with cairosvg and decoded with zbar
(pyzbar): it must read back as the `uri` of the same answer, for issuers that
make QR codes of several versions. Prints a PASS line per check; the first
failure prints FAIL and exits 1.

ACCEPTANCE_PLANT=wrong-code verifies with a code pyotp did not compute, and
ACCEPTANCE_PLANT=bad-qr compares the decoded QR code with another URI: either
must make the run fail, proof that the harness can.
"""
import argparse
import os
import sys
import time
import traceback
import uuid

PREFIX = "data:image/svg+xml;utf-8,"
PASSWORD = "correct-horse-battery"


class Failure(Exception):
    """An acceptance check that did not hold."""


def check(condition, message):
    if not condition:
        raise Failure(message)
    print(f"PASS {message}", flush=True)


def client(url):
    from supabase_auth import SyncGoTrueClient

    return SyncGoTrueClient(url=url, headers={"apikey": "anon"}, auto_refresh_token=False, persist_session=False)


def refused(call, code):
    """Runs `call`, which must fail with GoTrue's error `code`; returns the error."""
    from supabase_auth.errors import AuthApiError

    try:
        call()
    except AuthApiError as error:
        if error.code != code:
            raise Failure(f"expected {code}, got {error.code} ({error.status}: {error.message})")
        return error
    raise Failure(f"expected {code}, the call succeeded")


def decoded_qr(svg):
    """The text zbar reads from the SVG markup, rasterised at 8 pixels a module."""
    import io

    import cairosvg
    from PIL import Image
    from pyzbar.pyzbar import ZBarSymbol, decode

    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=2.0)
    image = Image.open(io.BytesIO(png)).convert("L")
    symbols = decode(image, symbols=[ZBarSymbol.QRCODE])
    if len(symbols) != 1:
        raise Failure(f"zbar found {len(symbols)} QR codes in the SVG ({len(svg)} characters)")
    return symbols[0].data.decode("utf-8")


def code_for(secret, at=None):
    import pyotp

    if os.environ.get("ACCEPTANCE_PLANT") == "wrong-code":
        return "%06d" % ((int(pyotp.TOTP(secret).now()) + 1) % 1_000_000)
    return pyotp.TOTP(secret).at(at or time.time())


def wait_for_next_step():
    """Sleeps into the next 30-second step, so pyotp's next code is a new one."""
    time.sleep(30 - time.time() % 30 + 1)


def run(url):
    email = f"mfa-{uuid.uuid4().hex[:12]}@example.com"
    owner = client(url)
    signed_up = owner.sign_up({"email": email, "password": PASSWORD})
    check(signed_up.session is not None, "sign_up answers a session (the server auto-confirms without mail)")
    level = owner.mfa.get_authenticator_assurance_level()
    check(level.current_level == "aal1" and level.next_level == "aal1", "a new account is at aal1, with nothing further")

    # QR codes of several sizes, each read back by zbar.
    for index, issuer in enumerate(["A", "Acme", "Acme Corporation, Payments and Payroll", "Ünïcödé Bank " + "ž" * 20]):
        enrolled = owner.mfa.enroll({"factor_type": "totp", "friendly_name": f"qr-{index}", "issuer": issuer})
        check(enrolled.totp.qr_code.startswith(PREFIX + "<svg"), f"enroll's qr_code is bare SVG the client prefixed (issuer {index})")
        expected = enrolled.totp.uri if os.environ.get("ACCEPTANCE_PLANT") != "bad-qr" else enrolled.totp.uri + "x"
        check(decoded_qr(enrolled.totp.qr_code[len(PREFIX):]) == expected,
              f"zbar reads the QR code as the uri ({len(enrolled.totp.uri)} bytes)")
        check(enrolled.totp.uri.startswith("otpauth://totp/") and f"secret={enrolled.totp.secret}" in enrolled.totp.uri,
              "the uri is otpauth://totp/ with the secret")
        owner.mfa.unenroll({"factor_id": enrolled.id})

    enrolled = owner.mfa.enroll({"factor_type": "totp", "friendly_name": "phone", "issuer": "Acme"})
    factors = owner.mfa.list_factors()
    check([f.id for f in factors.all] == [enrolled.id] and factors.all[0].status == "unverified" and factors.totp == [],
          "list_factors lists the new factor, unverified, and no verified TOTP factor yet")
    challenge = owner.mfa.challenge({"factor_id": enrolled.id})
    check(challenge.factor_type == "totp" and challenge.expires_at > time.time(), "challenge answers a TOTP challenge that has not expired")
    first_code = code_for(enrolled.totp.secret)
    verified = owner.mfa.verify({"factor_id": enrolled.id, "challenge_id": challenge.id, "code": first_code})
    check(verified.access_token and verified.refresh_token, "verify answers a session")
    level = owner.mfa.get_authenticator_assurance_level()
    methods = [entry.method for entry in level.current_authentication_methods]
    check(level.current_level == "aal2" and level.next_level == "aal2" and methods[:2] == ["totp", "password"],
          f"after verify the session is aal2 with amr {methods}")
    factors = owner.mfa.list_factors()
    check(len(factors.totp) == 1 and factors.totp[0].id == enrolled.id, "list_factors lists the factor as verified TOTP")
    refreshed = owner.refresh_session()
    check(refreshed.session is not None, "a refresh after verify works")
    check(owner.mfa.get_authenticator_assurance_level().current_level == "aal2", "a refresh keeps aal2")

    # A second device: the password alone gives aal1 and says a factor is next.
    other = client(url)
    other.sign_in_with_password({"email": email, "password": PASSWORD})
    level = other.mfa.get_authenticator_assurance_level()
    check(level.current_level == "aal1" and level.next_level == "aal2", "a password sign-in of an enrolled account is aal1, next aal2")
    refused(lambda: other.update_user({"password": "another-horse-battery"}), "insufficient_aal")
    print("PASS a password change at aal1 is refused with insufficient_aal", flush=True)
    refused(lambda: other.mfa.unenroll({"factor_id": enrolled.id}), "insufficient_aal")
    print("PASS unenroll of a verified factor at aal1 is refused with insufficient_aal", flush=True)
    refused(lambda: other.mfa.challenge_and_verify({"factor_id": enrolled.id, "code": first_code}), "mfa_verification_failed")
    print("PASS challenge_and_verify with the code already used is refused (replay)", flush=True)
    wait_for_next_step()
    other.mfa.challenge_and_verify({"factor_id": enrolled.id, "code": code_for(enrolled.totp.secret)})
    check(other.mfa.get_authenticator_assurance_level().current_level == "aal2", "challenge_and_verify with the next code gives aal2")

    unenrolled = other.mfa.unenroll({"factor_id": enrolled.id})
    check(unenrolled.id == enrolled.id, "unenroll at aal2 answers the factor's id")
    check(other.mfa.list_factors().all == [], "list_factors is empty after unenroll")
    other.refresh_session()
    level = other.mfa.get_authenticator_assurance_level()
    check(level.current_level == "aal1" and level.next_level == "aal1", "after unenroll a refresh is back at aal1")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    arguments = parser.parse_args()
    try:
        run(arguments.url)
    except Exception as error:  # every failure ends the run with its reason
        if os.environ.get("ACCEPTANCE_TRACEBACK") == "1":
            traceback.print_exc()
        print(f"FAIL {type(error).__name__}: {error}", flush=True)
        sys.exit(1)
    print("mfa acceptance: all checks passed", flush=True)


if __name__ == "__main__":
    main()
