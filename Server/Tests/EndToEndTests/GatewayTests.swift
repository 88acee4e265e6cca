import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import SessionKitTesting
import SessionServer
import Testing

/// The gateway (`/v1`) through SessionKit: profile, devices, resources, account.
@Suite(.serialized)
struct GatewayTests {
    @Test func profileUpdateAndDeviceList() async throws {
        try await LiveStack.run { stack in
            let (phone, _) = try stack.makeClient()
            try await stack.signUp(phone, email: "grace@example.com")
            let updated = try await phone.updateProfile(ProfileUpdate(firstName: "Grace", metadata: ["team": "navy"]))
            #expect(updated.userMetadata["first_name"] == "Grace")
            #expect(updated.userMetadata["team"] == "navy")

            let (laptop, _) = try stack.makeClient()
            try await laptop.signIn(email: "grace@example.com", password: "correct-horse-9")
            let devices = try await phone.deviceSessions()
            #expect(devices.count == 2)
            #expect(devices.filter(\.current).count == 1)

            // The phone signs the laptop out; the laptop's next refresh ends its session once.
            let laptopRecorder = EventRecorder(laptop)
            let other = try #require(devices.first { !$0.current })
            try await phone.revokeDeviceSession(id: other.id)
            await #expect(throws: SessionError.sessionExpired) { try await laptop.refresh() }
            #expect(await laptopRecorder.waitUntil { _ in laptopRecorder.expiredCount == 1 })
            #expect(try await phone.deviceSessions().count == 1)
            await phone.shutdown()
            await laptop.shutdown()
        }
    }

    @Test func activitiesBelongToTheirOwner() async throws {
        try await LiveStack.run { stack in
            let (ann, _) = try stack.makeClient()
            let (ben, _) = try stack.makeClient()
            try await stack.signUp(ann, email: "ann@example.com")
            try await stack.signUp(ben, email: "ben@example.com")
            let (created, createdResponse) = try await ann.send(
                stack.request(
                    "POST", "v1/activities",
                    json: #"{"name":"Morning run","distance_m":5000,"started_at":"2026-01-01T07:00:00Z"}"#))
            #expect(createdResponse.statusCode == 201 || createdResponse.statusCode == 200)
            let activity = try WireCoding.decoder().decode(SuccessEnvelope<Activity>.self, from: created).data

            // Another user's row is a 404: the API's own answer, which `send` returns as it came
            // (docs/PROTOCOL.md) and which names its typed error on request.
            let (missing, missingResponse) = try await ben.send(stack.request("GET", "v1/activities/\(activity.id)"))
            #expect(missingResponse.statusCode == 404)
            #expect(SessionError(answer: missing, response: missingResponse) == .notFound)
            let (list, _) = try await ben.send(stack.request("GET", "v1/activities"))
            #expect(try WireCoding.decoder().decode(SuccessEnvelope<[Activity]>.self, from: list).data.isEmpty)
            let (own, _) = try await ann.send(stack.request("GET", "v1/activities/\(activity.id)"))
            #expect(try WireCoding.decoder().decode(SuccessEnvelope<Activity>.self, from: own).data == activity)
            await ann.shutdown()
            await ben.shutdown()
        }
    }

    @Test func globalSignOutEndsEveryDevice() async throws {
        try await LiveStack.run { stack in
            let (first, _) = try stack.makeClient()
            let (second, _) = try stack.makeClient()
            try await stack.signUp(first, email: "multi@example.com")
            try await second.signIn(email: "multi@example.com", password: "correct-horse-9")
            let recorder = EventRecorder(second)
            try await first.signOut(scope: .global)
            #expect(await first.currentSession == nil)

            // The second device's still-unexpired token now gets SESSION_EXPIRED; it ends cleanly.
            await #expect(throws: SessionError.sessionExpired) {
                _ = try await second.send(stack.request("GET", "v1/auth/me"))
            }
            #expect(await recorder.waitUntil { _ in recorder.expiredCount == 1 })
            #expect(await second.currentSession == nil)
            await first.shutdown()
            await second.shutdown()
        }
    }

    @Test func deletedAccountCannotSignInAgain() async throws {
        try await LiveStack.run { stack in
            let (client, _) = try stack.makeClient()
            try await stack.signUp(client, email: "gone@example.com")
            try await client.deleteAccount()
            #expect(await client.currentSession == nil)
            await #expect(throws: SessionError.invalidCredentials) {
                try await client.signIn(email: "gone@example.com", password: "correct-horse-9")
            }
            await client.shutdown()
        }
    }

    @Test func noTokenAppearsInClientLogs() async throws {
        try await LiveStack.run { stack in
            let (client, _) = try stack.makeClient()
            let first = try await stack.signUp(client, email: "logs@example.com")
            await stack.advance(by: 3601)
            let second = try await client.refresh()
            _ = try await client.send(stack.request("GET", "v1/auth/me"))
            try await client.signOut()
            let lines = stack.logs.lines
            #expect(!lines.isEmpty)
            for secret in [first.accessToken, first.refreshToken, second.accessToken, second.refreshToken] {
                #expect(!lines.contains { $0.contains(secret) || $0.contains(String(secret.prefix(12))) })
            }
            // At most 6 characters of a token may be logged: no 7-character
            // prefix of a refresh token or of an access token's signature (a
            // JWT's own first characters are its shared header).
            for token in [first, second] {
                let refreshPrefix = String(token.refreshToken.prefix(7))
                let signaturePrefix = String(token.accessToken.split(separator: ".")[2].prefix(7))
                #expect(!lines.contains { $0.contains(refreshPrefix) || $0.contains(signaturePrefix) })
            }
            await client.shutdown()
        }
    }
}
