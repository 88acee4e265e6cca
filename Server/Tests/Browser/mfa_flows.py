"""Flow 8 of console_flows.py: a second factor through the account page
(docs/MFA.md, "The account page"; issue 38, item 11).

A fresh person signs in on /account with a password, adds an authenticator
app: the page's QR code (the server's own inline SVG) is screenshotted as an
element and decoded by zbar (pyzbar on Debian's libzbar0), the code computed
by pyotp from the decoded otpauth:// URI, and verified. The enrolment page and
the account page with the factor hold at 390x844. Then the browser signs out,
signs in again with the password, lands on the code step (the account page
stays closed to it), types the code and is in.

No waiting: the second code is the next 30-second step's, which the server
accepts (one step on either side) and which the first one did not spend.
"""
import io
import secrets
import time
import urllib.parse

import pyotp
from PIL import Image
from pyzbar.pyzbar import decode

# console_flows.py runs as __main__: its Failure is the one its runner catches.
from __main__ import PHONE, api, check


def decode_qr(png):
    """The text of the one QR code in a PNG screenshot."""
    symbols = [s for s in decode(Image.open(io.BytesIO(png))) if s.type == "QRCODE"]
    check(len(symbols) == 1, f"zbar found {len(symbols)} QR codes in the #factor-qr screenshot")
    return symbols[0].data.decode()


def fits_phone(b, label):
    b.phone(True)
    try:
        overflow = b.horizontal_overflow()
        b.shot(label, "phone")
        check(overflow is None, f"{label} scrolls sideways at {PHONE[0]}x{PHONE[1]}: {overflow}")
    finally:
        b.phone(False)


def flow8_second_factor(flows):
    b = flows.browser
    email = f"browser-mfa-{secrets.token_hex(4)}@example.com"
    password = "correct horse " + secrets.token_hex(4)
    status, body = api(flows.base, "POST", "/signup", {"email": email, "password": password})
    check(status == 200 and isinstance(body, dict), f"signup answered {status}: {body}")
    b.driver.delete_all_cookies()

    b.get("/account", "mfa-sign-in")
    b.find("#email").send_keys(email)
    b.find("#password").send_keys(password)
    b.submit("#sign-in button[type=submit]", "mfa-account", wait_for="#enrol-factor")
    b.find("#factor-name").send_keys("Browser phone")
    b.submit("#enrol-factor button[type=submit]", "mfa-enrol", wait_for="#factor-qr svg", expect_post=200)
    uri = decode_qr(b.find("#factor-qr").screenshot_as_png)
    parsed = urllib.parse.urlparse(uri)
    query = urllib.parse.parse_qs(parsed.query)
    check(parsed.scheme == "otpauth" and parsed.netloc == "totp", f"the QR code holds {uri[:20]!r}…, not an otpauth://totp URI")
    secret = query.get("secret", [""])[0]
    check(secret and secret == b.find("#factor-secret").text.strip(), "the QR code's secret is not the key the page shows")
    check(query.get("digits") == ["6"] and query.get("period") == ["30"] and query.get("algorithm") == ["SHA1"],
          f"the URI's parameters are not SHA1, 6 digits, 30 s: {sorted(query)}")
    check(urllib.parse.unquote(parsed.path).endswith(":" + email), "the URI does not name the account's email")
    fits_phone(b, "mfa-enrol")
    totp = pyotp.TOTP(secret)
    b.find("#code").send_keys(totp.now())
    b.submit("#factor-verify button[type=submit]", "mfa-verified", wait_for="p.note[role=status]")
    listed = b.find("#factors").text
    check("Browser phone" in listed and "on since" in listed, f"#factors does not list the verified app: {listed!r}")
    fits_phone(b, "mfa-account")

    b.submit("#sign-out button[type=submit]", "mfa-signed-out", wait_for="#sign-in")
    b.find("#email").send_keys(email)
    b.find("#password").send_keys(password)
    b.submit("#sign-in button[type=submit]", "mfa-step", wait_for="#factor-step")
    check(b.driver.current_url.endswith("/account/factor-step"), f"the password led to {b.driver.current_url}, not the code step")
    fits_phone(b, "mfa-step")
    b.get("/account", "mfa-step-account-closed")
    check(b.has("#sign-in") and not b.has("#account-email"), "the account page opened before the code was typed")
    b.get("/account/factor-step", "mfa-step-again")
    # The next step's code: accepted now (one step either side), not spent by the enrolment's.
    b.find("#code").send_keys(totp.at(time.time() + 30))
    b.submit("#factor-step button[type=submit]", "mfa-signed-in", wait_for="#account-email")
    check(b.find("#account-email").text.strip() == email, "after the code the page is not the person's account")
    print("PASS 8 second factor: enrolled on the page, its QR code decoded by zbar from a screenshot, verified with "
          "pyotp's code; signed out, the password led to the code step (the page closed to it), and the code signed in")
