#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Crypto
import Foundation
import Logging
import SessionCore
import SessionKit

/// A helper process for `ProcessTests`: the tests kill it, or run several at
/// once, to prove what threads inside one process cannot (crash safety of
/// `FileSessionStore`, single-flight refresh across processes).
///
/// - `store-probe write-loop DIR`: continues from the record in `DIR` (it
///   must decode), then saves records n+1, n+2, … forever, alternating two
///   users, printing `committed n` after each save returned.
/// - `store-probe token DIR SERVER_URL [FIRE_AT]`: restores the session in `DIR`,
///   (waits until FIRE_AT, wall-clock seconds since 1970, so probes started one
///   after another ask at once) asks for an access token, prints one JSON line (a
///   fingerprint of the token, never the token; how many refreshes this process
///   made; an error).
/// - `store-probe live DIR SERVER_URL [SABOTAGE]`: an app process that asks
///   for tokens until it is killed (`LiveLoop.swift`).
/// - `store-probe watch DIR SERVER_URL`: restores, then only listens and
///   prints each state its client publishes (`WatchLoop.swift`); `deaf` hides the store's notifier.
@main
struct StoreProbe {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "write-loop" where arguments.count == 2:
            await writeLoop(directory: URL(fileURLWithPath: arguments[1]))
        case "live" where arguments.count == 3 || arguments.count == 4:
            guard let url = URL(string: arguments[2]) else { fail("not a URL: \(arguments[2])") }
            await live(directory: URL(fileURLWithPath: arguments[1]), server: url, sabotage: arguments.dropFirst(3).first)
        case "watch" where arguments.count == 3 || (arguments.count == 4 && arguments[3] == "deaf"):
            guard let url = URL(string: arguments[2]) else { fail("not a URL: \(arguments[2])") }
            await watch(directory: URL(fileURLWithPath: arguments[1]), server: url, deaf: arguments.count == 4)
        case "token" where arguments.count == 3 || arguments.count == 4:
            guard let url = URL(string: arguments[2]) else { fail("not a URL: \(arguments[2])") }
            let fireAt = arguments.dropFirst(3).first.map { text -> Double in
                guard let time = Double(text) else { fail("not a time: \(text)") }
                return time
            }
            await token(directory: URL(fileURLWithPath: arguments[1]), server: url, fireAt: fireAt)
        default:
            fail("usage: store-probe write-loop DIR | store-probe token DIR SERVER_URL [FIRE_AT] | store-probe live DIR SERVER_URL [SABOTAGE] | store-probe watch DIR SERVER_URL [deaf]")
        }
    }

    /// The record number `n` a probe wrote; users alternate between A and B.
    static func record(_ n: Int) -> StoredSession {
        let user = n.isMultiple(of: 2) ? "A" : "B"
        return StoredSession(
            accessToken: "probe-access-\(user)-\(n)", refreshToken: "probe-refresh-\(n)",
            expiresAt: Date(timeIntervalSince1970: 2_000_000_000 + Double(n)), lifetime: 3600,
            user: SessionUser(
                id: "user-\(user)", email: "\(user.lowercased())@example.com",
                createdAt: Date(timeIntervalSince1970: 1_700_000_000), updatedAt: Date(timeIntervalSince1970: 1_700_000_000)))
    }

    static func writeLoop(directory: URL) async {
        let store = FileSessionStore(directory: directory)
        var n = 0
        do {
            if let existing = try await store.load() {
                guard let last = Int(existing.refreshToken.dropFirst("probe-refresh-".count)) else {
                    fail("unexpected record \(existing.refreshToken.prefix(6))")
                }
                n = last
            }
        } catch {
            fail("load failed: \(error)")
        }
        say("ready \(n)")
        while true {
            n += 1
            do {
                try await store.save(record(n))
            } catch {
                fail("save \(n) failed: \(error)")
            }
            say("committed \(n)")
        }
    }

    static func token(directory: URL, server: URL, fireAt: Double?) async {
        var logger = Logger(label: "store-probe")
        logger.logLevel = .warning
        let client = SessionClient(
            configuration: SessionClientConfiguration(
                backend: .goTrue(url: server, apiKey: "anon"), store: FileSessionStore(directory: directory),
                launchValidation: .skip, jitter: .fixed(0), automaticRefresh: false, logger: logger))
        let events = client.events
        let counter = Task {
            var refreshes = 0
            var adopted = 0
            var expired = 0
            for await event in events {
                switch event {
                case .tokenRefreshed: refreshes += 1
                case .adoptedStoredSession: adopted += 1
                case .sessionExpired: expired += 1
                default: break
                }
            }
            return (refreshes, adopted, expired)
        }
        var line: [String: Any] = [:]
        do {
            _ = try await client.restore()
            // Real processes share no test clock: the moment to ask is on the wall clock.
            if let fireAt, fireAt > Date().timeIntervalSince1970 {
                try await Task.sleep(for: .seconds(fireAt - Date().timeIntervalSince1970))
            }
            let token = try await client.accessToken()
            line["fingerprint"] = fingerprint(token)
        } catch {
            line["error"] = "\(error)"
        }
        await client.shutdown()
        let (refreshes, adopted, expired) = await counter.value
        line["refreshes"] = refreshes
        line["adopted"] = adopted
        line["expired"] = expired
        do {
            let data = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
            say(String(decoding: data, as: UTF8.self))
        } catch {
            fail("could not encode the result: \(error)")
        }
    }

    /// The first 12 hex digits of the token's SHA-256: comparable, not usable.
    static func fingerprint(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined().prefix(12).description
    }

    /// One line, written straight to the descriptor: no buffer a SIGKILL could lose.
    static func say(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(2)
    }
}
