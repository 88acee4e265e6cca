import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real HTTP server on 127.0.0.1, a Python `http.server` child process, for
/// what only a real URLSession shows (redirect handling). `/redirect?to=URL`
/// answers 308 to `URL`; `/seen` lists every other request it received
/// (method, host, path, `Authorization`, body); anything else answers 200.
///
/// Bounded: the server shuts itself down after `lifetime` seconds even if the
/// test dies, and ``stop()`` ends it at once.
final class LoopbackHTTPServer: @unchecked Sendable {
    struct Seen: Decodable, Sendable {
        var method: String
        var host: String?
        var path: String
        var authorization: String?
        var body: String
    }

    let port: Int
    private let process: Process
    /// Closing it tells the server to stop (it exits when its standard input ends).
    private let input: Pipe

    var base: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// The same server under another origin (another host name).
    var otherOrigin: URL { URL(string: "http://localhost:\(port)")! }

    init(lifetime: Int = 60) throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("loopback-\(UUID().uuidString).py")
        try Data(Self.script.utf8).write(to: script)
        let process = Process()
        // The system's Python when there is one: a version manager's shim is
        // another process in between, slower to start and to stop.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [script.path, String(lifetime)]
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script.path, String(lifetime)]
        }
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        // The first line is the port; reading blocks until the server listens.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        try? FileManager.default.removeItem(at: script)
        guard let text = String(data: line, encoding: .utf8), let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw URLError(.cannotConnectToHost)
        }
        self.port = port
        self.process = process
        self.input = input
    }

    /// Stops the server: its input ends (it shuts down) and it gets SIGTERM.
    ///
    /// Not waited for: inside the test process `Process.isRunning` is updated
    /// late (seconds), and nothing here depends on the exit.
    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
    }

    deinit { stop() }

    /// What the server received so far.
    func seen() async throws -> [Seen] {
        let (data, _) = try await URLSession(configuration: .ephemeral).data(from: base.appendingPathComponent("seen"))
        return try JSONDecoder().decode([Seen].self, from: data)
    }

    func redirect(to target: URL) -> URL {
        URL(string: "\(base.absoluteString)/redirect?to=\(target.absoluteString)")!
    }

    static let script = #"""
        import http.server, json, sys, threading, socketserver
        seen = []
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass
            def reply(self, status, body=b"", headers=()):
                self.send_response(status)
                for name, value in headers: self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def handle_any(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode("utf-8", "replace")
                if self.path == "/seen":
                    return self.reply(200, json.dumps(seen).encode(), [("Content-Type", "application/json")])
                seen.append({"method": self.command, "host": self.headers.get("Host"), "path": self.path,
                             "authorization": self.headers.get("Authorization"), "body": body})
                if self.path.startswith("/redirect?to="):
                    return self.reply(308, b"", [("Location", self.path.split("?to=", 1)[1])])
                self.reply(200, b'{"ok":true}', [("Content-Type", "application/json")])
            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any
        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
        server = Server(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        threading.Timer(float(sys.argv[1]), server.shutdown).start()
        threading.Thread(target=lambda: (sys.stdin.read(), server.shutdown()), daemon=True).start()
        server.serve_forever()
        """#
}
