#!/usr/bin/env python3
"""Real-browser flows over /account and /admin: headless Chromium driven by
Selenium against a live auth-server (started by scripts/browser-tests.sh).

1. /account sign-in (a wrong password first), the devices table: this browser
   "(this device)", a phone signed in through the API.
2. One device signed out from the page: its refresh is refused, the browser
   stays signed in.
3. /admin with the service-role key: search, the user's page, a 24h ban
   (refresh refused with user_banned), the ban lifted (refresh works), the
   audit log (user_banned) and the signing keys.
4. CSRF: a form on another site (http://127.0.0.1:<port>) posting to
   /account/sign-out-others with a made-up token, and one on a same-site
   other origin (http://localhost:<port>) with the REAL token: both refused,
   another device still refreshes. The page's own form then does sign it out.
5. At 390x844 the account page and the admin user page do not scroll
   sideways; every page visited has <html lang> and a label for each visible
   input, select and textarea.

6. A provider-only person (the fake Strava of fake_provider.py, which gives
   a verified email) signs in on /account with the provider's button: the
   page lists the provider as the way in and this browser as a device; past
   the re-authentication window a deletion without a code is refused, "Email
   me a code" mails one (read from the SMTP listener's maildir), and the
   deletion with it succeeds.
7. An email-code-only person (made by generate_link, with an app signed in
   through the API) signs in on /account by an emailed code typed into the
   page, sees both devices; past the window a forged post from the page's own
   origin, with the real CSRF token but without the code, is refused (the app
   still refreshes); then the account is deleted after a mailed code and the
   app's refresh is refused.

A screenshot of every page visited lands in --screenshots. --plant
forged-csrf swaps flow 4's forged post for one made on the server's own
origin with the real token and the password (what the defence must let
through), so the run must fail there; --plant forged-with-code puts the
mailed code into flow 7's forged post, so the run must fail there.
"""
import argparse
import base64
import http.server
import json
import os
import re
import secrets
import signal
import sys
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

import passkey_flows  # flow 8, in its own module (Tests/Browser/passkey_flows.py)
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

PHONE_UA = "ExamplePhone/1.0 (Pixel 8)"
TABLET_UA = "ExampleTablet/2.0 (iPad)"
LAPTOP_UA = "ExampleLaptop/3.0 (Linux)"
SIGNUP_UA = "ExampleSignup/1.0"
DESKTOP = (1280, 900)
PHONE = (390, 844)


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


# --- the JSON API, straight over HTTP (no proxy: everything is on loopback) ---

_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def api(base, method, path, body=None, user_agent=SIGNUP_UA, bearer=None):
    """(status, parsed JSON or text) of one API call."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + "/auth/v1" + path, data=data, method=method)
    request.add_header("User-Agent", user_agent)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if bearer:
        request.add_header("Authorization", "Bearer " + bearer)
    try:
        with _opener.open(request, timeout=10) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    try:
        return status, json.loads(raw) if raw else None
    except ValueError:
        return status, raw.decode(errors="replace")


def session_id(access_token):
    payload = access_token.split(".")[1]
    payload += "=" * (-len(payload) % 4)
    return json.loads(base64.urlsafe_b64decode(payload))["session_id"]


class Device:
    """A client signed in through the API, keeping its latest refresh token."""

    def __init__(self, base, email, password, user_agent):
        self.base, self.user_agent = base, user_agent
        status, body = api(base, "POST", "/token?grant_type=password", {"email": email, "password": password}, user_agent)
        check(status == 200 and isinstance(body, dict) and body.get("refresh_token"),
              f"API sign-in as {user_agent!r} answered {status}: {body}")
        self.refresh_token = body["refresh_token"]
        self.session = session_id(body["access_token"])

    def refresh(self):
        """(status, body); a 200 moves the device on to the new refresh token."""
        status, body = api(self.base, "POST", "/token?grant_type=refresh_token",
                           {"refresh_token": self.refresh_token}, self.user_agent)
        if status == 200:
            self.refresh_token = body["refresh_token"]
        return status, body


def error_code(body):
    if isinstance(body, dict):
        return body.get("error_code") or body.get("error") or body.get("code")
    return body


# --- the SMTP listener's maildir (scripts/smtp-listener.py) ---

class Mailbox:
    def __init__(self, directory):
        self.directory = directory

    def names(self):
        return sorted(n for n in os.listdir(self.directory) if n.endswith(".eml"))

    def code(self, address, seen, pattern, timeout=15.0):
        """The six digits matching `pattern` in the first new mail to `address`."""
        import email
        import email.policy
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for name in self.names():
                if name in seen:
                    continue
                with open(os.path.join(self.directory, name), "rb") as file:
                    message = email.message_from_binary_file(file, policy=email.policy.default)
                if address.lower() not in str(message.get("X-Envelope-To", "")).lower():
                    continue
                text = message.get_body(preferencelist=("plain",)).get_content()
                match = re.search(pattern, text)
                check(match is not None, f"the mail to {address} ({message['Subject']!r}) lacks {pattern!r}: {text[:300]}")
                return match.group(1)
            time.sleep(0.1)
        raise Failure(f"no mail to {address} within {timeout:.0f} s")


# --- the attacker's site: a second origin serving forged forms ---

class AttackerSite:
    def __init__(self):
        pages, hits = {}, []
        self.pages, self.hits = pages, hits

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                hits.append(self.path)
                page = pages.get(self.path.split("?")[0])
                body = (page or "not here").encode()
                self.send_response(200 if page else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def forged_form(action, csrf, auto_submit=True):
    script = "<script>document.getElementById('prize').submit()</script>" if auto_submit else ""
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>You won a prize</title></head>
<body><h1>Claim your prize</h1>
<form id="prize" method="post" action="{action}">
<input type="hidden" name="csrf" value="{csrf}">
<button type="submit" id="claim">Claim</button></form>{script}</body></html>"""


