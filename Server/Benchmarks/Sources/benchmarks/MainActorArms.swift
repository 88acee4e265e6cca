import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionKit

/// Item 1's arms that call from the main actor, where apps call from (a
/// SwiftUI `.task`, a button's action, a view model). On Linux the main actor
/// is the main dispatch queue, drained here because `main.swift` is top-level
/// async code (the runtime calls `dispatchMain()` under it, and from then
/// on a worker thread drains the main queue: `Thread.isMainThread` is false
/// there). Every arm checks that it really runs on the main queue, so a
/// figure cannot silently be measured anywhere else.
///
/// Each arm times itself inside the main actor: a timer around a call to a
/// `@MainActor` function from elsewhere would also time the hop onto the
/// main actor and back, which the app (already there) never pays.
@MainActor
enum MainActorArms {
    nonisolated static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static func requireMainQueue() throws {
        guard DispatchQueue.getSpecific(key: mainQueueKey) == true else {
            throw BenchError("a main-actor arm ran off the main dispatch queue")
        }
    }

    /// Seconds per `accessToken()` call, `calls` calls in a row on the main actor.
    static func accessToken(_ client: SessionClient, calls: Int) async throws -> Double {
        try requireMainQueue()
        let start = ContinuousClock.now
        for _ in 0..<calls { _ = try await client.accessToken() }
        let seconds = (ContinuousClock.now - start).seconds
        try requireMainQueue()
        return seconds / Double(calls)
    }

    /// The same calls, each behind a `@concurrent` function: the hop off the
    /// main actor and back that every call paid while `accessToken()` was a
    /// plain `nonisolated async` function, and that any such call still pays.
    static func accessTokenThroughHop(_ client: SessionClient, calls: Int) async throws -> Double {
        try requireMainQueue()
        let start = ContinuousClock.now
        for _ in 0..<calls { _ = try await hop(client) }
        let seconds = (ContinuousClock.now - start).seconds
        try requireMainQueue()
        return seconds / Double(calls)
    }

    @concurrent nonisolated static func hop(_ client: SessionClient) async throws -> String {
        try await client.accessToken()
    }

    /// One `client.send`, timed on the main actor.
    static func send(_ client: SessionClient, _ request: URLRequest) async throws -> Double {
        try requireMainQueue()
        let start = ContinuousClock.now
        let (_, response) = try await client.send(request)
        let seconds = (ContinuousClock.now - start).seconds
        guard response.statusCode == 200 else { throw BenchError("send answered \(response.statusCode)") }
        try requireMainQueue()
        return seconds
    }

    /// The same request with its header set by hand, sent through the same transport, timed on the main actor.
    static func sendByHand(_ transport: any HTTPTransport, _ request: URLRequest) async throws -> Double {
        try requireMainQueue()
        let start = ContinuousClock.now
        let (_, response) = try await transport.send(request)
        let seconds = (ContinuousClock.now - start).seconds
        guard response.statusCode == 200 else { throw BenchError("request answered \(response.statusCode)") }
        try requireMainQueue()
        return seconds
    }
}
