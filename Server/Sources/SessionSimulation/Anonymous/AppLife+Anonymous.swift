import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import SessionKitTesting
import SessionServer

/// Anonymous lives (issue 40, item 6; docs/RELIABILITY.md, "Anonymous lives"):
/// the person starts with neither email nor phone, and about half of them add
/// a confirmed email later. Until then a session the client ends is an
/// account nobody can ever sign in to again, so every path that ends a
/// session meets them: the refresh verdicts under the run's faults, an API
/// answering `AUTH_REQUIRED`, once or to the fresh token too (``AuthRequiredGlitch``), a store that refuses a
/// save (``AnonymousPerson``), a backup restored on another device (the
/// device event of row 9, ``DeviceBench/anonymousDeviceRestore()``).
extension AppLife {
    /// Signs the person in anonymously on a clean network (the faults start
    /// afterwards), with the SDK's `signInAnonymously(data:)`.
    func signInAnonymously() async throws {
        network.setFaultRate(0)
        let app = launch()
        self.app = app
        _ = try await app.client.restore()
        let session = try await app.client.signInAnonymously(data: ["life": .number(Double(report.index))])
        guard session.isAnonymous, let id = session.user?.id else {
            throw SimulationError(description: "life \(report.index): the anonymous sign-in gave a session that is not anonymous")
        }
        sessionID = session.sessionID
        userID = id
        report.anonymous = AnonymousLifeReport()
        trace.note("signed in anonymously; \(anonymousPerson?.permanentAt.map { String(format: "made permanent at day %.3f", $0 / 86_400) } ?? "never made permanent")")
        network.setFaultRate(parameters.faultRate)
        await settle()
    }

    /// The anonymous lives' own middleware: the API's `AUTH_REQUIRED`, one per process.
    func anonymousMiddlewares() -> [any TransportMiddleware] {
        guard let anonymousPerson else { return [] }
        return [
            AuthRequiredGlitch(
                person: anonymousPerson, network: network, staleKeys: field.staleKeys, serverClock: world.serverClock, trace: trace)
        ]
    }

    /// Before a use: the person may add a confirmed email, and the store may refuse this use's next save.
    func anonymousEventsBeforeUse() async throws {
        guard let person = anonymousPerson, !ended else { return }
        if person.isAnonymous, let at = person.permanentAt, elapsed >= at { try await makePermanent(person) }
        if person.drawWriteRefusal() { trace.note("the store will refuse the next save") }
    }

