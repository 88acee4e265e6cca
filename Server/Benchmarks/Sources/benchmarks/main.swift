import Foundation

/// `benchmarks [--quick] [--only 1,2,...]`: runs the benchmarks (issues 7 and 16) and prints the table.
/// Worker modes (run by the benchmarks themselves): `storm-worker`, `memory-server`, `memory-client`.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "storm-worker": try await StormWorker.main(Array(arguments.dropFirst()))
    case "memory-server": try await Memory.server(Array(arguments.dropFirst()))
    case "memory-client": try await Memory.client(Array(arguments.dropFirst()))
    case "profile-access-token": try await ClientOverhead.profile(Array(arguments.dropFirst()))
    case "profile-rotation": try await RotationProfile.main(Array(arguments.dropFirst()))
    default: try await Runner.main(arguments)
    }
} catch {
    FileHandle.standardError.write(Data("benchmarks: \(error)\n".utf8))
    exit(1)
}
