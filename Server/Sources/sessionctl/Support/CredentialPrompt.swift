import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads an email and a password without ever taking the password as a
/// visible argument: `--password-stdin`, then `SESSIONKIT_PASSWORD`, then a
/// prompt without echo on a terminal.
struct CredentialPrompt {
    let options: CredentialOptions
    var environment: [String: String] = ProcessInfo.processInfo.environment

    private var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// - Parameter confirm: ask twice on a terminal (sign-up).
    /// - Throws: ``CLIError`` (exit 2) when something is missing and cannot be asked for.
    func read(confirm: Bool = false) throws(CLIError) -> (email: String, password: String) {
        (try email(), try password(confirm: confirm))
    }

    func email() throws(CLIError) -> String {
        if let email = options.email?.trimmingCharacters(in: .whitespaces), !email.isEmpty { return email }
        // With --password-stdin, standard input carries the password, not the email.
        guard stdinIsTerminal, !options.passwordStdin else {
            throw CLIError.usage("Pass --email ADDRESS (there is no terminal to ask on).")
        }
        FileHandle.standardError.write(Data("Email: ".utf8))
        guard let line = readLine(), !line.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw CLIError.usage("An email is needed to continue.")
        }
        return line.trimmingCharacters(in: .whitespaces)
    }

    func password(confirm: Bool) throws(CLIError) -> String {
        if options.passwordStdin {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw CLIError.usage("--password-stdin: standard input had no password line.")
            }
            return line
        }
        if let password = environment["SESSIONKIT_PASSWORD"], !password.isEmpty { return password }
        guard stdinIsTerminal else {
            throw CLIError.usage("No password: use --password-stdin, set SESSIONKIT_PASSWORD, or run on a terminal.")
        }
        let password = try Self.promptWithoutEcho("Password: ")
        if confirm, try Self.promptWithoutEcho("Password (again): ") != password {
            throw CLIError.usage("The passwords did not match.")
        }
        return password
    }

    /// The code from an email: the next line of standard input with `fromStdin`,
    /// else asked for on the terminal.
    func code(fromStdin: Bool) throws(CLIError) -> String {
        if !fromStdin {
            guard stdinIsTerminal else {
                throw CLIError.usage("No code: pass --stdin and write the code as the first line, or run on a terminal.")
            }
            FileHandle.standardError.write(Data("Code from the email: ".utf8))
        }
        guard let line = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces), !line.isEmpty else {
            throw CLIError.usage("A code is needed to continue.")
        }
        return line
    }

    /// A new password: the next line of standard input with `fromStdin`, else
    /// asked for twice on the terminal without echo.
    func newPassword(fromStdin: Bool) throws(CLIError) -> String {
        if fromStdin {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw CLIError.usage("--stdin: the second line of standard input should be the new password.")
            }
            return line
        }
        guard stdinIsTerminal else { throw CLIError.usage("No new password: pass --stdin, or run on a terminal.") }
        let password = try Self.promptWithoutEcho("New password: ")
        guard try Self.promptWithoutEcho("New password (again): ") == password else {
            throw CLIError.usage("The passwords did not match.")
        }
        return password
    }

    /// Prompts on standard error and reads a line with terminal echo off.
    private static func promptWithoutEcho(_ prompt: String) throws(CLIError) -> String {
        var original = termios()
        let canSilence = tcgetattr(STDIN_FILENO, &original) == 0
        if canSilence {
            EchoRestorer.arm(original)
            var silent = original
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        // Prompt only once echo is off: what is typed after it is never shown.
        FileHandle.standardError.write(Data(prompt.utf8))
        let line = readLine(strippingNewline: true)
        if canSilence {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            EchoRestorer.disarm()
            // The newline the person typed was not echoed.
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line, !line.isEmpty else { throw CLIError.usage("A password is needed to continue.") }
        return line
    }
}

/// Ctrl-C at the password prompt must not leave the terminal without echo.
private enum EchoRestorer {
    // Unsafe by necessity: a C signal handler cannot capture context. Written
    // only before the handler is installed, then read only by the handler.
    nonisolated(unsafe) static var saved = termios()

    static func arm(_ original: termios) {
        saved = original
        signal(SIGINT) { _ in
            // Both calls are async-signal-safe.
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &EchoRestorer.saved)
            _exit(130)
        }
    }

    static func disarm() { signal(SIGINT, SIG_DFL) }
}
