import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// ``PasswordSignIn`` alone: a session establishes, a user alone is "confirmation required".
struct PasswordSignInFlowTests {
    @Test func signUpAnsweredWithAUserAloneNeedsConfirmation() async throws {
        let engine = RecordingEngine([AccountScript.userBody()])
        let result = try await PasswordSignIn().signUp(email: "ada@example.com", password: "correct horse", data: nil, on: engine)
        #expect(result == .confirmationRequired(AccountScript.user))
        #expect(await engine.calls.isEmpty)
    }

    @Test func signUpAnsweredWithASessionSignsIn() async throws {
        let engine = RecordingEngine()
        await engine.transport.enqueue(.session(await AccountScript.session(engine)))
        let result = try await PasswordSignIn().signUp(email: "ada@example.com", password: "correct horse", data: nil, on: engine)
        guard case .signedIn(let session) = result else {
            Issue.record("expected a session, got \(result)")
            return
        }
        #expect(await engine.calls == [.establish(session, keepingUnsaved: false)])
    }

    @Test func signUpAnsweredWithNeitherThrowsTheDecodingError() async {
        let engine = RecordingEngine([.answer(status: 200, body: Data(#"{"unexpected":true}"#.utf8))])
        await #expect(throws: SessionError.decoding) {
            try await PasswordSignIn().signUp(email: "ada@example.com", password: "correct horse", data: nil, on: engine)
        }
        #expect(await engine.calls.isEmpty)
    }

    @Test func signInEstablishesTheSessionInTheServersTime() async throws {
        let engine = RecordingEngine()
        await engine.transport.enqueue(.session(await AccountScript.session(engine)))
        let session = try await PasswordSignIn().signIn(email: "ada@example.com", password: "correct horse", on: engine)
        #expect(session.expiresAt == (await engine.serverNow).addingTimeInterval(3600))
        #expect(await engine.calls == [.establish(session, keepingUnsaved: false)])
    }

    @Test func aRefusedSignInEstablishesNothing() async {
        let engine = RecordingEngine([.goTrueError(status: 400, code: .invalidCredentials)])
        await #expect(throws: SessionError.invalidCredentials) {
            try await PasswordSignIn().signIn(email: "ada@example.com", password: "wrong", on: engine)
        }
        #expect(await engine.calls.isEmpty)
    }
}
