import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import SessionKitFaultProxy
import SessionKitTesting
import SessionServer

/// The steps of a life: launching, using the app, the extension, kills, the
/// genuine end, and the final relaunch that checks what the store still holds.
extension AppLife {
    /// A new process of the app (or extension) on the shared store directory.
    func launch(validation: SessionClientConfiguration.LaunchValidation = .blocking) -> AppProcess {
        launches += 1
        let process = SimulatedProcess(label: "\(validation == .skip ? "extension" : "app") \(launches)")
        trace.note("\(process.label) launched")
        network.launched(process)
        var middlewares: [any TransportMiddleware] = [
            ChaosMiddleware(network: network, process: process, proxy: world.proxy, serverClock: world.serverClock)
        ]
        // Some servers (and proxies that strip it) send no `Date`: the client then cannot learn the clock.
        if network.sendsDate { middlewares.append(ServerDateMiddleware(serverClock: world.serverClock)) }
        middlewares.insert(contentsOf: fieldMiddlewares() + anonymousMiddlewares(), at: 0)
        // Outermost: the app's own API origin becomes the proxy's before anything below sees it.
        var appOrigin = AppAPIOrigin(proxy: world.proxy.url)
        if parameters.appOriginRejection {
            appOrigin.rejection = appOriginRejection
            appOrigin.network = network
            appOrigin.staleKeys = field.staleKeys
            appOrigin.serverClock = world.serverClock
            appOrigin.trace = trace
        }
        middlewares.insert(appOrigin, at: 0)
        let transport = MiddlewareTransport(
            base: DeviceTransport(network: network, faulty: world.transport, clean: world.cleanTransport),
            middlewares: middlewares)
        var refusesWrite: (@Sendable () -> Bool)?
        if let person = anonymousPerson { refusesWrite = { person.takeWriteRefusal() } }
        var configuration = SessionClientConfiguration(
            backend: .goTrue(url: world.proxy.url, apiKey: "anon-key"),
            store: ProcessStore(
                directory: directory, process: process, dropsWrites: parameters.sabotage == .storeDropsWrites,
                network: network, refusesWrite: refusesWrite),
            clock: deviceClock, transport: transport, launchValidation: validation,
            jitter: .seeded(random.next()), automaticRefresh: true, logger: world.logger)
        configuration.authorizedOrigins = [AppAPIOrigin.origin]
        configuration.dpop = dpopConfiguration
        let client = SessionClient(configuration: configuration, sabotage: parameters.sabotage?.clientDefect)
        return AppProcess(client: client, process: process, tally: tally)
    }

    /// Signs the person up on a clean network (the faults start afterwards).
    func signUp() async throws {
        network.setFaultRate(0)
        let app = launch()
        self.app = app
        _ = try await app.client.restore()
        let result = try await app.client.signUp(email: email, password: password)
        guard case .signedIn(let session) = result else { throw SimulationError.signUpFailed(email) }
        sessionID = session.sessionID
        userID = session.user?.id
        if hasSecondFactor { try await enrolSecondFactor(app) }
        network.setFaultRate(parameters.faultRate)
        await settle()
    }

    /// The app comes to the foreground (relaunched if it was killed) and makes requests.
    func use() async throws {
        if app == nil {
            let relaunched = launch()
            app = relaunched
            report.relaunches += 1
            await restore(relaunched)
        } else if let app {
            trace.note("\(app.process.label) resumed")
            await app.client.resume()
        }
        await settle()
        guard let app else { return }

        var companion: AppProcess?
        if hasExtension, !ended, random.chance(parameters.extensionUseChance) {
            let launched = launch(validation: .skip)
            await restore(launched)
            companion = launched
            report.extensionRuns += 1
        }
        let count = 1 + Int(random.next() % 3)
        for step in 0..<count {
            await foreground(random.uniform(2...90))
            if step == 0, let companion {
                // The app and its extension at the same moment, on one store.
                let (appRequest, extensionRequest) = (makeRequest(), makeRequest())
                let (appClient, extensionClient) = (app.client, companion.client)
                async let fromApp = Self.request(appClient, appRequest)
                async let fromExtension = Self.request(extensionClient, extensionRequest)
                let outcomes = await [fromApp, fromExtension]
                for outcome in outcomes { try await record(outcome) }
            } else {
                try await record(await Self.request(app.client, makeRequest()))
            }
        }
        await settle()
        if let companion { await companion.exit() }

        guard !ended else { return }
        // Counted by what happened, not by what was planned: a kill that never
        // fired (no refresh reached the wire, no save began) was a plain kill.
        if random.chance(parameters.midRefreshKillChance) {
            let before = try await activeTokenHash()
            trace.note("\(app.process.label) to be killed during its next refresh")
            app.process.killDuringNextRefresh()
            await Self.forceRefresh(app.client)
            await app.kill()
            self.app = nil
            if !app.process.firedKills.refresh {
                report.backgroundKills += 1
            } else if try await activeTokenHash() != before {
                // The server confirms it rotated: the answer died with the process.
                report.midRefreshKills += 1
            } else {
                report.midRefreshKillsNotCommitted += 1
            }
        } else if random.chance(parameters.midWriteKillChance) {
            trace.note("\(app.process.label) to be killed during its next save")
            app.process.killDuringNextSave()
            await Self.forceRefresh(app.client)
            await app.kill()
            self.app = nil
            if app.process.firedKills.save { report.midWriteKills += 1 } else { report.backgroundKills += 1 }
        }
    }

