import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SQLKit
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 29, item 11: the email link's confirmation form accepted a
/// cross-site POST, so any site could sign its visitor into the site
/// owner's account (login CSRF) with a link mailed to the owner.
struct LoginCSRFTests {
    static func submit(
        _ client: any TestClientProtocol, token: String, extra: HTTPFields
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        headers.append(contentsOf: extra)
        let redirect = EmailTestServer.redirect.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return try await client.executeRequest(
            uri: "/auth/v1/verify", method: .post, headers: headers,
            body: ByteBuffer(string: "token=\(token)&type=magiclink&redirect_to=\(redirect)"))
    }

    @Test func aFormPostedByAnotherSiteIsRefusedAndSpendsNothing() async throws {
        try await EmailTestServer.run { _, client, mail in
            // The attacker asks for a link to their own address and posts its token from their page.
            _ = try await client.requestCode("attacker@example.com")
            let token = try #require(try await mail.next().linkToken)
            let attempts: [HTTPFields] = [
                [.origin: "https://evil.example"],
                [.origin: "null"],
                [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"],
            ]
            for headers in attempts {
                let refused = try await Self.submit(client, token: token, extra: headers)
                #expect(refused.status == .forbidden, "\(headers)")
                #expect(refused.headers[.location] == nil, "\(headers)")
                #expect(!refused.text.contains("access_token"))
            }
            // The server's own page (its Origin, same-origin fetch) still works, and the link was not spent.
            let page = try await client.send(.get, "/auth/v1/verify?token=\(token)&type=magiclink&redirect_to=x")
            #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin")
            let own = try await Self.submit(
                client, token: token, extra: [HTTPField.Name("Sec-Fetch-Site")!: "same-origin"])
            #expect(own.status == .seeOther)
            #expect(own.headers[.location]?.contains("access_token=") == true)
        }
    }
}
