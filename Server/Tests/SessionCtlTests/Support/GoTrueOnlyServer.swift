import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stand-in for a hosted Supabase project: GoTrue's `/auth/v1` routes and
/// no `/v1` gateway (unknown paths answer 404 as Supabase's API gateway does).
/// A plain blocking socket on its own thread; it records each request line
/// and whether it carried the `apikey` header.
final class GoTrueOnlyServer: @unchecked Sendable {
    // Unchecked: `requests` is guarded by `lock`; the socket is closed once in `stop()`.
    private let listener: Int32
    private let lock = NSLock()
    private var requests: [(line: String, apiKey: String?)] = []
    private let finished = DispatchSemaphore(value: 0)
    let port: Int

    var url: String { "http://127.0.0.1:\(port)" }

    init() throws {
        #if canImport(Glibc)
        let stream = Int32(SOCK_STREAM.rawValue)
        #else
        let stream = SOCK_STREAM
        #endif
        let listener = socket(AF_INET, stream, 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw HarnessError("the stand-in server could not listen: errno \(errno)")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// The request lines received so far, with the `apikey` each carried.
    var received: [(line: String, apiKey: String?)] { lock.withLock { requests } }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        finished.wait()
    }

    private func serve() {
        defer { finished.signal() }
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }  // closed by `stop()`
            handle(connection)
            close(connection)
        }
    }

    private func handle(_ connection: Int32) {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        // Read the head, then as much body as Content-Length says.
        while true {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return }
            data.append(contentsOf: buffer[0..<count])
            guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { continue }
            let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
            let length = Self.header("content-length", in: head).flatMap { Int($0) } ?? 0
            if data.count - end.upperBound >= length {
                respond(to: head, on: connection)
                return
            }
        }
    }

    private func respond(to head: String, on connection: Int32) {
        let line = String(head.prefix { $0 != "\r" })
        lock.withLock { requests.append((line, Self.header("apikey", in: head))) }
        let path = line.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        let (status, body): (String, String)
        if path.hasPrefix("/auth/v1/token") {
            (status, body) = ("200 OK", Self.session)
        } else if path.hasPrefix("/auth/v1/user") {
            (status, body) = ("200 OK", Self.user)
        } else if path.hasPrefix("/auth/v1/logout") {
            (status, body) = ("204 No Content", "")
        } else {
            (status, body) = ("404 Not Found", #"{"message":"no Route matched with those values"}"#)
        }
        let response =
            "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n\(body)"
        _ = response.utf8CString.withUnsafeBufferPointer { write(connection, $0.baseAddress, $0.count - 1) }
    }

    private static func header(_ name: String, in head: String) -> String? {
        for line in head.split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    static let user = """
        {"id":"4d6f6e61-0000-4000-8000-000000000001","aud":"authenticated","role":"authenticated",\
        "email":"ada@example.com","user_metadata":{},"app_metadata":{"provider":"email"},\
        "created_at":"2026-01-01T00:00:00.000000Z","updated_at":"2026-01-01T00:00:00.000000Z"}
        """

    static var session: String {
        let expiresAt = Int(Date().timeIntervalSince1970) + 3600
        return """
            {"access_token":"opaque-access-token","token_type":"bearer","expires_in":3600,\
            "expires_at":\(expiresAt),"refresh_token":"opaque-refresh-token","user":\(user)}
            """
    }
}