    /// The person adds a confirmed email, so a lost session is no longer a
    /// lost account: they can sign back in with a code sent to it.
    ///
    /// Through the admin API (`PUT /admin/users/{id}`, as an app's backend can):
    /// the email change that makes an anonymous user permanent (issue 40,
    /// item 2) is not on main yet. No password: the admin API ends every
    /// session of a user whose password it sets, and becoming permanent must
    /// keep the session (item 7). The session, its family and the app are untouched.
    private func makePermanent(_ person: AnonymousPerson) async throws {
        guard let userID else { return }
        let key = try await world.server.serviceRoleKey(lifetime: 3600)
        var request = URLRequest(url: world.serverURL.appendingPathComponent("auth/v1/admin/users/\(userID)"))
        request.httpMethod = "PUT"
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        request.setValue("anon-key", forHTTPHeaderField: "apikey")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["email": email, "email_confirm": true])
        let (data, response) = try await world.cleanTransport.send(request)
        guard response.statusCode == 200 else {
            throw SimulationError(
                description: "life \(report.index): making the anonymous user permanent answered \(response.statusCode): \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
        person.becamePermanent()
        report.anonymous?.becamePermanent = true
        trace.note("the person added a confirmed email: no longer anonymous")
    }

    /// A genuine end of an account that started anonymously (it has no
    /// password to sign in with elsewhere): the operator signs the user out
    /// everywhere, or deletes it (idle lives end by idleness, as any other).
    func endAnonymousAccount(_ ending: Ending) async throws {
        guard let userID else { return }
        let key = try await world.server.serviceRoleKey(lifetime: 3600)
        let (method, path) = ending == .accountDeleted ? ("DELETE", "auth/v1/admin/users/\(userID)") : ("POST", "auth/v1/admin/users/\(userID)/logout")
        let (data, response) = try await world.serverCall(method, path, nil, bearer: key)
        guard (200..<300).contains(response.statusCode) else {
            throw SimulationError(
                description: "life \(report.index): \(method) /\(path) answered \(response.statusCode): \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
    }

    /// Counts the account lost when the client ended the session (or a
    /// relaunch found the store empty) while the person was still anonymous
    /// and the server still held the user and the family. Called after every
    /// use and at the final relaunch; a life loses its account once.
    func checkAnonymousAccount() async throws {
        guard let person = anonymousPerson, person.isAnonymous, !ended, report.anonymous?.accountsLost == 0 else { return }
        let how: String
        if tally.snapshot.logouts > 0 {
            how = "the client ended the session"
        } else if report.lostSessions > 0 {
            how = "a launch found no session in the store"
        } else {
            return
        }
        guard try await serverStillHoldsTheAccount() else { return }
        report.anonymous?.accountsLost = 1
        report.anonymous?.lostHow = how
        trace.note("the anonymous account is lost: \(how), while the server still holds the user and the family")
    }

    /// Server truth: the user exists and the family was not ended by the server.
    ///
    /// A family revoked by a sign-out (`logout`) still counts as held: in a
    /// life not ended nobody but this client signs out. One revoked for reuse
    /// is the client's doing too, unless the servers run without successor
    /// recovery, where a lost answer may explain it (``RotationAnswers``).
    private func serverStillHoldsTheAccount() async throws -> Bool {
        guard let userID, try await world.server.store.user(id: userID) != nil,
            let sessionID, let record = try await world.server.store.session(id: sessionID)
        else { return false }
        switch record.revokedReason {
        case nil: return world.serverClock.now < record.notAfter
        case "logout"?: return true
        case "reuse"?: return parameters.successorRecovery
        default: return false
        }
    }

    /// An app request's outcome, as the anonymous lives see it: true for a
    /// 401 a lasting glitch explains (the API's own answer, the session kept),
    /// counted apart rather than as a 401 while the session was valid.
    func anonymousRecords(_ outcome: RequestOutcome) -> Bool {
        guard case .unauthorized = outcome, let person = anonymousPerson, person.takeExplained401() else { return false }
        report.anonymous?.lastingAuthRequiredShown += 1
        return true
    }

    /// The final relaunch's check, and the person's counts into the report.
    func finishAnonymousLife() async throws {
        guard let person = anonymousPerson else { return }
        try await checkAnonymousAccount()
        let counts = person.counts
        report.anonymous?.authRequiredAnswers = counts.authRequired
        report.anonymous?.lastingAuthRequiredAnswers = counts.lasting
        report.anonymous?.storeWriteFailures = counts.writeRefusals
    }

    /// The planted defect `anonymousSignedOutOnTransient`: the app signs the
    /// anonymous person out when a request fails transiently, passing the
    /// SDK's guard with the acknowledgement only a "discard this account"
    /// button should give. With `carelessAnonymousSignOut` the app does the
    /// same without the acknowledgement, and the guard must refuse it.
    func signOutAnonymousIfSabotaged() async {
        let planted = parameters.sabotage == .anonymousSignedOutOnTransient
        guard planted || parameters.carelessAnonymousSignOut, anonymousPerson?.isAnonymous == true, !ended, let app,
            app.client.currentState.isSignedIn
        else { return }
        trace.note(planted ? "planted: the app signs the anonymous person out on a transient failure" : "the app calls signOut() on a transient failure")
        do {
            if planted {
                try await app.client.signOut(discardingAnonymousAccount: true)
            } else {
                try await app.client.signOut()
            }
        } catch {
            if error == .anonymousAccountWouldBeLost { report.anonymous?.signOutsRefused += 1 }
            trace.note("the sign-out answered: \(error)")
        }
    }
}
