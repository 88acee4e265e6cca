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

/// Issue 29, item 10: the pages' cookies got `Secure` only with an https
/// `--external-url` and had no `__Host-` prefix; the Origin check ignored the
/// scheme; the web sign-in limiter counted IPv6 per address, not per /64.
struct WebPageHardeningTests {
    @Test func aSecureCookieIsAHostCookie() {
        let cookie = WebCookie(name: "sk_account", path: "/account", secure: true)
        let header = cookie.set("token", maxAge: 60)
        #expect(header.hasPrefix("__Host-sk_account=token;"))
        #expect(header.contains("; Path=/;") && header.contains("; Secure") && !header.contains("Domain"))
        #expect(cookie.value(in: [.cookie: "__Host-sk_account=token"]) == "token")
        #expect(cookie.value(in: [.cookie: "sk_account=token"]) == nil)
        // Plain http in development: no prefix (browsers would refuse it), scoped to the pages.
        #expect(WebCookie(name: "sk_account", path: "/account", secure: false).set("t", maxAge: 1).hasPrefix("sk_account=t; Path=/account;"))
    }

    @Test func theCookieIsSecureUnlessTheServerIsPlainlyHTTP() {
        #expect(WebCookie.isSecure(externalURL: URL(string: "https://auth.example.com"), host: "127.0.0.1"))
        #expect(!WebCookie.isSecure(externalURL: URL(string: "http://auth.example.com"), host: "0.0.0.0"))
        // Behind a TLS-ending proxy without --external-url: Secure.
        #expect(WebCookie.isSecure(externalURL: nil, host: "0.0.0.0"))
        #expect(!WebCookie.isSecure(externalURL: nil, host: "127.0.0.1"))
    }

    @Test func theOriginCheckComparesTheScheme() throws {
        let root = URL(string: "https://auth.example.com")
        func request(origin: String) -> Request {
            Request(
                head: HTTPRequest(method: .post, scheme: nil, authority: "auth.example.com", path: "/account/sign-in",
                    headerFields: [.origin: origin]),
                body: .init(buffer: ByteBuffer()))
        }
        #expect(WebForm.isSameOrigin(request(origin: "https://auth.example.com"), externalURL: root))
        #expect(WebForm.isSameOrigin(request(origin: "https://auth.example.com:443"), externalURL: root))
        #expect(!WebForm.isSameOrigin(request(origin: "http://auth.example.com"), externalURL: root))
        #expect(!WebForm.isSameOrigin(request(origin: "https://auth.example.com:8443"), externalURL: root))
        #expect(!WebForm.isSameOrigin(request(origin: "ftp://auth.example.com"), externalURL: nil))
        #expect(WebForm.isSameOrigin(request(origin: "http://auth.example.com"), externalURL: nil))
    }

    /// Addresses of one /64 share the web sign-in budget, as on the API.
    @Test func theWebSignInLimitCountsIPv6PerSlash64() async throws {
        let test = try await TestServer.make(.sqlite) {
            $0.tokenRequestsPerMinutePerIP = 2
            $0.trustedProxies = try! TrustedProxies(parsing: "127.0.0.1,::1")
        }
        try await test.runLive { client in
            var statuses: [HTTPResponse.Status] = []
            for host in 1...3 {
                let headers: HTTPFields = [
                    .contentType: "application/x-www-form-urlencoded",
                    HTTPField.Name("X-Forwarded-For")!: "2001:db8:1:2::\(host)",
                ]
                statuses.append(
                    try await client.executeRequest(
                        uri: "/account/sign-in", method: .post, headers: headers,
                        body: ByteBuffer(string: "email=ada%40example.com&password=wrong-password")
                    ).status)
            }
            #expect(statuses.last == .tooManyRequests, "\(statuses)")
        }
    }
}
