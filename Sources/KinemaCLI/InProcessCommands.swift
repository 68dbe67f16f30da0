import ArgumentParser
import Kinema

/// `kinema keyframes` and `kinema spring` run in process for a front end (kinema-studio): the same
/// parsing, checks and output text as on the command line, and a failure as the one line the
/// command prints after `kinema: error: `.
package enum InProcessCommands {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        /// A malformed command line (the command exits 64) rather than a rejected value (1).
        package let isUsage: Bool
    }

    /// The formats of `kinema keyframes --format`.
    package static let keyframeFormats = KeyframesCommand.Format.allCases.map(\.rawValue)

    /// A `kinema keyframes` bake and the text of each format, from the same bake.
    package struct Keyframes {
        let command: KeyframesCommand
        package let bake: KeyframesBake

        /// The text `kinema keyframes … --format FORMAT` prints.
        package func text(_ format: String) throws(Failure) -> String {
            try InProcessCommands.capture([]) { try command.render(bake, as: try choose(format, "--format")) }
        }
    }

    /// `kinema keyframes ARGUMENTS` (without `--format` or `-o`), baked.
    package static func keyframes(_ arguments: [String]) throws(Failure) -> Keyframes {
        try capture(["keyframes"] + arguments) {
            let command = try KeyframesCommand.parse(arguments)
            return Keyframes(command: command, bake: try command.bake())
        }
    }

    /// What `kinema spring ARGUMENTS --format json` prints: the spring in every dialect.
    package static func springJSON(_ arguments: [String]) throws(Failure) -> String {
        try capture(["spring"] + arguments) { try SpringCommand.parse(arguments + ["--format", "json"]).render() }
    }

    /// `body`'s result, or its error as the command reports it (`KinemaCommand.run(arguments:)`).
    static func capture<T>(_ arguments: [String], _ body: () throws -> T) throws(Failure) -> T {
        do {
            return try RawArguments.$current.withValue(arguments) { try body() }
        } catch let error as CLIError {
            throw Failure(description: KinemaCommand.oneLine(error.description), isUsage: error.isUsage)
        } catch let error as KinemaError {
            throw Failure(description: KinemaCommand.oneLine(error.description), isUsage: false)
        } catch {
            let message = KinemaCommand.fullMessage(for: error)
            let text = message.hasPrefix("Error: ") ? String(message.dropFirst("Error: ".count)) : message
            let line = text.split(separator: "\n").first.map(String.init) ?? "invalid arguments"
            throw Failure(
                description: KinemaCommand.oneLine(line), isUsage: KinemaCommand.exitCode(for: error).rawValue == 64)
        }
    }
}

extension InProcessCommands {
    /// The duration `kinema keyframes ARGUMENTS` bakes when `--duration` is absent: 1 s for an
    /// easing, the settling time of a spring or the rest time of a drop; nil when there is none.
    package static func defaultDuration(_ arguments: [String]) throws(Failure) -> Double? {
        try capture(["keyframes"] + arguments) {
            let command = try KeyframesCommand.parse(arguments)
            if let duration = command.duration { return duration }
            return command.easing != nil ? 1 : try command.sceneOptions.values.makeScene().defaultDuration
        }
    }
}

extension InProcessCommands {
    /// The spring dialects of `--spring`: each name, its parameters (flags without dashes, in
    /// camelCase) and whether `--mass` applies.
    package static var springDialects: [(name: String, parameters: [String], takesMass: Bool)] {
        SpringOptions.dialects.map { dialect in
            let parameters = dialect.flags.sorted().map { flag in
                flag.dropFirst(2).split(separator: "-").enumerated().map { $0 == 0 ? String($1) : $1.capitalized }
                    .joined()
            }
            return (dialect.name, parameters, dialect.takesMass)
        }
    }
}
