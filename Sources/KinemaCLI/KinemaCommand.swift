import ArgumentParser
import Foundation
import Kinema

/// The `kinema` command line: closed-form easings, spring conversions and (as they land)
/// simulations, keyframes and sweeps, all as CSV or JSON on stdout.
public struct KinemaCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "kinema",
        abstract: "Physically based motion: springs, gravity and collisions, proven against analytic curves.",
        discussion: """
            Data goes to stdout (or -o FILE, written atomically); diagnostics to stderr. \
            A bad value is one line on stderr naming the flag, the value and the rule, and exit code 1.
            """,
        subcommands: [EasingCommand.self, SpringCommand.self, SimulateCommand.self, KeyframesCommand.self, SweepCommand.self, VerifyCommand.self, WorkPrecisionCommand.self]
    )

    public init() {}

    /// Parses `arguments` (the process's own when nil), runs the command and exits: 0 on success,
    /// 1 with one line on stderr for a rejected value, argument-parser's codes for usage errors.
    public static func main(_ arguments: [String]? = nil) -> Never {
        let status = run(arguments: arguments ?? Array(CommandLine.arguments.dropFirst()))
        Foundation.exit(status)
    }

    /// Parses and runs `arguments`, returning the exit status.
    public static func run(arguments: [String]) -> Int32 {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            return 0
        } catch let error as CLIError {
            reportError(error.description)
            return 1
        } catch let error as KinemaError {
            reportError(error.description)
            return 1
        } catch {
            // Help, version and usage errors: argument-parser prints them and picks the code.
            let message = fullMessage(for: error)
            let code = exitCode(for: error).rawValue
            if !message.isEmpty {
                let stream = code == 0 ? FileHandle.standardOutput : FileHandle.standardError
                stream.write(Data((message + "\n").utf8))
            }
            return code
        }
    }

    static func reportError(_ message: String) {
        FileHandle.standardError.write(Data("kinema: error: \(message)\n".utf8))
    }
}
