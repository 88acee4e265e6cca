/// The second-factor templates of `/account` (docs/MFA.md, "The account
/// page"). The QR code is the server's own SVG, inline (`{{{qr}}}`: markup
/// the encoder drew from the factor's URI, nothing a person typed).
extension WebTemplates {
    static let factorTemplates: [String: String] = [
        "account-factors": """
            <h2 id="factors-heading">Authenticator apps</h2>
            {{^hasFactors}}<p class="muted">Add an authenticator app (a second factor): signing in then asks for its six-digit code after your password, emailed code or provider.</p>{{/hasFactors}}
            <ul id="factors" aria-labelledby="factors-heading">
            {{#factors}}<li data-factor="{{id}}"><strong>{{name}}</strong>: {{#verified}}on since {{added}}{{/verified}}{{^verified}}not verified yet{{/verified}}
            {{^verified}}<form id="verify-{{id}}" method="post" action="/account/factors/{{id}}/verify"><input type="hidden" name="csrf" value="{{csrf}}">
            <label for="verify-code-{{id}}">Code from the app</label><input id="verify-code-{{id}}" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="9" required>
            <button type="submit">Verify</button></form>{{/verified}}
            <form id="rename-{{id}}" method="post" action="/account/factors/{{id}}/rename"><input type="hidden" name="csrf" value="{{csrf}}">
            <label for="name-{{id}}">Name</label><input id="name-{{id}}" name="friendly_name" type="text" maxlength="256" value="{{name}}" required>
            <button type="submit">Rename</button></form>
            <form id="remove-{{id}}" method="post" action="/account/factors/{{id}}/remove"><input type="hidden" name="csrf" value="{{csrf}}">
            <button type="submit" class="danger" aria-label="Remove {{name}}">Remove</button></form></li>
            {{/factors}}</ul>
            <form id="enrol-factor" method="post" action="/account/factors"><input type="hidden" name="csrf" value="{{csrf}}">
            <label for="factor-name">Name of the new app (optional)</label><input id="factor-name" name="friendly_name" type="text" maxlength="256" placeholder="My phone">
            <button type="submit">Add an authenticator app</button></form>
            """,
        "account-factor-enrol": """
            {{> header}}
            {{#qr}}<p>Scan this code with your authenticator app, then type the six-digit code it shows.</p>
            <div id="factor-qr" class="qr" role="img" aria-label="QR code for your authenticator app">{{{qr}}}</div>{{/qr}}
            {{#secret}}<p>Cannot scan it? Type this key into the app: <code id="factor-secret">{{secret}}</code></p>{{/secret}}
            <form id="factor-verify" method="post" action="/account/factors/{{factorID}}/verify"><input type="hidden" name="csrf" value="{{csrf}}">
            <label for="code">Code from the app</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="9" required>
            <button type="submit">Verify and turn on</button></form>
            <p><a href="/account">Back to your account</a>: an app not verified is removed after a day.</p>
            {{> footer}}
            """,
        "account-factor-step": """
            {{> header}}
            <p>Your account has a second factor. Type the six-digit code your authenticator app shows now.</p>
            <form id="factor-step" method="post" action="/account/factor-step"><input type="hidden" name="csrf" value="{{csrf}}">
            {{#choose}}<label for="factor-id">Authenticator app</label><select id="factor-id" name="factor_id">{{#factors}}<option value="{{id}}">{{name}}</option>{{/factors}}</select>{{/choose}}
            {{^choose}}{{#factors}}<input type="hidden" name="factor_id" value="{{id}}">{{/factors}}{{/choose}}
            <label for="code">Code from the app</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="9" required autofocus>
            <button type="submit">Continue</button></form>
            <form id="factor-step-cancel" method="post" action="/account/factor-step/cancel"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">Cancel and sign out</button></form>
            {{> footer}}
            """,
    ]
}