    /// Restores a launched process; an empty store in a life that is not over is a lost session.
    func restore(_ process: AppProcess) async {
        do {
            let state = try await process.client.restore()
            if case .signedOut = state { noteLostSession() }
        } catch {
            noteLostSession()
        }
    }

    /// Counts a lost session once, unless a logout already explains the empty store.
    func noteLostSession() {
        guard !ended, report.lostSessions == 0, tally.snapshot.logouts == 0 else { return }
        report.lostSessions += 1
    }

    /// How long after a disruption a transient failure may still be its echo:
    /// the SDK's longest backoff (or `Retry-After`), plus a request timeout.
    static let echoOfADisruption = SessionDefaults.backoffCap + 60

    /// Dates the device's latest disruption (a fault, a refusal offline, a
    /// kill's reset) no later than now: called after each step that sends.
    func noteDisruptions() {
        let disruptions = network.disruptions
        guard disruptions != disruptionsSeen else { return }
        disruptionsSeen = disruptions
        lastDisruptionAt = elapsed
    }

    func record(_ outcome: RequestOutcome) async throws {
        trace.note("app request: \(outcome)")
        report.requests += 1
        noteDisruptions()
        if fieldRecords(outcome) || anonymousRecords(outcome) { return }
        switch outcome {
        case .ok: break
        case .notSignedIn:
            // The app believed nobody was signed in while the session lived. A
            // logout or a lost store already counted explains it; anything else is its own defect.
            if !ended, tally.snapshot.logouts == 0, report.lostSessions == 0 { report.notSignedInWhileLive += 1 }
        case .transient(let error):
            report.requestFailuresTransient += 1
            // Explained: the device is offline, or a disruption was recent
            // enough that the SDK may still answer from its backoff. Not "since
            // the last success": an API call that needs no refresh succeeds
            // while the refresh's backoff is still in force, rightly.
            let offline = elapsed < offlineUntil
            let lastDisruption = max(lastDisruptionAt, min(offlineUntil, elapsed))
            let echo = elapsed - lastDisruption <= Self.echoOfADisruption
            if !offline, !echo {
                report.unexplainedTransients += 1
                if report.unexplainedSamples.count < 3 { report.unexplainedSamples.append(String(error.prefix(300))) }
            }
            await signOutAnonymousIfSabotaged()
        case .unauthorized:
            if !ended, try await familyIsValid() { report.unauthorizedWhileValid += 1 }
        }
    }

    func makeRequest() -> URLRequest {
        let path = random.chance(0.5) ? "v1/activities" : "auth/v1/user"
        // Every other request to the API goes to its own origin, beside the
        // client actor (issue 44). A turn, not a draw: a seed's lives stay the same.
        var request = URLRequest(url: world.proxy.url.appendingPathComponent(path))
        if path == "v1/activities" {
            appOriginTurn.toggle()
            if appOriginTurn, usesAppOrigin { request = URLRequest(url: AppAPIOrigin.origin.appendingPathComponent(path)) }
        }
        // Names the request for the stale-JWKS row, which counts its sends per app request.
        requestsMade += 1
        request.setValue(String(requestsMade), forHTTPHeaderField: StaleKeyWindow.requestHeader)
        return request
    }

