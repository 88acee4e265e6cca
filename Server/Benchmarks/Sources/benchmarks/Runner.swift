import Foundation

/// Runs the selected items in order and prints every figure with its goal.
enum Runner {
    static func main(_ arguments: [String]) async throws {
        let quick = arguments.contains("--quick")
        var only: Set<String> = ["1", "2", "3", "4", "5", "6", "7", "8", "9"]
        if let index = arguments.firstIndex(of: "--only"), index + 1 < arguments.count {
            only = Set(arguments[index + 1].split(separator: ",").map(String.init))
        }
        let markdownPath = arguments.firstIndex(of: "--markdown").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        // Benchmarks/run starts a server of its own whose fsync can be switched (item 4).
        let environment = ProcessInfo.processInfo.environment
        let postgresURL = environment["SESSIONKIT_BENCH_POSTGRES_URL"] ?? environment["SESSIONKIT_TEST_POSTGRES_URL"]
        let report = Report()
        Console.line("SessionKit benchmarks (\(quick ? "quick" : "full") run, \(Machine.cores) cores)")
        let items: [(String, String, () async throws -> Void)] = [
            ("1", "client overhead", { try await ClientOverhead.run(report: report, quick: quick) }),
            ("2", "refresh storm", {
                try await RefreshStorm.run(report: report, quick: quick)
                try await ProcessStorm.run(report: report, quick: quick)
            }),
            ("3", "server verification", { try await ServerVerification.run(report: report, quick: quick) }),
            ("4", "refresh throughput", { try await RefreshThroughput.run(report: report, quick: quick, postgresURL: postgresURL) }),
            ("5", "sign-in", { try await SignInThroughput.run(report: report, quick: quick) }),
            ("6", "memory", { try await Memory.run(report: report, quick: quick) }),
            ("7", "ES256: ours beside jwt-kit 5", { try await JWTKitComparison.run(report: report, quick: quick) }),
            ("8", "the server as its tables grow", { try await Growth.run(report: report, quick: quick, postgresURL: postgresURL) }),
            ("9", "verifications beside their raw crypto", { try await Verifications.run(report: report, quick: quick) }),
        ]
        var failed = false
        for (number, name, body) in items where only.contains(number) {
            Console.line("\n== \(number). \(name)")
            let seconds: Double
            do {
                seconds = try await Stopwatch.seconds { try await body() }
            } catch {
                failed = true
                await report.add(number, "\(name) failed", "error: \(error)", goal: "runs", met: false)
                continue
            }
            Console.line(String(format: "   (%.1f s)", seconds))
        }
        let table = await report.markdown()
        Console.line("\n" + table)
        let rows = await report.rows
        let missed = rows.filter { $0.met == false }.count
        let met = rows.filter { $0.met == true }.count
        Console.line("\n\(met) goals met, \(missed) missed.")
        if let markdownPath { try table.write(toFile: markdownPath, atomically: true, encoding: .utf8) }
        if failed { exit(2) }
    }
}