# --- the browser ---

class Browser:
    def __init__(self, base, screenshots, readme_images):
        options = Options()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                         f"--window-size={DESKTOP[0]},{DESKTOP[1]}", "--no-proxy-server", "--hide-scrollbars"):
            options.add_argument(argument)
        # The performance log carries the Network events: each page's status and the headers sent.
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.driver.set_page_load_timeout(15)
        self.base, self.screenshots, self.readme_images = base, screenshots, readme_images
        self.shots = []
        self.a11y_checked = set()

    def quit(self):
        try:
            self.driver.quit()
        except Exception:
            pass

    def wait(self, condition, what, seconds=10):
        # Chromium's "does not belong to the document" comes from a page in mid-replacement:
        # a reason to look again, as Selenium does after "no such element".
        def tolerant(driver):
            try:
                return condition(driver)
            except WebDriverException as error:
                if "does not belong to the document" in str(error.msg):
                    return False
                raise
        try:
            return WebDriverWait(self.driver, seconds).until(tolerant)
        except TimeoutException:
            raise Failure(f"timed out waiting for {what} on {self.driver.current_url}: {self.page_summary()}")

    def click_and_wait(self, element, what):
        """Clicks element and waits until its document is replaced. Selenium's staleness_of knows
        only the stale-element error; Chromium can also answer a query on a node of the document
        being unloaded with an inspector error ("does not belong to the document"), and that too
        means the old page is gone. (A CI run failed flow 3 on it.)"""
        old = self.driver.find_element(By.TAG_NAME, "html")
        element.click()

        def replaced(_):
            try:
                old.is_enabled()
                return False
            except StaleElementReferenceException:
                return True
            except WebDriverException as error:
                if "does not belong to the document" in str(error.msg):
                    return True
                raise
        self.wait(replaced, what)

    def find(self, css, what=None):
        return self.wait(EC.presence_of_element_located((By.CSS_SELECTOR, css)), what or css)

    def has(self, css):
        return bool(self.driver.find_elements(By.CSS_SELECTOR, css))

    def navigations(self):
        """The documents requested since the last call, in order: method, URL, status, and the
        Origin and whether a Cookie went with the request (from the performance log)."""
        entries, by_id = [], {}
        for record in self.driver.get_log("performance"):
            message = json.loads(record["message"])["message"]
            method, params = message.get("method"), message.get("params", {})
            request_id = params.get("requestId")
            if method == "Network.requestWillBeSent" and params.get("type") == "Document":
                if params.get("redirectResponse") and by_id.get(request_id):
                    by_id[request_id][-1]["status"] = params["redirectResponse"]["status"]
                request = params["request"]
                entry = {"method": request["method"], "url": request["url"], "status": None,
                         "origin": request.get("headers", {}).get("Origin"), "cookie": None, "extra": False}
                entries.append(entry)
                by_id.setdefault(request_id, []).append(entry)
            elif method == "Network.requestWillBeSentExtraInfo":
                headers = {k.lower(): v for k, v in params.get("headers", {}).items()}
                for entry in by_id.get(request_id, []):
                    if not entry["extra"]:
                        entry.update(extra=True, origin=headers.get("origin", entry["origin"]), cookie="cookie" in headers)
                        break
                else:
                    by_id.setdefault("extra:" + str(request_id), []).append(headers)
            elif method == "Network.responseReceived" and params.get("type") == "Document" and by_id.get(request_id):
                by_id[request_id][-1]["status"] = params["response"]["status"]
        # ExtraInfo that came before its request.
        for request_id, pending in list(by_id.items()):
            if str(request_id).startswith("extra:"):
                for entry, headers in zip((e for e in by_id.get(request_id[6:], []) if not e["extra"]), pending):
                    entry.update(extra=True, origin=headers.get("origin", entry["origin"]), cookie="cookie" in headers)
        return entries

    def last_post(self, navigations):
        posts = [n for n in navigations if n["method"] == "POST"]
        return posts[-1] if posts else None

    def page_summary(self):
        """The page's h1 and any alert, for failure messages."""
        try:
            return json.dumps(self.driver.execute_script(
                "const q = s => { const e = document.querySelector(s); return e ? e.innerText.trim() : null };"
                "return {title: document.title, h1: q('h1'), alert: q('p.alert'), note: q('p.note')}"))
        except WebDriverException as error:
            return f"(page unreadable: {error.msg})"

    def loaded(self, label, expect_post=None):
        """After a navigation: every document answered below 400 (a form's post: expect_post, a
        status or a set of them, when given); not the 500 page; <html lang> and labels checked;
        a screenshot. Returns the navigations."""
        self.find("body")
        navigations = self.navigations()
        for n in navigations:
            post = n["method"] == "POST"
            allowed = expect_post if (post and expect_post is not None) else None
            ok = (n["status"] in allowed if isinstance(allowed, (set, tuple, list)) else n["status"] == allowed) \
                if allowed is not None else (n["status"] is not None and n["status"] < 400)
            if not ok:
                sent = f" (Chromium sent Origin: {n['origin']}, cookie: {'yes' if n['cookie'] else 'no'})" if post else ""
                raise Failure(f"{label}: {n['method']} {urllib.parse.urlparse(n['url']).path} answered {n['status']}"
                              f"{', expected ' + str(allowed) if allowed is not None else ''}{sent}: {self.page_summary()}")
        h1 = self.driver.execute_script("const h = document.querySelector('h1'); return h ? h.innerText : ''")
        check(h1 != "Something went wrong", f"{label}: the server answered its 500 page at {self.driver.current_url}")
        self.accessibility(label)
        self.shot(label)
        return navigations

    def get(self, path, label):
        self.driver.get(self.base + path)
        self.loaded(label)

    def submit(self, button_css, label, wait_for=None, expect_post=303):
        """Clicks a form's button and waits for the next page (and wait_for in it); the post
        must answer expect_post (a redirect back to a page, unless told)."""
        self.click_and_wait(self.driver.find_element(By.CSS_SELECTOR, button_css), f"the page after clicking {button_css}")
        self.find("body")
        if wait_for:
            try:
                WebDriverWait(self.driver, 10).until(EC.presence_of_element_located((By.CSS_SELECTOR, wait_for)))
            except TimeoutException:
                pass  # loaded() names the status the post got, which says more
        navigations = self.loaded(label, expect_post=expect_post)
        if wait_for:
            self.find(wait_for)
        return navigations

    def shot(self, label, size="desktop"):
        """A full-page PNG into the screenshot directory."""
        name = f"{len(self.shots) + 1:02d}-{label}-{size}.png"
        path = os.path.join(self.screenshots, name)
        self.full_page_png(path)
        self.shots.append(path)
        return path

    def full_page_png(self, path):
        metrics = self.driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
        content = metrics.get("cssContentSize") or metrics["contentSize"]
        viewport = metrics.get("cssLayoutViewport") or metrics["layoutViewport"]
        width = max(viewport["clientWidth"], int(content["width"]))
        height = max(viewport["clientHeight"], int(content["height"]))
        data = self.driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": min(height, 6000), "scale": 1}})
        with open(path, "wb") as file:
            file.write(base64.b64decode(data["data"]))

    def readme(self, name):
        if self.readme_images:
            path = os.path.join(self.readme_images, name)
            self.full_page_png(path)
            self.shots.append(path)

    def phone(self, on):
        if on:
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 2, "mobile": True})
        else:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    def accessibility(self, label):
        problems = self.driver.execute_script("""
            const problems = [];
            const lang = document.documentElement.getAttribute('lang');
            if (!lang || !lang.trim()) problems.push('<html> has no lang');
            for (const el of document.querySelectorAll('input, select, textarea')) {
              if (el.type === 'hidden') continue;
              const style = getComputedStyle(el);
              if (!el.getClientRects().length || style.visibility === 'hidden' || style.display === 'none') continue;
              const byFor = el.id && document.querySelector('label[for="' + CSS.escape(el.id) + '"]');
              if (!byFor && !el.closest('label'))
                problems.push('no label for ' + el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
                              (el.name ? '[name=' + el.name + ']' : ''));
            }
            return problems;""")
        check(not problems, f"accessibility on {label} ({self.driver.current_url}): {'; '.join(problems)}")
        self.a11y_checked.add(label)

    def horizontal_overflow(self):
        """None when the page fits the viewport's width, else what sticks out."""
        result = self.driver.execute_script("""
            const width = window.innerWidth, scroll = document.documentElement.scrollWidth;
            if (scroll <= width + 1) return null;
            const out = [];
            for (const el of document.querySelectorAll('body *')) {
              const r = el.getBoundingClientRect();
              if (r.right > width + 1 && out.length < 5)
                out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' right=' + Math.round(r.right));
            }
            return {innerWidth: width, scrollWidth: scroll, sticking_out: out};""")
        return result

    def inner_width(self):
        return self.driver.execute_script("return window.innerWidth")


