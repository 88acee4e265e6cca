import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SessionCore
import SessionKitTesting
import SQLKit
import Testing
@testable import SessionServer

/// Email codes and links (`/otp`, `/verify`): single use, hashed, expiring,
/// limited, and silent about who has an account.
struct EmailCodeTests {
    @Test(arguments: TestDatabase.all)
    func aCodeCreatesTheAccountAndSignsInOnce(database: TestDatabase) async throws {
        try await EmailTestServer.run(database) { test, client, mail in
            let answer = try await client.requestCode("Ada@Example.com")
            #expect(answer.status == .ok)
            #expect(answer.text == "{}")
            let message = try await mail.next()
            #expect(message.to.address == "ada@example.com")
            let code = try #require(message.code)
            #expect(message.subject.contains(code))
            #expect(message.html?.contains(code) == true)
            // The code and the link's token are stored only hashed.
            let rows = try await test.server.store.withTransaction { db in
                try await db.raw("SELECT code_hash, link_hash FROM one_time_tokens").all().map {
                    (try $0.decode(column: "code_hash", as: String.self), try $0.decode(column: "link_hash", as: String.self))
                }
            }
            #expect(rows.count == 1)
            #expect(rows.first?.1 == SHA256Hex.of(try #require(message.linkToken)))
            #expect(rows.first.map { !$0.0.contains(code) && !$0.1.contains(code) } == true)

            let session = try await client.verify(type: "email", email: "ada@example.com", code: code).decode(TokenResponse.self)
            #expect(session.user?.email == "ada@example.com")
            #expect(session.user?.emailConfirmedAt != nil)
            #expect(session.user?.userMetadata["name"] == "Ada")
            #expect(try await client.refresh(session.refreshToken).status == .ok)
            // Used once: the same code again is refused, as GoTrue refuses it.
            let again = try await client.verify(type: "email", email: "ada@example.com", code: code)
            #expect(again.status == .forbidden)
            #expect(again.goTrueErrorCode == "otp_expired")
        }
    }

    @Test func theAnswerDoesNotTellWhoHasAnAccount() async throws {
        try await EmailTestServer.run { _, client, mail in
            _ = try await client.signUp("known@example.com")
            let unknown = try await client.requestCode("nobody@example.com", createUser: false)
            let unknownReset = try await client.requestReset("nobody@example.com")
            let known = try await client.requestCode("known@example.com", createUser: false)
            for response in [unknown, unknownReset, known] {
                #expect(response.status == .ok)
                #expect(response.text == "{}")
            }
            // Only the known address got mail: the first message is its.
            #expect(try await mail.next().to.address == "known@example.com")
        }
    }

    @Test func wrongGuessesUseUpTheCode() async throws {
        try await EmailTestServer.run { _, client, mail in
            _ = try await client.requestCode("ada@example.com")
            let code = try #require(try await mail.next().code)
            let wrong = code == "000000" ? "000001" : "000000"
            for _ in 0..<4 { #expect(try await client.verify(type: "email", email: "ada@example.com", code: wrong).status == .forbidden) }
            // Four wrong guesses leave the code working…
            #expect(try await client.verify(type: "magiclink", email: "ada@example.com", code: code).status == .ok)

            _ = try await client.signUp("bob@example.com")
            _ = try await client.requestCode("bob@example.com")
            let bobs = try #require(try await mail.next().code)
            let bobWrong = bobs == "000000" ? "000001" : "000000"
            for _ in 0..<5 { _ = try await client.verify(type: "email", email: "bob@example.com", code: bobWrong) }
            // …the fifth ends it: even the right code is refused now.
            #expect(try await client.verify(type: "email", email: "bob@example.com", code: bobs).goTrueErrorCode == "otp_expired")
        }
    }

    @Test func aCodeExpiresAndANewOneReplacesTheLast() async throws {
        try await EmailTestServer.run(configure: { $0.emailsPerMinutePerAddress = 5 }) { test, client, mail in
            _ = try await client.requestCode("ada@example.com")
            let first = try #require(try await mail.next().code)
            _ = try await client.requestCode("ada@example.com")
            let second = try #require(try await mail.next().code)
            if first != second {
                #expect(try await client.verify(type: "email", email: "ada@example.com", code: first).status == .forbidden)
            }
            await test.clock.advance(by: 601)
            #expect(try await client.verify(type: "email", email: "ada@example.com", code: second).goTrueErrorCode == "otp_expired")
        }
    }

    @Test func onlyOneEmailAMinutePerAddressWhetherOrNotItHasAnAccount() async throws {
        try await EmailTestServer.run { test, client, mail in
            #expect(try await client.requestCode("ada@example.com").status == .ok)
            _ = try await mail.next()
            for address in ["ada@example.com", "ADA@example.com"] {
                let again = try await client.requestCode(address)
                #expect(again.status == .tooManyRequests)
                #expect(again.goTrueErrorCode == "over_email_send_rate_limit")
                #expect(again.headers[.retryAfter] != nil)
            }
            #expect(try await client.requestCode("nobody@example.com", createUser: false).status == .ok)
            #expect(try await client.requestCode("nobody@example.com", createUser: false).status == .tooManyRequests)
            await test.clock.advance(by: 61)
            #expect(try await client.requestCode("ada@example.com").status == .ok)
        }
    }

    @Test(arguments: TestDatabase.all)
    func theLinkSignsInOnlyWhenItsPageIsSubmitted(database: TestDatabase) async throws {
        try await EmailTestServer.run(database) { _, client, mail in
            let redirect = EmailTestServer.redirect.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            _ = try await client.requestCode("ada@example.com", query: "?redirect_to=\(redirect)")
            let message = try await mail.next()
            let link = try #require(message.link)
            let token = try #require(message.linkToken)
            // A mail scanner's GET: a page with a button, nothing spent.
            let path = link.path + "?" + (link.query ?? "")
            for _ in 0..<2 {
                let page = try await client.send(.get, path)
                #expect(page.status == .ok)
                #expect(page.text.contains(#"<form method="post" action="verify">"#))
                #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            }
            let form = "token=\(token)&type=magiclink&redirect_to=\(redirect)"
            let submitted = try await client.executeRequest(
                uri: "/auth/v1/verify", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: form))
            #expect(submitted.status == .seeOther)
            let location = try #require(submitted.headers[.location])
            #expect(location.hasPrefix(EmailTestServer.redirect + "#access_token="))
            #expect(location.contains("&type=magiclink"))
            // Used: the second submission is sent back with GoTrue's error.
            let replay = try await client.executeRequest(
                uri: "/auth/v1/verify", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: form))
            #expect(replay.headers[.location]?.contains("error_code=otp_expired") == true)
        }
    }

