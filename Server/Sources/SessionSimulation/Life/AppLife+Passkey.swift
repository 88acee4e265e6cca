import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// Passkey lives (issue 39, item 11; docs/RELIABILITY.md): the person signs
/// in with a passkey instead of a password, and the session then lives the
/// same year of faults, kills and clock jumps as any other. The ceremony runs
/// as the SDK's will (options, a platform authenticator, verify), here with a
/// software authenticator (``SimulatedPasskeyAuthenticator``); its tokens reach the
/// client through the client's import path, as an app's own sign-in would.
extension AppLife {
    /// The passkeys' RP ID and origin on the simulation's server (``ChaosSimulation``).
    static let passkeyRPID = "sim.test"
    static let passkeyOrigin = "https://sim.test"

    /// Drawn from the life's seed apart from its random stream, so turning passkey lives on
    /// leaves every other draw of every life as it was (a seed replays the same life).
    /// A planted passkey defect makes every life a passkey life (it needs them to
    /// show), but for lives with a second factor: those sign in by password and
    /// step up (AppLife+SecondFactor.swift), a passkey being one factor too.
    var signsInWithPasskey: Bool {
        guard !hasSecondFactor else { return false }
        if parameters.sabotage == .passkeyHandOffLosesRefreshToken { return true }
        guard parameters.passkeyShare > 0 else { return false }
        var draw = SplitMix64(seed: report.seed ^ 0x5A55_4B45_5931_3339)
        return draw.chance(parameters.passkeyShare)
    }

    /// The account is made and its passkey added on another device (a clean
    /// network); this device then signs in with the passkey and hands the
    /// session to its client.
    func signInWithPasskey() async throws {
        network.setFaultRate(0)
        let setup = world.otherDevice()
        guard case .signedIn(let setupSession) = try await setup.signUp(email: email, password: password) else {
            throw SimulationError.signUpFailed(email)
        }
        var authenticator = SimulatedPasskeyAuthenticator(seed: report.seed, rpID: Self.passkeyRPID, origin: Self.passkeyOrigin)
        let creation = try await passkeyCall("registration/options", [:], bearer: setupSession.accessToken)
        guard let options = (creation["options"] as? [String: Any])?["publicKey"] as? [String: Any],
            let challenge = options["challenge"] as? String, let challengeID = creation["challenge_id"] as? String,
            let handle = (options["user"] as? [String: Any])?["id"] as? String,
            let userID = Base64URL.decode(handle).map({ String(decoding: $0, as: UTF8.self) })
        else { throw SimulationError(description: "life \(report.index): registration options without GoTrue's shape: \(creation)") }
        _ = try await passkeyCall(
            "registration/verify", ["challenge_id": challengeID, "credential": authenticator.registration(challenge: challenge)],
            bearer: setupSession.accessToken)

        let app = launch()
        self.app = app
        _ = try await app.client.restore()
        let request = try await passkeyCall("authentication/options", [:])
        guard let requestOptions = request["options"] as? [String: Any], let signInChallenge = requestOptions["challenge"] as? String,
            let signInID = request["challenge_id"] as? String
        else { throw SimulationError(description: "life \(report.index): authentication options without GoTrue's shape: \(request)") }
        let tokens = try await passkeyCall(
            "authentication/verify",
            ["challenge_id": signInID, "credential": try authenticator.assertion(challenge: signInChallenge, userHandle: userID)])
        guard let accessToken = tokens["access_token"] as? String, let refreshToken = tokens["refresh_token"] as? String,
            let expiresIn = tokens["expires_in"] as? Int
        else { throw SimulationError(description: "life \(report.index): the passkey sign-in answered no session: \(tokens)") }
        let handedOver = parameters.sabotage == .passkeyHandOffLosesRefreshToken ? "not-the-refresh-token" : refreshToken
        do {
            let session = try await app.client.importSession(
                accessToken: accessToken, refreshToken: handedOver, expiresIn: TimeInterval(expiresIn))
            sessionID = session.sessionID
        } catch {
            trace.note("the passkey session's import failed: \(error)")
            noteLostSession()
        }
        report.passkeySignIns += 1
        network.setFaultRate(parameters.faultRate)
        await settle()
    }

    /// Every access token of a passkey session says so (`amr` method `passkey`,
    /// GoTrue's), however many refreshes later: checked on the token the
    /// client holds at the end of the life.
    func checkPasskeyAMR() {
        guard signsInWithPasskey, !ended, let session = app?.client.currentState.session else { return }
        let methods = Self.amrMethods(session.accessToken)
        if !methods.contains("passkey") {
            report.passkeyAMRMissing += 1
            trace.note("the passkey session's access token carries amr \(methods)")
        }
    }

    static func amrMethods(_ token: String) -> [String] {
        let parts = token.split(separator: ".")
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])),
            let claims = try? JSONSerialization.jsonObject(with: payload) as? [String: Any],
            let amr = claims["amr"] as? [[String: Any]]
        else { return [] }
        return amr.compactMap { $0["method"] as? String }
    }

    /// A passkey call straight to the server (the ceremony's network is not under test).
    private func passkeyCall(_ path: String, _ body: [String: Any], bearer: String? = nil) async throws -> [String: Any] {
        var request = URLRequest(url: world.serverURL.appendingPathComponent("auth/v1/passkeys/" + path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("anon-key", forHTTPHeaderField: "apikey")
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, response) = try await world.cleanTransport.send(request)
        guard response.statusCode == 200, let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw SimulationError(
                description: "life \(report.index): POST /passkeys/\(path) answered \(response.statusCode): \(String(decoding: data, as: UTF8.self))")
        }
        return object
    }
}
