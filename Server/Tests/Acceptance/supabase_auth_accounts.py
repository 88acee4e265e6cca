#!/usr/bin/env python3
"""Acceptance: anonymous users becoming permanent and a confirmed email change,
driven by the unmodified `supabase_auth` Python client (issue 40, item 8).

  supabase_auth_accounts.py --url URL --maildir DIR [--local-address 127.0.0.2]

Started by scripts/supabase-acceptance.sh against the live auth-server it runs
(with --anonymous-sign-ins and an SMTP listener writing .eml files to DIR):

  A. sign_in_anonymously(); update_user({"email"}) mails one code, to the new
     address only; verify_otp(type="email_change") with it signs in the same
     user (same id and data), no longer anonymous (on the user and in the
     token); update_user({"password"}) then works and the address signs in with it.
  B. a person with a confirmed address (signed in by an email code):
     update_user({"email"}) answers the user with `email` unchanged and
     `new_email`; both codes are mailed; the new address's code alone answers
     GoTrue's single confirmation (no session, address unchanged); the current
     address's code then changes it.

The requests leave from --local-address (another loopback address than the
other flows'), so this file has the per-IP mail budget to itself.

ACCEPTANCE_PLANT=email-change-one-code makes flow B skip the current address's
code and still expect the address changed, so the run must fail: proof that
the harness can tell.
"""
import argparse
import base64
import json
import os
import secrets
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from supabase_auth_flows import Failure, Mailbox, check, code_from, describe, passed, step  # noqa: E402

CHANGE_SUBJECT = r"Confirm your email change: (\d{6})"
CHANGE_TEXT = r"Your confirmation code is (\d{6})"
SIGN_IN_SUBJECT = r"Your sign-in code: (\d{6})"
SIGN_IN_TEXT = r"Your sign-in code is (\d{6})"


def claims(token):
    """The access token's payload (the signature is the server's business; other flows check JWKS)."""
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


