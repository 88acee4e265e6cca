import Foundation
import Logging
import SessionCore

/// A confirmed email change on GoTrue's wire (docs/ACCOUNTS.md, "A confirmed email change (SDK)"):
/// `PUT /user {email}` (``AccountRequests/updateUser(_:on:)``) mails the codes, `POST /verify`
/// `type: email_change` redeems each, `POST /resend` mails them again.
///
/// The last confirmation answers the same session's successor, with the updated user
/// (`is_anonymous: false` once an anonymous person confirms): established through the
/// engine (``SessionEngine/establishSuccessor(of:answer:what:)``). The first of two
/// answers a message and no session: everything is kept.
struct EmailChangeFlow: Sendable {
    static let route = GoTrueRoute(feature: "Confirming an email change")

    func verify(email: String, code: String, on engine: isolated any SessionEngine) async throws(SessionError) -> EmailChangeVerification {
        let mark = try engine.markSignedIn()
        let body = VerifyRequest(type: "email_change", email: email, token: EmailCodeSignIn.digits(code))
        let request = try Self.route.request(engine.backend, "POST", "auth/v1/verify", json: body)
        let (data, _) = try await engine.authorizedSend(request)
        if let accepted = Accepted.read(data) {
            // GoTrue's secure email change: one address confirmed, the other still to come.
            engine.logger.info("One of two email-change confirmations was accepted; the other is still needed")
            return EmailChangeVerification(session: nil, message: accepted)
        }
        let session = try await engine.establishSuccessor(of: mark, answer: data, what: "email change")
        engine.logger.info("The email change was confirmed; the session continues", metadata: ["user": "\(session.user?.id ?? "-")"])
        return EmailChangeVerification(session: session, message: nil)
    }

    func resend(email: String, type: EmailResendType, on engine: isolated any SessionEngine) async throws(SessionError) {
        struct Body: Encodable {
            var type: String
            var email: String
        }
        let request = try Self.route.request(engine.backend, "POST", "auth/v1/resend", json: Body(type: type.rawValue, email: email))
        _ = try await engine.sendUnauthorized(request, context: .request)
    }

    /// GoTrue's answer to the first of two confirmations: `{"msg": …, "code": "200"}`, no tokens.
    private struct Accepted: Decodable {
        var msg: String?
        var accessToken: String?
        enum CodingKeys: String, CodingKey {
            case msg
            case accessToken = "access_token"
        }

        static func read(_ data: Data) -> String? {
            do {
                let body = try WireCoding.decoder().decode(Self.self, from: data)
                guard body.accessToken == nil, let msg = body.msg, !msg.isEmpty else { return nil }
                return msg
            } catch {
                // Not this shape: it is read as a session next (or refused as undecodable there).
                return nil
            }
        }
    }
}
