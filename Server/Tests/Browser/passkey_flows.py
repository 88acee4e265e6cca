"""Flow 9 of console_flows.py: passkeys on /account in Chromium, with
WebDriver's virtual authenticator (CTAP2, internal transport, resident keys,
user verification), an authenticator nobody here wrote (issue 39, item 9).

A fresh person signs in on /account with their password, adds a passkey
("Browser key"), sees it listed (name, added, last used) and the page fits a
390 px phone without sideways scrolling; signs out; signs in with the passkey
(the sign-in page's conditional request, which Chromium's virtual
authenticator answers by itself, or else the "Sign in with a passkey"
button); sees the passkey's last use; removes it
(the page asks the authenticator for a fresh assertion first) and the list
is empty. The server runs with --passkeys, RP ID localhost and the page's
origin (scripts/browser-tests.sh): http://localhost is a secure context.
"""
import secrets

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import VirtualAuthenticatorOptions

PASSKEY_NAME = "Browser key"


def run(flows, runner):
    """Runs the flow on console_flows' Flows (its browser and base URL), with the runner's
    module for its helpers (check, api, PHONE), so a failure is the runner's own Failure."""
    check, api, PHONE = runner.check, runner.api, runner.PHONE

    b = flows.browser
    driver = b.driver
    email = f"passkey-{secrets.token_hex(4)}@example.com"
    password = "correct horse " + secrets.token_hex(4)
    status, body = api(flows.base, "POST", "/signup", {"email": email, "password": password})
    check(status == 200 and isinstance(body, dict), f"signup answered {status}: {body}")
    status, _ = api(flows.base, "POST", "/logout?scope=local", bearer=body["access_token"])
    check(status == 204, f"logout of the signup session answered {status}")

    driver.add_virtual_authenticator(VirtualAuthenticatorOptions(
        protocol=VirtualAuthenticatorOptions.Protocol.CTAP2, transport=VirtualAuthenticatorOptions.Transport.INTERNAL,
        has_resident_key=True, has_user_verification=True, is_user_verified=True))
    try:
        # Whoever was signed in before (flow 7 deleted its account): start signed out.
        driver.delete_all_cookies()
        b.get("/account", "passkey-sign-in-page")
        b.find("#email").send_keys(email)
        b.find("#password").send_keys(password)
        b.submit("#sign-in button[type=submit]", "passkey-account", wait_for="#account-email")

        section = b.wait(lambda d: visible(d, "#passkeys"), "the #passkeys section to be shown")
        check(section, "the signed-in page shows no #passkeys section")
        b.find("#passkey-name").send_keys(PASSKEY_NAME)
        b.find("#add-passkey").click()
        b.wait(lambda d: rows(d), "the new passkey's row in #passkey-list", seconds=15)
        row_text = rows(driver)[0].text
        check(PASSKEY_NAME in row_text, f"the passkey's row does not name it: {row_text!r}")
        check(visible(driver, "#sign-in-methods li[data-method=passkey]"), "How you sign in does not list the passkey")
        check(len(driver.get_credentials()) == 1, "the virtual authenticator holds no resident credential after adding one")
        status_text = driver.find_element(By.CSS_SELECTOR, "#passkeys-status").text
        check("added" in status_text, f"#passkeys-status after adding: {status_text!r}")
        b.accessibility("passkey-added")
        b.shot("passkey-added")

        b.phone(True)
        try:
            driver.get(flows.base + "/account")
            b.wait(lambda d: rows(d), "the passkey's row at phone size")
            overflow = b.horizontal_overflow()
            b.shot("passkey-account", "phone")
            check(overflow is None, f"/account with a passkey scrolls sideways at {PHONE[0]}x{PHONE[1]}: {overflow}")
        finally:
            b.phone(False)

        b.get("/account", "passkey-account-again")
        # Signed out, the sign-in page starts a conditional request at once, and Chromium's virtual
        # authenticator answers it without a click: the page may sign in by itself. Otherwise the button.
        b.click_and_wait(driver.find_element(By.CSS_SELECTOR, "#sign-out button[type=submit]"), "the page after signing out")
        signed_in = lambda d: d.find_elements(By.CSS_SELECTOR, "#account-email")
        b.wait(lambda d: signed_in(d) or visible(d, "#passkey-sign-in"), "the sign-in page's passkey button or the account")
        path = "the autofill's conditional request"
        if not signed_in(driver):
            try:
                driver.find_element(By.CSS_SELECTOR, "#passkey-sign-in-button").click()
                path = "the Sign in with a passkey button"
            except WebDriverException:
                pass  # the conditional request won the race and the page is being replaced
        b.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#account-email"), "the account page after the passkey sign-in",
               seconds=15)
        b.loaded("passkey-signed-in")
        shown = b.find("#account-email").text.strip()
        check(shown == email, f"signed in with the passkey as {shown!r}, not {email!r}")
        b.wait(lambda d: rows(d), "the passkey's row after the passkey sign-in")
        used = rows(driver)[0].find_elements(By.CSS_SELECTOR, "td[data-label='Last used']")
        check(used and used[0].text.strip() not in ("", "never"), "the passkey's last use is not shown after signing in with it")

        rows(driver)[0].find_element(By.CSS_SELECTOR, ".remove-passkey").click()
        b.wait(lambda d: visible(d, "#no-passkeys"), "the empty list after removing the passkey", seconds=15)
        status_text = driver.find_element(By.CSS_SELECTOR, "#passkeys-status").text
        check("removed" in status_text, f"#passkeys-status after removing: {status_text!r}")
        b.shot("passkey-removed")
    finally:
        driver.remove_virtual_authenticator()
    print(f"PASS 9 passkeys: added on /account ({PASSKEY_NAME}), fits {PHONE[0]} px, signed out, signed in with it "
          f"(by {path}), last use shown, removed after a fresh assertion")


def visible(driver, css):
    try:
        elements = driver.find_elements(By.CSS_SELECTOR, css)
        return bool(elements) and elements[0].is_displayed()
    except StaleElementReferenceException:
        return False  # the page was replaced while looking: look again


def rows(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#passkey-list tbody tr[data-passkey]")
