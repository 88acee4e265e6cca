import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 37, item 12 (an attack): `/account/oauth/callback?error_description=…`
/// showed attacker-chosen text on the trusted page ("Your account is locked:
/// call +1 555 …"). The page shows a fixed sentence for each error code.
struct ProviderErrorPageTests {
    @Test(arguments: ["access_denied", "server_error", "made_up_code"])
    func thePageShowsItsOwnWordsNotTheLinks(code: String) async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let lure = "Your+account+is+locked.+Call+%2B1+555+0100+now"
            let page = try await client.executeRequest(
                uri: "/account/oauth/callback?error=\(code)&error_description=\(lure)", method: .get, headers: [:], body: nil)
            #expect(page.status == .badRequest)
            // The lure's number, not any "555" (the page's own CSS has the colour #555).
            #expect(!page.text.contains("555 0100"))
            #expect(!page.text.contains("locked"))
            #expect(page.text.contains(ProviderErrorMessage.message(forCode: code)))
        }
    }
}