    static func request(_ client: SessionClient, _ request: URLRequest) async -> RequestOutcome {
        let error: SessionError
        do {
            let (data, response) = try await client.send(request)
            // `send` returns the API's own non-2xx answers: read them as the typed errors they name.
            guard let named = SessionError(answer: data, response: response) else { return .ok }
            error = named
        } catch let thrown {
            error = thrown
        }
        if error == .notSignedIn { return .notSignedIn }
        if error == .sessionExpired { return .unauthorized }
        // The auth server's own 401 (its envelope or GoTrue's code). A code-less
        // 401 is an intermediary's page: by contract the caller's error, never a sign-out.
        let fromServer = error.gatewayCode != nil || error.goTrueErrorCode != nil
        if fromServer, error.status == 401 || error == .authRequired { return .unauthorized }
        return .transient(String(describing: error))
    }

    static func forceRefresh(_ client: SessionClient) async {
        do {
            _ = try await client.refresh()
        } catch {
            // Transient failures are the point here; the process is killed next.
        }
    }

    /// Server truth: the refresh token the family's session holds now.
    func activeTokenHash() async throws -> String? {
        guard let sessionID else { return nil }
        return try await world.server.store.session(id: sessionID)?.activeTokenHash
    }

    /// Server truth: the family exists, is not revoked, and is within its absolute lifetime.
    func familyIsValid() async throws -> Bool {
        guard let sessionID, let record = try await world.server.store.session(id: sessionID) else { return false }
        return !record.isRevoked && world.serverClock.now < record.notAfter
    }

    /// Ends the session for real, the way this life's ending says.
    func endSession() async throws {
        await settle()
        // Before the ending deletes or revokes the family's rows.
        try await traceReuse()
        trace.note("the session ends for real: \(report.ending?.rawValue ?? "none")")
        switch report.ending {
        case .idle?:
            background(random.uniform(31...40) * 86_400)
        case let ending? where anonymousPerson != nil:
            // No password to sign in with elsewhere: what ends an anonymous account comes from the operator.
            try await endAnonymousAccount(ending)
        case .signedOutEverywhere?:
            let other = world.otherDevice()
            _ = try await other.signIn(email: email, password: password)
            try await other.signOut(scope: .global)
            await other.shutdown()
        case .accountDeleted?:
            let other = world.otherDevice()
            _ = try await other.signIn(email: email, password: password)
            try await other.deleteAccount()
            await other.shutdown()
        case nil:
            return
        }
        ended = true
        tally.markEnded()
        offlineUntil = -1
        network.isOffline = false
    }

    /// The app is killed one last time and relaunched on a clean network: a
    /// life that is not over must come back signed in, an ended one must not.
    func finalCheck() async throws {
        trace.note("final relaunch on a clean network")
        network.isOffline = false
        network.setFaultRate(0)
        if let app {
            await app.kill()
            self.app = nil
        }
        let last = launch()
        do {
            let state = try await last.client.restore()
            if ended, state.isSignedIn { report.signedInAfterEnd += 1 }
            if !ended, !state.isSignedIn { noteLostSession() }
        } catch {
            noteLostSession()
        }
        await settle()
        try await checkAssurance(last)
        try await finishAnonymousLife()
        try await finishDPoPLife()
        await last.exit()

        let counts = tally.snapshot
        try await traceReuse()
        switch reuseExplainedByLostAnswer {
        case true?:
            // Without successor recovery, the server itself ends a family whose answer was lost.
            report.lostAnswerLogouts = max(1, counts.logouts)
        case false?: report.reuseDetections += 1
        case nil: break
        }
        report.spuriousLogouts = report.lostAnswerLogouts > 0 ? 0 : counts.logouts
        report.sessionExpiredEvents = counts.expired
        report.refreshes = counts.refreshes
        report.adoptions = counts.adoptions
        report.faults = network.injectedFaults
        report.refreshFaults = network.refreshFaults
        report.killResets = network.killResetsSent
        report.cancelledFaultDraws = network.cancelledFaultDraws
        report.expiredTokensSent = network.expiredTokensSent
        report.transportRequests = network.requestCount
        report.timeoutsWithoutFault = network.timeoutsWithoutFault
        report.simulatedDays = elapsed / 86_400
        fieldFinish()
        if !report.violations.isEmpty { report.trace = trace.text }
    }
}

/// The simulation could not set a life up (not an invariant: a harness failure).
public struct SimulationError: Error, CustomStringConvertible {
    public let description: String

    static func signUpFailed(_ email: String) -> SimulationError {
        SimulationError(description: "Sign-up of \(email) did not sign in; check the server's configuration.")
    }
}
