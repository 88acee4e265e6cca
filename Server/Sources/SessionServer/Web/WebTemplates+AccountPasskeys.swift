/// The passkey parts of `/account` (docs/PASSKEYS.md, "The account page"),
/// included by the sign-in page and the account page. Both start hidden:
/// the served script (`/account/passkeys.js`) shows them once it knows
/// passkeys are on and the browser has WebAuthn.
extension WebTemplates {
    static let accountPasskeyTemplates: [String: String] = [
        "account-passkey-sign-in": """
            <section id="passkey-sign-in" aria-labelledby="passkey-heading" hidden>
            <h2 id="passkey-heading">Sign in with a passkey</h2>
            <div id="passkey-autofill" hidden><label for="passkey-username">Email</label><input id="passkey-username" name="username" type="text" autocomplete="username webauthn"></div>
            <button type="button" id="passkey-sign-in-button">Sign in with a passkey</button>
            <p id="passkey-sign-in-status" role="status"></p>
            </section>
            <script src="/account/passkeys.js" defer></script>
            """,
        "account-passkeys": """
            <section id="passkeys" aria-labelledby="passkeys-heading" data-csrf="{{csrf}}" hidden>
            <h2 id="passkeys-heading">Your passkeys</h2>
            <p class="muted">A passkey signs you in with your device's screen lock: no password, no code. Renaming or removing one asks for one of your passkeys first.</p>
            <table id="passkey-list" aria-labelledby="passkeys-heading"><thead><tr><th>Name</th><th>Added</th><th>Last used</th><th></th></tr></thead><tbody></tbody></table>
            <p id="no-passkeys" class="muted" hidden>No passkeys yet.</p>
            <label for="passkey-name">Name for a new passkey (optional)</label><input id="passkey-name" type="text" maxlength="120" autocomplete="off">
            <button type="button" id="add-passkey">Add a passkey</button>
            <p id="passkeys-status" role="status"></p>
            </section>
            <script src="/account/passkeys.js" defer></script>
            """,
    ]
}
