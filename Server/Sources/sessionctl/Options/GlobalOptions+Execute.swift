import ArgumentParser
import Foundation
import SessionKit

extension GlobalOptions {
    /// Runs a command: resolves the context, prints any failure as a message a
    /// person can act on (never a stack trace), and exits with its code.
    func execute(_ body: (CLIContext) async throws -> Void) async throws {
        let output = Output(json: json)
        do {
            try await body(try CLIContext(options: self))
        } catch let error as CLIError {
            output.fail(error)
            throw ExitCode(error.exitCode)
        } catch let error as SessionError {
            let mapped = CLIError(error, signedIn: true)
            output.fail(mapped)
            throw ExitCode(mapped.exitCode)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            let failure = CLIError.failed("Unexpected failure: \(error.localizedDescription)")
            output.fail(failure)
            throw ExitCode(failure.exitCode)
        }
    }
}