class AccountFlows:
    def __init__(self, args):
        self.url = args.url
        self.mailbox = Mailbox(args.maildir)
        self.local_address = args.local_address
        self.plant = os.environ.get("ACCEPTANCE_PLANT", "")
        run = secrets.token_hex(4)
        self.anon_email = f"anon-{run}@example.com"
        self.person = f"pat-{run}@example.com"
        self.person_new = f"pat.new-{run}@example.com"

    def client(self):
        import httpx
        from supabase_auth import SyncGoTrueClient

        http = httpx.Client(transport=httpx.HTTPTransport(local_address=self.local_address), timeout=30)
        return SyncGoTrueClient(url=self.url, headers={"apikey": "anon"}, http_client=http,
                                auto_refresh_token=False, persist_session=False)

    def change_code(self, address, seen, what):
        message = self.mailbox.wait_for(address, seen)
        return code_from(message, CHANGE_SUBJECT, CHANGE_TEXT, what)

    # Flow A: an anonymous user becomes permanent.
    def anonymous_becomes_permanent(self):
        client = self.client()
        signed_in = step("sign_in_anonymously", lambda: client.sign_in_anonymously({"options": {"data": {"plan": "free"}}}))
        user = signed_in.user
        check(user.is_anonymous, f"sign_in_anonymously: is_anonymous is {user.is_anonymous!r}")
        check(claims(signed_in.session.access_token).get("is_anonymous") is True, "the anonymous token says is_anonymous")
        passed("A sign_in_anonymously gives an anonymous user and session")

        before = self.mailbox.names()
        updated = step("update_user({email}) as the anonymous user",
                       lambda: client.update_user({"email": self.anon_email}))
        check(updated.user.new_email == self.anon_email, f"update_user: new_email is {updated.user.new_email!r}")
        check(not updated.user.email, f"update_user: email is {updated.user.email!r} before confirmation")
        code = self.change_code(self.anon_email, before, "the anonymous user's email change")
        passed("A update_user({email}) mails a code to the new address, user shows new_email")

        verified = step("verify_otp(type=email_change)",
                        lambda: client.verify_otp({"type": "email_change", "email": self.anon_email, "token": code}))
        check(verified.session is not None, "verify_otp(email_change): no session")
        permanent = verified.user
        check(permanent.id == user.id, f"verify_otp: user id {permanent.id} is not the anonymous {user.id}")
        check(permanent.email == self.anon_email, f"verify_otp: email is {permanent.email!r}")
        check(permanent.is_anonymous is False, f"verify_otp: is_anonymous is {permanent.is_anonymous!r}")
        check(permanent.user_metadata.get("plan") == "free", f"verify_otp: user_metadata is {permanent.user_metadata!r}")
        check(claims(verified.session.access_token).get("is_anonymous") is False, "the new token says is_anonymous false")
        passed("A verify_otp(type=email_change) makes the same user permanent")

        step("update_user({password}) after the upgrade", lambda: client.update_user({"password": "correct-horse-9"}))
        again = self.client()
        signed = step("sign_in_with_password with the new address",
                      lambda: again.sign_in_with_password({"email": self.anon_email, "password": "correct-horse-9"}))
        check(signed.user.id == user.id, "password sign-in reaches the upgraded user")
        passed("A update_user({password}) then works, and the address signs in with it")

    # Flow B: a confirmed person changes address with both codes.
    def confirmed_person_changes_address(self):
        client = self.client()
        before = self.mailbox.names()
        step("sign_in_with_otp", lambda: client.sign_in_with_otp({"email": self.person}))
        message = self.mailbox.wait_for(self.person, before)
        code = code_from(message, SIGN_IN_SUBJECT, SIGN_IN_TEXT, "the sign-in code")
        session = step("verify_otp(type=email)", lambda: client.verify_otp({"type": "email", "email": self.person, "token": code}))
        check(session.user.email_confirmed_at is not None, "the person's address is confirmed")

        before = self.mailbox.names()
        updated = step("update_user({email}) for a confirmed person", lambda: client.update_user({"email": self.person_new}))
        check(updated.user.email == self.person, f"update_user: email changed at once to {updated.user.email!r}")
        check(updated.user.new_email == self.person_new, f"update_user: new_email is {updated.user.new_email!r}")
        new_code = self.change_code(self.person_new, before, "the new address's code")
        current_code = self.change_code(self.person, before, "the current address's code")
        passed("B update_user({email}) mails a code to the current and to the new address")

        first = step("verify_otp(email_change) with the new address's code",
                     lambda: client.verify_otp({"type": "email_change", "email": self.person_new, "token": new_code}))
        check(first.session is None, "the first confirmation gives no session")
        still = step("get_user after one confirmation", lambda: client.get_user())
        check(still.user.email == self.person, f"one confirmation changed the address to {still.user.email!r}")
        passed("B the new address's code alone is GoTrue's single confirmation; the address is unchanged")

        if self.plant != "email-change-one-code":
            final = step("verify_otp(email_change) with the current address's code",
                         lambda: client.verify_otp({"type": "email_change", "email": self.person, "token": current_code}))
            check(final.session is not None, "the last confirmation gives a session")
        now = step("get_user after both confirmations", lambda: client.get_user())
        check(now.user.email == self.person_new, f"after both codes the address is {now.user.email!r}")
        check(not now.user.new_email, f"after both codes new_email is {now.user.new_email!r}")
        passed("B both codes change the address")

    def run(self):
        self.anonymous_becomes_permanent()
        self.confirmed_person_changes_address()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="e.g. http://127.0.0.1:PORT/auth/v1")
    parser.add_argument("--maildir", required=True)
    parser.add_argument("--local-address", default="127.0.0.2", help="the loopback address requests leave from")
    args = parser.parse_args()
    try:
        AccountFlows(args).run()
    except Failure as failure:
        print(f"FAIL {failure}", file=sys.stderr, flush=True)
        if failure.__cause__ is not None and os.environ.get("ACCEPTANCE_TRACEBACK"):
            traceback.print_exception(failure.__cause__)
        return 1
    except Exception as error:  # noqa: BLE001 - a bug in the harness is a failure too
        print(f"FAIL the harness raised unexpectedly: {describe(error)}", file=sys.stderr, flush=True)
        traceback.print_exc()
        return 1
    print("PASS all supabase_auth account flows", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
