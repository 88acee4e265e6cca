import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Receives the one browser redirect that ends an OAuth sign-in, on
/// `http://127.0.0.1:PORT/callback` (RFC 8252 §7.3: loopback redirects for
/// native apps). Only loopback is bound, so nothing off the machine can reach it.
struct LoopbackRedirectListener: Sendable {
    /// The port the listener is bound to (the one chosen by the system when 0 was asked).
    let port: Int
    private let descriptor: Int32

    /// The redirect URL to register with the sign-in.
    var redirectURL: URL { URL(string: "http://127.0.0.1:\(port)/callback")! }

    /// Binds and listens on 127.0.0.1:`port` (0 lets the system choose).
    ///
    /// - Throws: ``CLIError`` when the port cannot be bound.
    init(port: Int) throws(CLIError) {
        guard (0...65_535).contains(port) else { throw CLIError.usage("--redirect-port must be 0 to 65535.") }
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw CLIError.failed("Could not open a socket for the browser's redirect.") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            _ = Self.closeDescriptor(fd)
            throw CLIError.usage("Port \(port) on 127.0.0.1 is in use; pick another with --redirect-port.")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            _ = Self.closeDescriptor(fd)
            throw CLIError.failed("Could not read the redirect listener's port.")
        }
        self.descriptor = fd
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Stops listening.
    func close() {
        _ = Self.closeDescriptor(descriptor)
    }

    private static func closeDescriptor(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(fd)
        #else
        Darwin.close(fd)
        #endif
    }

    /// Waits for `GET /callback…`, tells the browser to go back to the
    /// terminal, and returns the full callback URL. Other requests (a
    /// favicon, say) get a 404 and the wait goes on.
    ///
    /// - Throws: ``CLIError`` when nothing arrives within `timeout` seconds.
    func waitForCallback(timeout: TimeInterval) async throws(CLIError) -> URL {
        let result: Result<URL, CLIError> = await withCheckedContinuation { continuation in
            // accept(2) blocks: it runs on its own thread, never on the cooperative pool.
            let thread = Thread { continuation.resume(returning: acceptCallback(timeout: timeout)) }
            thread.start()
        }
        return try result.get()
    }

    private func acceptCallback(timeout: TimeInterval) -> Result<URL, CLIError> {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(timeout, 0) * 1e9)
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else {
                return .failure(
                    CLIError(
                        exitCode: 1, code: "OAUTH_TIMEOUT",
                        message: "No answer from the browser within \(Int(timeout)) s — run `sessionctl login --provider …` again."))
            }
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, Int32(min((deadline - now) / 1_000_000, 1_000)))
            guard ready > 0 else { continue }
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { continue }
            defer { _ = Self.closeDescriptor(connection) }
            guard let target = Self.readRequestTarget(connection) else { continue }
            if target.hasPrefix("/callback"), let url = URL(string: "http://127.0.0.1:\(port)\(target)") {
                Self.respond(
                    connection, status: "200 OK",
                    body: "SessionKit received the sign-in. You can close this tab and return to the terminal.")
                return .success(url)
            }
            Self.respond(connection, status: "404 Not Found", body: "Not found.")
        }
    }

    /// Reads the request line's target (`/callback?code=…`), at most 16 KiB of head.
    private static func readRequestTarget(_ connection: Int32) -> String? {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 16 * 1024 {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            head.append(contentsOf: buffer[0..<count])
            if head.contains(0x0A) { break }
        }
        let text = String(decoding: head, as: UTF8.self)
        guard let line = text.split(separator: "\r\n", maxSplits: 1).first ?? text.split(separator: "\n").first else {
            return nil
        }
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[0] == "GET", parts[1].hasPrefix("/") else { return nil }
        return String(parts[1])
    }

    private static func respond(_ connection: Int32, status: String, body: String) {
        let response =
            "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n\(body)"
        let bytes = Array(response.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            sent += count
        }
    }
}
