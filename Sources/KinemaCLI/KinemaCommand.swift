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
        version: KinemaCommand.version,
        subcommands: [
            EasingCommand.self, SpringCommand.self, SimulateCommand.self, KeyframesCommand.self, SweepCommand.self,
            VerifyCommand.self, WorkPrecisionCommand.self
        ]
    )

    /// `kinema --version`.
    public static let version = "kinema 2.0.0"

    public init() {}

    /// Parses `arguments` (the process's own when nil), runs the command and exits: 0 on success,
    /// 1 with one line on stderr for a rejected value, argument-parser's codes for usage errors.
    public static func main(_ arguments: [String]? = nil) -> Never {
        // A reader that goes away (`kinema … | head`) becomes EPIPE, answered by a quiet exit,
        // instead of a signal in the middle of a write.
        signal(SIGPIPE, SIG_IGN)
        let status = run(arguments: arguments ?? Array(CommandLine.arguments.dropFirst()))
        Foundation.exit(status)
    }

    /// Parses and runs `arguments`, returning the exit status (the policy is `CLIError`'s).
    public static func run(arguments: [String]) -> Int32 {
        RawArguments.$current.withValue(arguments) {
            do {
                var command = try parseAsRoot(arguments)
                try command.run()
                return 0
            } catch is StandardStreams.BrokenPipe {
                return StandardStreams.brokenPipeStatus
            } catch let error as CLIError {
                reportError(oneLine(error.description))
                return error.exitCode
            } catch let error as KinemaError {
                reportError(oneLine(error.description))
                return 1
            } catch let error as SimulationError {
                reportError(oneLine(CLIError(error).description))
                return 1
            } catch {
                let code = exitCode(for: error).rawValue
                guard code == 0 || code == 64 else {
                    // Not argument-parser's: a simulation, GSL or file-system failure, one line.
                    reportError(oneLine("\(error)"))
                    return 1
                }
                // Help and version (0) in full on stdout; usage errors (64) on stderr, in the
                // same "kinema: error:" form as every other error, with argument-parser's hints.
                let message = fullMessage(for: error)
                if code == 0 {
                    if !message.isEmpty { try? StandardStreams.writeOut(message + "\n") }
                } else {
                    let text = message.hasPrefix("Error: ") ? String(message.dropFirst("Error: ".count)) : message
                    reportError(text)
                }
                return code
            }
        }
    }

    /// `message` on one line: line breaks and other control characters (a body name or a scene
    /// key can hold them) escaped as Swift writes them, `\n`, `\t`, `\u{7}`.
    static func oneLine(_ message: String) -> String {
        KeyframeExport.swiftEscaped(message, quoted: false)
    }

    /// A count for a message: whole below 10¹⁵, else in exponent form (`Int` overflows near 9.2e18:
    /// a spring of stiffness 1e38 swings 2.2e19 times, and writing that count stopped the studio).
    public static func count(_ value: Double) -> String {
        value < 1e15 ? "\(Int(value.rounded(.down)))" : String(format: "%.3g", value)
    }

    static func reportError(_ message: String) {
        StandardStreams.writeError("kinema: error: \(message)\n")
    }
}
