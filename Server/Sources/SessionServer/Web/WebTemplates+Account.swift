/// The templates of `/account` (docs/SERVER.md, "The account page"). Each
/// form's button sits under its fields (the stylesheet makes every button
/// outside an inline form a block of its own).
extension WebTemplates {
    static let accountTemplates: [String: String] = [
        "account-sign-in": """
            {{> header}}
            {{> account-passkey-sign-in}}
            <section aria-labelledby="code-heading">
            <h2 id="code-heading">Get a sign-in code by email</h2>
            <form id="code-sign-in" method="post" action="/account/code">
            <label for="code-email">Email</label><input id="code-email" name="email" type="email" autocomplete="email" required>
            <button type="submit">Email me a code</button></form>
            </section>
            {{#hasProviders}}<section aria-labelledby="providers-heading"><h2 id="providers-heading">Or continue with</h2>
            <ul class="providers">{{#providers}}<li><a class="button" id="provider-{{name}}" href="/account/oauth/{{name}}">Continue with {{label}}</a></li>{{/providers}}</ul></section>{{/hasProviders}}
            <section aria-labelledby="password-heading">
            <h2 id="password-heading">Or use your password</h2>
            <form id="sign-in" method="post" action="/account/sign-in">
            <label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>
            <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
            <button type="submit">Sign in</button>
            </form>
            <p><a id="forgot-password" href="/account/recover">Forgot your password?</a></p>
            </section>
            {{> footer}}
            """,
        "account-code": """
            {{> header}}
            <p>If <strong>{{email}}</strong> has an account, a six-digit code is on its way. Type it here; it works once and expires in a few minutes.</p>
            <form id="code-verify" method="post" action="/account/code/verify"><input type="hidden" name="email" value="{{email}}">
            <label for="code">Code from the email</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="9" required>
            <button type="submit">Sign in</button></form>
            <p><a href="/account">Start again</a></p>
            {{> footer}}
            """,
        "account-recover": """
            {{> header}}
            <p>Type your email: if it has an account, we send a code to choose a new password with.</p>
            <form id="recover" method="post" action="/account/recover">
            <label for="recover-email">Email</label><input id="recover-email" name="email" type="email" autocomplete="email" required>
            <button type="submit">Email me a reset code</button></form>
            <p><a href="/account">Back to sign-in</a></p>
            {{> footer}}
            """,
        "account-recover-code": """
            {{> header}}
            <p>If <strong>{{email}}</strong> has an account, a reset code is on its way. Type it with your new password; every other device is signed out.</p>
            <form id="recover-verify" method="post" action="/account/recover/verify"><input type="hidden" name="email" value="{{email}}">
            <label for="code">Code from the email</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="9" required>
            <label for="new-password">New password</label><input id="new-password" name="password" type="password" autocomplete="new-password" required minlength="8">
            <button type="submit">Set the new password</button></form>
            <p><a href="/account">Start again</a></p>
            {{> footer}}
            """,
        "account": """
            {{> header}}
            <p>Signed in as <strong id="account-email">{{email}}</strong>.</p>
            <h2 id="methods-heading">How you sign in</h2>
            <ul id="sign-in-methods" aria-labelledby="methods-heading">
            {{#hasPassword}}<li data-method="password">With your password</li>{{/hasPassword}}
            {{#usesCode}}<li data-method="email-code">With a code emailed to {{email}}</li>{{/usesCode}}
            {{#providers}}<li data-method="provider">With {{label}}</li>{{/providers}}
            </ul>
            {{> account-passkeys}}
            {{> account-factors}}
            <h2 id="devices-heading">Your devices</h2>
            <table id="devices" aria-labelledby="devices-heading"><thead><tr><th>Device</th><th>IP</th><th>Signed in</th><th>Last used</th><th></th></tr></thead><tbody>
            {{#devices}}<tr data-session="{{id}}"><td>{{device}}{{#current}} <strong>(this device)</strong>{{/current}}</td><td data-label="IP">{{ip}}</td><td data-label="Signed in">{{createdAt}}</td><td data-label="Last used">{{lastUsed}}</td>
            <td>{{^current}}<form class="inline" method="post" action="/account/sessions/{{id}}/sign-out"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" id="sign-out-{{id}}" aria-label="Sign out {{device}}">Sign out this device</button></form>{{/current}}</td></tr>
            {{/devices}}</tbody></table>
            <h2 id="proof-heading">Confirm it is you</h2>
            <p class="muted">Signing out every other device, {{#hasPassword}}changing{{/hasPassword}}{{^hasPassword}}setting{{/hasPassword}} your password and deleting your account need fresh proof: {{#hasPassword}}your current password{{/hasPassword}}{{^hasPassword}}a code we email you{{/hasPassword}}. Within {{window}} of signing in on this page, none is needed.</p>
            {{#mailsCodes}}<form id="send-code" method="post" action="/account/reauthenticate"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">Email me a code</button></form>{{/mailsCodes}}
            <h2>Sign out every other device</h2>
            <form id="sign-out-others" method="post" action="/account/sign-out-others"><input type="hidden" name="csrf" value="{{csrf}}">
            \(proof("others"))
            <button type="submit">Sign out all other devices</button></form>
            <h2>{{#hasPassword}}Change your password{{/hasPassword}}{{^hasPassword}}Set a password{{/hasPassword}}</h2>
            <form id="change-password" method="post" action="/account/password"><input type="hidden" name="csrf" value="{{csrf}}">
            \(proof("password"))
            <label for="new-password">New password</label><input id="new-password" name="password" type="password" autocomplete="new-password" required minlength="8">
            <button type="submit">{{#hasPassword}}Change password{{/hasPassword}}{{^hasPassword}}Set password{{/hasPassword}}</button></form>
            <h2 id="email-heading">Your email address</h2>
            {{#hasPending}}<p id="pending-email">Waiting to confirm <strong>{{pendingEmail}}</strong>: type the codes we emailed.</p>
            <form id="confirm-email" method="post" action="/account/email/confirm"><input type="hidden" name="csrf" value="{{csrf}}">
            <label for="new-email-code">Code sent to {{pendingEmail}}</label><input id="new-email-code" name="new_code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="9">
            {{#hasEmail}}<label for="current-email-code">Code sent to {{currentEmail}}</label><input id="current-email-code" name="current_code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="9">{{/hasEmail}}
            <button type="submit">Confirm the new address</button></form>{{/hasPending}}
            <form id="change-email" method="post" action="/account/email"><input type="hidden" name="csrf" value="{{csrf}}">
            <p class="muted">We email a code to the new address{{#hasEmail}} and one to {{currentEmail}}{{/hasEmail}}; the address changes once {{#hasEmail}}both are{{/hasEmail}}{{^hasEmail}}it is{{/hasEmail}} confirmed.</p>
            \(proof("email"))
            <label for="new-email">New email address</label><input id="new-email" name="email" type="email" autocomplete="email" required>
            <button type="submit">Email me the codes</button></form>
            <h2>Sign out</h2>
            <form id="sign-out" method="post" action="/account/sign-out"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">Sign out of this page</button></form>
            <h2>Delete your account</h2>
            <form id="delete-account" method="post" action="/account/delete"><input type="hidden" name="csrf" value="{{csrf}}">
            <p class="muted">This deletes the account and signs out every device. It cannot be undone.</p>
            \(proof("delete"))
            <label class="check"><input type="checkbox" name="confirm" value="yes" required> I understand: delete my account</label>
            <button type="submit" class="danger">Delete my account</button></form>
            {{> footer}}
            """,
    ]

    /// The proof field a sensitive form asks for: the current password, or
    /// the mailed code for a person without one. Not `required`: a fresh
    /// sign-in on the page is proof enough.
    static func proof(_ form: String) -> String {
        """
        {{#hasPassword}}<label for="\(form)-password">Current password</label><input id="\(form)-password" name="current_password" type="password" autocomplete="current-password">{{/hasPassword}}\
        {{^hasPassword}}<label for="\(form)-code">Code from the email</label><input id="\(form)-code" name="nonce" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="9">{{/hasPassword}}
        """
    }
}
