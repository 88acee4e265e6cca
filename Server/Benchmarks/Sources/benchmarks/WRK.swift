import Foundation

/// wrk as the items drive it: one thread, 32 connections unless told, pinned to its own CPU when told.
struct WRK: Sendable {
    struct Result: Sendable {
        let rate: Double
        let errors: Int
    }

    let executable: URL
    /// The CPU wrk runs on, when this process could be pinned to another.
    let cpu: String?
    let seconds: Int
    var connections = 32

    func run(_ url: String, extra: [String] = []) async throws -> Result {
        let arguments = ["-t1", "-c\(connections)", "-d\(seconds)s", "--latency"] + extra + [url]
        let (status, text): (Int32, String)
        if let cpu, let taskset = Subprocess.which("taskset") {
            (status, text) = try await Subprocess.output(executable: taskset, arguments: ["-c", cpu, executable.path] + arguments)
        } else {
            (status, text) = try await Subprocess.output(executable: executable, arguments: arguments)
        }
        guard status == 0 else { throw BenchError("wrk failed (\(status)): \(text)") }
        var rate = Double.nan
        var errors = 0
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("Requests/sec:") { rate = Double(trimmed.split(separator: " ").last ?? "") ?? .nan }
            if trimmed.hasPrefix("Non-2xx or 3xx responses:") { errors += Int(trimmed.split(separator: " ").last ?? "") ?? 0 }
            if trimmed.hasPrefix("Socket errors:") {
                errors += trimmed.split(separator: ",").compactMap { Int($0.split(separator: " ").last ?? "") }.reduce(0, +)
            }
        }
        return Result(rate: rate, errors: errors)
    }

    /// Pins every thread of this process to `cpus`; false when taskset is missing or refuses.
    static func pinSelf(cpus: String) async -> Bool {
        guard Machine.cores > 1, let taskset = Subprocess.which("taskset") else { return false }
        let pid = String(ProcessInfo.processInfo.processIdentifier)
        let result = try? await Subprocess.output(executable: taskset, arguments: ["-a", "-p", "-c", cpus, pid])
        return result?.status == 0
    }

    /// Cycles through the tokens in `tokenFile`, one per request.
    ///
    /// The position is saved in `stateFile` when a run ends and read when the
    /// next starts: restarting at the first token every run would meet the
    /// tokens the previous run left in the server's FIFO cache, and hit it.
    static func distinctTokensScript(tokenFile: String, stateFile: String) -> String {
        """
        local tokens = {}
        for line in io.lines("\(tokenFile)") do tokens[#tokens + 1] = line end
        i = 0
        local state = io.open("\(stateFile)", "r")
        if state then i = tonumber(state:read("*l")) or 0; state:close() end
        local threads = {}
        function setup(thread) table.insert(threads, thread) end
        request = function()
          i = i + 1
          if i > #tokens then i = 1 end
          return wrk.format("GET", nil, { ["Authorization"] = "Bearer " .. tokens[i] })
        end
        function done(summary, latency, requests)
          for _, thread in ipairs(threads) do
            local out = io.open("\(stateFile)", "w")
            out:write(tostring(thread:get("i")))
            out:close()
          end
        end
        """
    }
}
