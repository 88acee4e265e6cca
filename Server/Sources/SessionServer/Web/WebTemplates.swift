import Foundation
import Mustache

/// The pages of `/account` and `/admin`, as Mustache templates compiled into
/// the binary (nothing to install beside it). `{{value}}` is HTML-escaped by
/// Mustache; no page runs inline script (`/account` runs one served file).
enum WebTemplates {
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        let all = templates.merging(accountTemplates, uniquingKeysWith: { first, _ in first })
            .merging(factorTemplates, uniquingKeysWith: { first, _ in first })
            .merging(accountPasskeyTemplates, uniquingKeysWith: { first, _ in first })
        for (name, text) in all {
            do {
                try library.register(text, named: name)
            } catch {
                preconditionFailure("The built-in template \(name) parses: \(error)")
            }
        }
        return library
    }()

    static func render(_ name: String, _ context: [String: Any]) -> String {
        library.render(context, withTemplate: name) ?? ""
    }

    static let templates: [String: String] = [
        "header": """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="same-origin"><title>{{title}}</title>
            <style>
            body { font-family: system-ui, -apple-system, sans-serif; color: #111; background: #fff; margin: 0 auto; max-width: 56rem; padding: 1rem; line-height: 1.5 }
            h1 { font-size: 1.5rem } h2 { font-size: 1.15rem; margin-top: 2rem }
            label { display: block; font-weight: 600; margin-top: .75rem }
            input, select, textarea { font: inherit; padding: .45rem; border: 1px solid #555; border-radius: 4px; width: 100%; max-width: 28rem; box-sizing: border-box }
            input[type=checkbox] { width: auto }
            button { font: inherit; margin-top: .75rem; padding: .45rem .9rem; border: 0; border-radius: 4px; background: #0b57d0; color: #fff; cursor: pointer }
            form:not(.inline) > button { display: block }
            button.danger { background: #b3261e }
            a.button { display: inline-block; margin-top: .5rem; padding: .45rem .9rem; border: 1px solid #0b57d0; border-radius: 4px; color: #0b57d0; text-decoration: none }
            ul.providers { list-style: none; padding: 0; margin: 0 } label.check { font-weight: 400 }
            :focus-visible { outline: 3px solid #f9ab00; outline-offset: 2px }
            table { border-collapse: collapse; width: 100% } th, td { text-align: left; padding: .4rem; border-bottom: 1px solid #ccc; vertical-align: top }
            .alert { padding: .6rem; border-radius: 4px; background: #fce8e6; color: #5c1610 } .note { padding: .6rem; border-radius: 4px; background: #e6f4ea; color: #0d3a1a }
            nav a { margin-right: 1rem } .inline { display: inline } .muted { color: #444 }
            td button { margin-top: 0 }
            @media (min-width: 40rem) { td[data-label], td button { white-space: nowrap } }
            @media (max-width: 40rem) { table, tbody, tr, td, th { display: block } thead { display: none } td { border: 0; padding: .15rem 0 } td[data-label]::before { content: attr(data-label) ": "; font-weight: 600 } tr { border-bottom: 1px solid #ccc; padding: .5rem 0 } }
            </style></head>
            <body>
            {{#nav}}<nav aria-label="Console">{{#links}}<a href="{{href}}">{{label}}</a>{{/links}}</nav>{{/nav}}
            <main>
            <h1>{{title}}</h1>
            {{#error}}<p class="alert" role="alert">{{error}}</p>{{/error}}
            {{#notice}}<p class="note" role="status">{{notice}}</p>{{/notice}}

            """,
        "footer": "</main></body></html>\n",
        "message": """
            {{> header}}
            {{#body}}<p>{{body}}</p>{{/body}}
            {{#link}}<p><a href="{{link}}">{{linkLabel}}</a></p>{{/link}}
            {{> footer}}
            """,
        "admin-sign-in": """
            {{> header}}
            <form id="admin-sign-in" method="post" action="/admin/sign-in">
            <label for="key">Service-role key</label><textarea id="key" name="key" rows="4" autocomplete="off" required></textarea>
            <p class="muted">Print one with <code>auth-server keys service-role</code>. It stays on this page's server-side session, never in the browser.</p>
            <button type="submit">Sign in</button></form>
            {{> footer}}
            """,
        "admin-users": """
            {{> header}}
            <form id="search" method="get" action="/admin"><label for="q">Search by email</label><input id="q" name="q" type="search" value="{{query}}"><button type="submit">Search</button></form>
            <table id="users"><thead><tr><th>Email</th><th>Created</th><th>Last sign-in</th><th>State</th></tr></thead><tbody>
            {{#users}}<tr><td><a href="/admin/users/{{id}}">{{email}}</a></td><td data-label="Created">{{createdAt}}</td><td data-label="Last sign-in">{{lastSignIn}}</td><td data-label="State">{{state}}</td></tr>
            {{/users}}</tbody></table>
            <p class="muted">{{total}} users.</p>
            <form id="sign-out" method="post" action="/admin/sign-out"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">Sign out of the console</button></form>
            {{> footer}}
            """,
        "admin-user": """
            {{> header}}
            <p>Email <strong id="user-email">{{email}}</strong>, created {{createdAt}}, state <strong id="user-state">{{state}}</strong>.</p>
            <h2 id="sessions-heading">Devices and sessions</h2>
            <table id="sessions" aria-labelledby="sessions-heading"><thead><tr><th>Device</th><th>IP</th><th>Signed in</th><th>Last used</th><th>State</th></tr></thead><tbody>
            {{#sessions}}<tr><td>{{device}}</td><td data-label="IP">{{ip}}</td><td data-label="Signed in">{{createdAt}}</td><td data-label="Last used">{{lastUsed}}</td><td data-label="State">{{state}}</td></tr>
            {{/sessions}}</tbody></table>
            <h2>Actions</h2>
            <form id="ban" method="post" action="/admin/users/{{id}}/ban"><input type="hidden" name="csrf" value="{{csrf}}">
            <label for="duration">Ban for</label><select id="duration" name="duration"><option value="1h">1 hour</option><option value="24h" selected>24 hours</option><option value="168h">7 days</option><option value="876000h">Indefinitely</option></select>
            <button type="submit" class="danger">Ban</button></form>
            <form id="unban" method="post" action="/admin/users/{{id}}/unban"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">Lift the ban</button></form>
            <form id="sign-out-everywhere" method="post" action="/admin/users/{{id}}/sign-out"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">Sign out everywhere</button></form>
            <form id="delete-user" method="post" action="/admin/users/{{id}}/delete"><input type="hidden" name="csrf" value="{{csrf}}">
            <label><input type="checkbox" name="confirm" value="yes" required> Delete this account and everything it owns</label><button type="submit" class="danger">Delete</button></form>
            {{> footer}}
            """,
        "admin-audit": """
            {{> header}}
            <table id="audit"><thead><tr><th>When</th><th>Who</th><th>What</th><th>Target</th><th>IP</th></tr></thead><tbody>
            {{#entries}}<tr><td>{{createdAt}}</td><td data-label="Who">{{actor}}</td><td data-label="What">{{action}}</td><td data-label="Target">{{target}}</td><td data-label="IP">{{ip}}</td></tr>
            {{/entries}}</tbody></table>
            {{> footer}}
            """,
        "admin-keys": """
            {{> header}}
            <table id="keys"><thead><tr><th>Key id</th><th>Generation</th><th>State</th><th>Age</th><th></th></tr></thead><tbody>
            {{#keys}}<tr><td><code>{{kid}}</code></td><td data-label="Generation">{{generation}}</td><td data-label="State">{{state}}</td><td data-label="Age">{{age}}</td>
            <td>{{#canRetire}}<form class="inline" method="post" action="/admin/keys/{{kid}}/retire"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="danger" aria-label="Retire key {{kid}}">Retire</button></form>{{/canRetire}}</td></tr>
            {{/keys}}</tbody></table>
            <form id="rotate" method="post" action="/admin/keys/rotate"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">Rotate the signing key</button></form>
            <p class="muted">Rotating keeps the previous key verifying; retire it once the tokens it signed have expired. Retiring the key that signed the service-role key revokes that key: print a new one.</p>
            {{> footer}}
            """,
    ]
}