    @Test func theLinksTokenWorksAsTokenHash() async throws {
        try await EmailTestServer.run { _, client, mail in
            _ = try await client.requestCode("ada@example.com")
            let token = try #require(try await mail.next().linkToken)
            // A link without redirect_to: the page asks for the code and spends nothing.
            let page = try await client.send(.get, "/auth/v1/verify?token=\(token)&type=magiclink")
            #expect(page.text.contains("six-digit code"))
            let session = try await client.send(.post, "/auth/v1/verify", json: #"{"type":"magiclink","token_hash":"\#(token)"}"#)
            #expect(try session.decode(TokenResponse.self).user?.email == "ada@example.com")
        }
    }

    @Test func withoutMailTheEndpointsSaySo() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            for response in [try await client.requestCode("ada@example.com"), try await client.requestReset("ada@example.com")] {
                #expect(response.status == .unprocessableContent)
                #expect(response.goTrueErrorCode == "email_provider_disabled")
                #expect(response.text.contains("--smtp-url"))
            }
        }
    }

    static let badRequests: [(String, String, HTTPResponse.Status, String)] = [
        ("/auth/v1/verify", #"{"email":"a@example.com","token":"123456"}"#, .badRequest, "validation_failed"),
        ("/auth/v1/verify", #"{"type":"invite","email":"a@example.com","token":"123456"}"#, .badRequest, "validation_failed"),
        ("/auth/v1/verify", #"{"type":"email"}"#, .badRequest, "validation_failed"),
        ("/auth/v1/verify", #"{"type":"email","email":"a@example.com","token":"12345x"}"#, .forbidden, "otp_expired"),
        ("/auth/v1/verify", #"{"type":"email","email":"a@example.com","token":"１２３４５６"}"#, .forbidden, "otp_expired"),
        ("/auth/v1/verify", #"{"type":"email","token_hash":"\#(String(repeating: "a", count: 5000))"}"#, .forbidden, "otp_expired"),
        ("/auth/v1/verify", #"{"type":"email","email":"not-an-email","token":"123456"}"#, .badRequest, "validation_failed"),
        ("/auth/v1/verify", "[1,2]", .badRequest, "validation_failed"),
        ("/auth/v1/verify", "{nope", .badRequest, "bad_json"),
        ("/auth/v1/otp", #"{"phone":"+15555550100"}"#, .badRequest, "validation_failed"),
        ("/auth/v1/otp", #"{"email":"a@example.com\r\nBcc: x@evil.example"}"#, .badRequest, "validation_failed"),
        ("/auth/v1/otp?redirect_to=https://evil.example", #"{"email":"a@example.com"}"#, .badRequest, "validation_failed"),
        ("/auth/v1/recover", #"{"email":12}"#, .badRequest, "validation_failed"),
    ]

    @Test func badInputGetsATypedAnswer() async throws {
        try await EmailTestServer.run { _, client, _ in
            for (path, body, status, code) in Self.badRequests {
                let response = try await client.send(.post, path, json: body)
                #expect(response.status == status, "\(path) \(body.prefix(60))")
                #expect(response.goTrueErrorCode == code, "\(path) \(body.prefix(60)): \(response.text.prefix(200))")
            }
        }
    }
}