# --- the flows ---

class Flows:
    def __init__(self, args):
        self.base = args.url.rstrip("/")
        self.service_key = open(args.service_key_file).read().strip()
        self.plant = args.plant
        self.attacker = AttackerSite()
        self.browser = Browser(self.base, args.screenshots, args.readme_images)
        self.email = f"browser-{secrets.token_hex(4)}@example.com"
        self.password = "correct horse " + secrets.token_hex(4)
        self.user_id = None
        self.phone_checks = []
        self.mailbox = Mailbox(args.maildir)
        self.window = args.reauthentication_window

    def close(self):
        self.browser.quit()
        self.attacker.close()

    def devices(self):
        """{session id: row text} of the account page's devices table."""
        rows = self.browser.driver.find_elements(By.CSS_SELECTOR, "#devices tr[data-session]")
        return {row.get_attribute("data-session"): row.text for row in rows}

    def flow1_account_sign_in(self):
        b = self.browser
        status, body = api(self.base, "POST", "/signup", {"email": self.email, "password": self.password})
        check(status == 200 and isinstance(body, dict), f"signup answered {status}: {body}")
        self.user_id = body["user"]["id"]
        # The signup's own session would be a third device: sign it out.
        status, _ = api(self.base, "POST", "/logout?scope=local", bearer=body["access_token"])
        check(status == 204, f"logout of the signup session answered {status}")
        self.phone = Device(self.base, self.email, self.password, PHONE_UA)

        b.get("/account", "account-sign-in")
        check(b.has("form#sign-in #email") and b.has("form#sign-in #password")
              and b.has("form#sign-in button[type=submit]"), "/account signed out has no #sign-in form with #email, #password and a button")
        b.find("#email").send_keys(self.email)
        b.find("#password").send_keys("not the password")
        b.submit("#sign-in button[type=submit]", "account-wrong-password", wait_for="p.alert[role=alert]", expect_post=400)
        check(b.has("form#sign-in"), "after a wrong password the sign-in form is not shown again")
        b.find("#email").clear()
        b.find("#email").send_keys(self.email)
        b.find("#password").send_keys(self.password)
        b.submit("#sign-in button[type=submit]", "account", wait_for="#account-email")
        shown = b.find("#account-email").text.strip()
        check(shown == self.email, f"#account-email shows {shown!r}, not {self.email!r}")
        devices = self.devices()
        mine = [sid for sid, text in devices.items() if "(this device)" in text]
        check(len(mine) == 1, f"expected one row marked (this device), found {len(mine)}: {devices}")
        self.browser_session = mine[0]
        check(not b.has(f"#sign-out-{self.browser_session}"), "the browser's own row has a sign-out button")
        check(self.phone.session in devices, f"the phone's session {self.phone.session} is not in #devices: {devices}")
        check(PHONE_UA in devices[self.phone.session], f"the phone's row does not name {PHONE_UA!r}: {devices[self.phone.session]!r}")
        check(b.has(f"#sign-out-{self.phone.session}"), f"no #sign-out-{self.phone.session} button on the phone's row")
        check(len(devices) == 2, f"expected two devices (browser, phone), found {len(devices)}: {devices}")
        b.readme("account.png")
        print(f"PASS 1 account sign-in: a wrong password re-renders the form with an alert; #devices shows this browser "
              f"(this device) and {PHONE_UA} (session {self.phone.session[:8]}…)")

    def flow2_sign_out_device(self):
        b = self.browser
        b.submit(f"#sign-out-{self.phone.session}", "account-device-signed-out", wait_for="p.note[role=status]")
        devices = self.devices()
        check(self.phone.session not in devices, f"the phone's row is still listed after its sign-out: {devices}")
        status, body = self.phone.refresh()
        check(status != 200, "the signed-out phone's refresh still answered 200")
        b.get("/account", "account-after-device-sign-out")
        check(b.has("#account-email") and self.browser_session in self.devices(),
              f"the browser is no longer signed in after signing the phone out: {b.page_summary()}")
        print(f"PASS 2 device sign-out: the phone's refresh is refused ({status} {error_code(body)}); the browser stays signed in")

    def flow3_admin(self):
        b = self.browser
        self.tablet = Device(self.base, self.email, self.password, TABLET_UA)  # signed in before the ban
        b.get("/admin", "admin-sign-in")
        check(b.has("form#admin-sign-in textarea#key"), "/admin signed out has no #admin-sign-in form with textarea#key")
        b.find("#key").send_keys("eyJhbGciOiJub25lIn0.e30.not-a-key")
        b.submit("#admin-sign-in button[type=submit]", "admin-wrong-key", wait_for="p.alert[role=alert]", expect_post=400)
        b.find("#key").send_keys(self.service_key)
        b.submit("#admin-sign-in button[type=submit]", "admin-users", wait_for="table#users")
        nav = {a.text.strip(): urllib.parse.urlparse(a.get_attribute("href")).path
               for a in b.driver.find_elements(By.CSS_SELECTOR, "nav a")}
        expected_nav = {"Users": "/admin", "Audit log": "/admin/audit", "Signing keys": "/admin/keys"}
        check(all(nav.get(k) == v for k, v in expected_nav.items()), f"the console's nav links are {nav}, expected {expected_nav}")

        q = b.find("#search #q")
        q.clear()
        q.send_keys(self.email)
        b.submit("#search button[type=submit]", "admin-search", wait_for="table#users")
        links = b.driver.find_elements(By.CSS_SELECTOR, "#users a[href^='/admin/users/']")
        check(len(links) == 1 and links[0].text.strip() == self.email,
              f"searching {self.email!r} lists {[l.text for l in links]}, expected just that address")
        href = urllib.parse.urlparse(links[0].get_attribute("href")).path
        check(href == f"/admin/users/{self.user_id}", f"the user's link is {href}, expected /admin/users/{self.user_id}")
        b.click_and_wait(links[0], "the user's page")
        b.find("#user-email")
        b.loaded("admin-user")
        check(b.find("#user-email").text.strip() == self.email, f"#user-email shows {b.find('#user-email').text!r}")
        check(b.find("#user-state").text.strip() == "active", f"#user-state is {b.find('#user-state').text!r} before the ban")
        sessions_text = b.find("table#sessions").text
        check(TABLET_UA in sessions_text, f"#sessions does not list {TABLET_UA!r}: {sessions_text!r}")
        b.readme("admin.png")

        Select(b.find("#ban select#duration")).select_by_value("24h")
        b.submit("#ban button[type=submit]", "admin-user-banned", wait_for="#user-state")
        state = b.find("#user-state").text.strip()
        check(state.startswith("banned until"), f"after the 24h ban #user-state is {state!r}")
        status, body = self.tablet.refresh()
        check(status == 400 and error_code(body) == "user_banned",
              f"a session signed in before the ban refreshed with {status} {body}, expected 400 user_banned")
        banned = (status, error_code(body), state)

        b.submit("#unban button[type=submit]", "admin-user-unbanned", wait_for="#user-state")
        state = b.find("#user-state").text.strip()
        check(state == "active", f"after lifting the ban #user-state is {state!r}")
        status, body = self.tablet.refresh()
        check(status == 200, f"after the ban was lifted the session's refresh answered {status} {body}")

        b.click_and_wait(b.driver.find_element(By.LINK_TEXT, "Audit log"), "the audit log")
        b.find("table#audit")
        b.loaded("admin-audit")
        actions = [td.text.strip() for td in b.driver.find_elements(By.CSS_SELECTOR, "#audit tbody tr td:nth-child(3)")]
        check("user_banned" in actions, f"the audit log has no user_banned entry; actions: {sorted(set(actions))}")

        b.click_and_wait(b.driver.find_element(By.LINK_TEXT, "Signing keys"), "the signing keys")
        b.find("table#keys")
        b.loaded("admin-keys")
        keys = b.driver.find_elements(By.CSS_SELECTOR, "#keys tbody tr")
        check(keys, "#keys lists no signing key")
        check(b.has("form#rotate button[type=submit]"), "no #rotate form on /admin/keys")
        print(f"PASS 3 admin console: service-key sign-in (a bad key refused), search, user page; 24h ban -> "
              f"'{banned[2]}', refresh {banned[0]} {banned[1]}; unban -> active, refresh 200; "
              f"audit log ({len(actions)} entries, user_banned among them); {len(keys)} signing key(s), #rotate")

    def flow4_csrf(self):
        b = self.browser
        laptop = Device(self.base, self.email, self.password, LAPTOP_UA)
        b.get("/account", "account-before-csrf")
        check(laptop.session in self.devices(), "the laptop's session is not on the account page")
        real_csrf = b.find("#sign-out-others input[name=csrf]").get_attribute("value")
        target = self.base + "/account/sign-out-others"
        refused = []

        if self.plant == "forged-csrf":
            # The plant: the forged post made from the server's own origin, with the real token:
            # exactly what the check must let through, so the assertion below must fail.
            self.post_from_page("/account/sign-out-others", {"csrf": real_csrf, "current_password": self.password})
            b.wait(lambda d: "/account/sign-out-others" not in d.current_url and "done=" in d.current_url,
                   "the planted post's answer")
            post = b.last_post(b.loaded("csrf-planted-same-origin", expect_post={303, 403}))
            print(f"PLANT forged-csrf: posted {target} from the server's own origin with the real token: "
                  f"{post and post['status']}, now at {b.driver.current_url}")
        else:
            # Another site: no cookie (SameSite=Strict), a foreign Origin and a made-up token.
            self.attacker.pages["/prize"] = forged_form(target, secrets.token_urlsafe(32))
            # A same-site other origin (localhost, another port): the cookie IS sent and the token is the
            # real one, so only the Origin check stands in the way.
            self.attacker.pages["/leaked"] = forged_form(target, real_csrf)
            for host, path, label in (("127.0.0.1", "/prize", "csrf-cross-site"), ("localhost", "/leaked", "csrf-same-site-leaked-token")):
                b.driver.get(f"http://{host}:{self.attacker.port}{path}")
                b.wait(lambda d: d.current_url.startswith(target), f"the forged form from {host} to reach {target}")
                b.find("body")
                post = b.last_post(b.loaded(label, expect_post=403))
                alert = b.driver.find_elements(By.CSS_SELECTOR, "p.alert[role=alert]")
                check(alert, f"the forged post from http://{host}:{self.attacker.port} was answered with no refusal: {b.page_summary()}")
                refused.append(f"from http://{host}:{self.attacker.port} (Origin {post['origin']}, cookie "
                               f"{'sent' if post['cookie'] else 'not sent'}, {'real' if path == '/leaked' else 'made-up'} token) -> {post['status']}")
            check(len([h for h in self.attacker.hits if h in ("/prize", "/leaked")]) == 2,
                  f"the attacker pages were not both loaded: {self.attacker.hits}")

        status, body = laptop.refresh()
        check(status == 200, f"after the forged post the other device's refresh answered {status} {error_code(body)}: "
                             f"the forged post signed it out")
        b.get("/account", "account-after-forged-posts")
        check(self.browser_session in self.devices(), "the browser was signed out by the forged posts")

        # The page's own form, same post: it must work, or the check above proves nothing. The
        # sign-in is older than the server's short re-authentication window: the password is the proof.
        b.find("#others-password").send_keys(self.password)
        b.submit("#sign-out-others button[type=submit]", "account-signed-out-others", wait_for="p.note[role=status]")
        devices = self.devices()
        check(list(devices) == [self.browser_session], f"after 'sign out all other devices' #devices lists {devices}")
        status, body = laptop.refresh()
        check(status != 200, "after the page's own sign-out-others the other device still refreshes (200)")
        tablet_status, _ = self.tablet.refresh()
        check(tablet_status != 200, "after the page's own sign-out-others the tablet still refreshes (200)")
        print("PASS 4 CSRF: forged posts refused (" + "; ".join(refused) + "); the other device still refreshed 200; "
              f"the page's own #sign-out-others then signed it out (refresh {status} {error_code(body)})")

    def post_from_page(self, action, fields):
        """A form built and posted by script on the current page: the server's own origin, the
        browser's cookie: what a stolen CSRF token or a script on the page could send."""
        self.browser.driver.execute_script(
            "const f = document.createElement('form'); f.method = 'post'; f.action = arguments[0];"
            "for (const [k, v] of Object.entries(arguments[1])) { const i = document.createElement('input');"
            " i.type = 'hidden'; i.name = k; i.value = v; f.appendChild(i); }"
            "document.body.appendChild(f); f.submit();", action, fields)

    def wait_out_window(self, signed_in_at):
        """Sleeps past the server's re-authentication window, counted from the page's sign-in."""
        left = signed_in_at + self.window + 1 - time.monotonic()
        if left > 0:
            time.sleep(left)

    def delete_after_code(self, address, label):
        """Past the window: a deletion without the code is refused; with the mailed code it works."""
        b = self.browser
        check(b.has("#delete-code") and not b.has("#delete-password"),
              f"{label}: the deletion form does not ask a person without a password for a code")
        b.find("#delete-account input[name=confirm]").click()
        b.submit("#delete-account button[type=submit]", f"{label}-delete-without-code",
                 wait_for="p.alert[role=alert]", expect_post=400)
        check(b.has("#account-email"), f"{label}: a deletion without the code did not leave the account page")
        seen = set(self.mailbox.names())
        b.submit("#send-code button[type=submit]", f"{label}-code-sent", wait_for="p.note[role=status]")
        code = self.mailbox.code(address, seen, r"Your confirmation code is (\d{6})")
        b.find("#delete-code").send_keys(code)
        b.find("#delete-account input[name=confirm]").click()
        b.submit("#delete-account button[type=submit]", f"{label}-deleted", expect_post=200)
        h1 = b.find("h1").text.strip()
        check(h1 == "Account deleted", f"{label}: after the deletion with the mailed code the page says {h1!r}")
        status, body = api(self.base, "GET", "/admin/users?per_page=1000", bearer=self.service_key)
        check(status == 200 and address not in json.dumps(body), f"{label}: {address} is still listed by the admin API")
        return code

    def methods(self):
        return [li.get_attribute("data-method") for li in self.browser.driver.find_elements(By.CSS_SELECTOR, "#sign-in-methods li")]

    def flow6_provider_only(self):
        b = self.browser
        b.driver.execute_cdp_cmd("Network.clearBrowserCookies", {})  # every path's: the page's cookie is scoped to /account
        b.get("/account", "account-sign-in-choices")
        check(b.has("#provider-fake-strava") and b.has("form#code-sign-in") and b.has("form#sign-in")
              and b.has("#forgot-password"),
              "/account signed out lacks one of: the provider button, the email-code form, the password form, 'forgot'")
        b.click_and_wait(b.find("#provider-fake-strava"), "the provider's round trip back to /account")
        b.find("#account-email")
        b.loaded("account-provider-only")
        signed_in_at = time.monotonic()
        address = b.find("#account-email").text.strip()
        check(address.endswith("@example.com"), f"the provider's person shows as {address!r}")
        # The provider's verified email is the account's address, so a mailed code signs in too.
        check(self.methods() == ["email-code", "provider"], f"a provider-only person's ways in are listed as {self.methods()}")
        devices = self.devices()
        check(len(devices) == 1 and "(this device)" in next(iter(devices.values())),
              f"the provider-only person's devices are {devices}")
        self.wait_out_window(signed_in_at)
        self.delete_after_code(address, "provider-only")
        print(f"PASS 6 provider-only: signed in with fake-strava as {address}; ways in: provider, email code (no password); "
              "devices: this browser; "
              "past the window the deletion needed the mailed code and then deleted the account")

    def flow7_email_code_only(self):
        b = self.browser
        address = f"code-{secrets.token_hex(4)}@example.com"
        # The app: an account without a password, signed in through the API by a one-time code.
        status, link = api(self.base, "POST", "/admin/generate_link", {"type": "magiclink", "email": address},
                           bearer=self.service_key)
        check(status == 200 and isinstance(link, dict) and link.get("email_otp"), f"generate_link answered {status}: {link}")
        status, body = api(self.base, "POST", "/verify", {"type": "magiclink", "email": address, "token": link["email_otp"]},
                           user_agent=PHONE_UA)
        check(status == 200 and body.get("refresh_token"), f"verify of the generated code answered {status}: {body}")
        app = Device.__new__(Device)
        app.base, app.user_agent, app.refresh_token = self.base, PHONE_UA, body["refresh_token"]
        app.session = session_id(body["access_token"])

        b.driver.execute_cdp_cmd("Network.clearBrowserCookies", {})  # every path's: the page's cookie is scoped to /account
        b.get("/account", "account-sign-in-for-code")
        b.find("#code-email").send_keys(address)
        seen = set(self.mailbox.names())
        b.submit("#code-sign-in button[type=submit]", "account-code-asked", wait_for="#code-verify", expect_post=200)
        code = self.mailbox.code(address, seen, r"Your sign-in code is (\d{6})")
        b.find("#code").send_keys(code[:3] + " " + code[3:])
        b.submit("#code-verify button[type=submit]", "account-email-code-only", wait_for="#account-email")
        signed_in_at = time.monotonic()
        check(self.methods() == ["email-code"], f"an email-code-only person's ways in are listed as {self.methods()}")
        devices = self.devices()
        check(app.session in devices and PHONE_UA in devices[app.session] and len(devices) == 2,
              f"the email-code-only person's devices are {devices}, expected this browser and {PHONE_UA}")
        real_csrf = b.find("#delete-account input[name=csrf]").get_attribute("value")
        self.wait_out_window(signed_in_at)

        # The forged post: the page's own origin, the real token, the box ticked, no code.
        forged = {"csrf": real_csrf, "confirm": "yes"}
        if self.plant == "forged-with-code":
            seen = set(self.mailbox.names())
            b.submit("#send-code button[type=submit]", "account-plant-code-sent", wait_for="p.note[role=status]")
            forged["nonce"] = self.mailbox.code(address, seen, r"Your confirmation code is (\d{6})")
            print("PLANT forged-with-code: the forged deletion carries the mailed code", flush=True)
        self.post_from_page("/account/delete", forged)
        b.find("h1")
        post = b.last_post(b.loaded("account-forged-delete-without-code", expect_post={200, 400}))
        check(post is not None and post["status"] == 400,
              f"a forged deletion without the code answered {post and post['status']}: {b.page_summary()}")
        status, body = app.refresh()
        check(status == 200, f"after the refused forged deletion the app's refresh answered {status} {error_code(body)}")
        b.get("/account", "account-after-forged-delete")
        self.delete_after_code(address, "email-code-only")
        status, body = app.refresh()
        check(status != 200, "after the deletion the app still refreshes (200)")
        print(f"PASS 7 email-code-only: signed in on the page with a typed code; devices: this browser and {PHONE_UA}; "
              f"a forged deletion without the code was refused (400, the app still refreshed); the deletion with the "
              f"mailed code worked and the app's refresh is refused ({status} {error_code(body)})")

    def flow5_phone_and_accessibility(self):
        b = self.browser
        pages = [("/account", "account", "#account-email"), (f"/admin/users/{self.user_id}", "admin-user", "#user-email")]
        results = []
        b.phone(True)
        try:
            for path, label, ready in pages:
                b.driver.get(self.base + path)
                b.find(ready)
                width = b.inner_width()
                check(width == PHONE[0], f"{path} at phone size: window.innerWidth is {width}, expected {PHONE[0]}")
                overflow = b.horizontal_overflow()
                b.accessibility(f"{label}-phone")
                b.shot(label, "phone")
                check(overflow is None, f"{path} scrolls sideways at {PHONE[0]}x{PHONE[1]}: {overflow}")
                results.append(path)
            # The console's other pages: reported, not failed (the contract names the two above).
            for path, label in (("/admin", "admin-users"), ("/admin/audit", "admin-audit"), ("/admin/keys", "admin-keys")):
                b.driver.get(self.base + path)
                b.find("main")
                overflow = b.horizontal_overflow()
                b.shot(label, "phone")
                if overflow:
                    print(f"NOTE {path} scrolls sideways at {PHONE[0]}x{PHONE[1]}: {overflow}")
        finally:
            b.phone(False)
        print(f"PASS 5 phone {PHONE[0]}x{PHONE[1]}: no horizontal scroll on {', '.join(results)}; "
              f"<html lang> and labels on every visible field of {len(b.a11y_checked)} page views")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the server as the browser sees it, e.g. http://localhost:8080")
    parser.add_argument("--service-key-file", required=True)
    parser.add_argument("--screenshots", required=True)
    parser.add_argument("--readme-images", help="also write account.png and admin.png here")
    parser.add_argument("--plant", choices=["forged-csrf", "forged-with-code"])
    parser.add_argument("--maildir", required=True, help="the SMTP listener's maildir (scripts/smtp-listener.py)")
    parser.add_argument("--reauthentication-window", type=int, required=True,
                        help="the server's --reauthentication-window in seconds (flows 4, 6, 7 wait it out)")
    args = parser.parse_args()
    os.makedirs(args.screenshots, exist_ok=True)
    for name in os.listdir(args.screenshots):
        if re.fullmatch(r"\d\d-[a-z0-9-]+-(desktop|phone)\.png|FAILED\.png", name):
            os.remove(os.path.join(args.screenshots, name))
    if args.readme_images:
        os.makedirs(args.readme_images, exist_ok=True)
    # A TERM from the runner (or timeout) unwinds through `finally`, so Chromium is quit.
    # A TERM can come twice (the runner signals the process group, timeout forwards its own): the
    # first starts the unwinding, later ones must not interrupt it.
    def on_term(*_):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        sys.exit(143)
    signal.signal(signal.SIGTERM, on_term)

    started = time.monotonic()
    flows = None
    step = "starting Chromium"
    try:
        flows = Flows(args)
        for step, run in (("flow 1 (account sign-in)", flows.flow1_account_sign_in),
                          ("flow 2 (device sign-out)", flows.flow2_sign_out_device),
                          ("flow 3 (admin console)", flows.flow3_admin),
                          ("flow 4 (CSRF)", flows.flow4_csrf),
                          ("flow 5 (phone size, accessibility)", flows.flow5_phone_and_accessibility),
                          ("flow 6 (provider-only person)", flows.flow6_provider_only),
                          ("flow 7 (email-code-only person)", flows.flow7_email_code_only),
                          ("flow 8 (second factor, mfa_flows.py)", lambda: __import__("mfa_flows").flow8_second_factor(flows)),
                          ("flow 9 (passkeys)", lambda: passkey_flows.run(flows, sys.modules[__name__]))):
            run()
    except (Failure, WebDriverException, AssertionError, KeyError, OSError) as error:
        message = str(error) if isinstance(error, Failure) else f"{type(error).__name__}: {error}"
        # A driver error names no line of ours (its stack trace is Chromium's): name the flow's.
        ours = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == __file__]
        where = f" (at line {ours[-1].lineno}: {ours[-1].line})" if ours and not isinstance(error, Failure) else ""
        print(f"FAIL {step}{where}: {message.strip()}", file=sys.stderr)
        if flows:
            try:
                path = os.path.join(args.screenshots, "FAILED.png")
                flows.browser.full_page_png(path)
                print(f"  page at failure: {flows.browser.driver.current_url} (screenshot {path})", file=sys.stderr)
            except Exception:
                pass
        return 1
    finally:
        if flows:
            flows.close()
    print(f"{len(flows.browser.shots)} screenshots in {args.screenshots}"
          + (f" (README images in {args.readme_images})" if args.readme_images else ""))
    print(f"all browser flows passed in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
