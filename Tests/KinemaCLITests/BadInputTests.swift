import Foundation
import Testing

struct BadInput: CustomTestStringConvertible, Sendable {
    let arguments: [String]
    /// Words the one-line message must contain: the flag or value, and the rule.
    let mentions: [String]
    var testDescription: String { arguments.joined(separator: " ") }

    /// A scene file from the examples.
    static let twoBalls = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/two-balls-1d.json").path

    static let all: [BadInput] = [
        .init(arguments: ["easing", "cubic-bezier(1.2,0,0,1)"], mentions: ["x1", "1.2", "[0, 1]"]),
        .init(arguments: ["easing", "nope"], mentions: ["'nope'", "one of"]),
        .init(arguments: ["easing", "linear", "--samples", "0"], mentions: ["--samples", "0", "≥ 2"]),
        .init(arguments: ["easing", "linear", "--at", "0.5,x"], mentions: ["--at", "x"]),
        .init(arguments: ["easing", "damped-cosine(5)"], mentions: ["damped-cosine", "2 comma-separated"]),
        .init(
            arguments: ["spring", "--mass", "-1", "--stiffness", "1", "--damping", "1"],
            mentions: ["--mass", "-1", "> 0"]),
        .init(
            arguments: ["spring", "--stiffness", "nan", "--damping", "1"], mentions: ["--stiffness", "nan", "finite"]),
        .init(
            arguments: ["spring", "--stiffness", "inf", "--damping", "1"], mentions: ["--stiffness", "inf", "finite"]),
        .init(
            arguments: ["spring", "--stiffness", "100", "--damping", "10", "--tension", "200"],
            mentions: ["mixed", "--tension"]),
        .init(arguments: ["spring", "--response", "0", "--damping-ratio", "1"], mentions: ["--response", "0", "> 0"]),
        .init(arguments: ["spring", "--response", "0.5"], mentions: ["--response", "--damping-ratio"]),
        .init(arguments: ["spring", "--response", "1", "--bounce", "2"], mentions: ["--bounce", "2", "(−1, 1]"]),
        .init(
            arguments: ["spring", "--tension", "100", "--friction", "5", "--mass", "2"],
            mentions: ["--mass", "unit mass"]),
        .init(
            arguments: ["spring", "--origami-tension", "-40", "--origami-friction", "7"],
            mentions: ["--origami-tension", "-40"]),
        .init(arguments: ["spring", "--damped-cosine", "5"], mentions: ["--damped-cosine", "'5'"]),
        // Derived quantities out of range name the dialect given, not flags the user never typed
        // (POP's become Origami's, Motion's a stiffness).
        .init(
            arguments: ["spring", "--bounciness", "1e300", "--speed", "1e300"],
            mentions: ["bounciness/speed (POP)", "out of range"]),
        .init(
            arguments: ["spring", "--motion-bounce", "0", "--motion-visual-duration", "1e-300"],
            mentions: ["Motion visualDuration/bounce", "out of range"]),
        .init(
            arguments: ["spring", "--stiffness", "100", "--damping", "1", "--epsilon", "0"],
            mentions: ["--epsilon", "> 0"]),
        .init(
            arguments: [
                "spring", "--stiffness", "100", "--damping", "1", "--velocity", "1", "--relative-velocity", "1"
            ],
            mentions: ["--velocity", "--relative-velocity"]),
        .init(
            arguments: ["easing", "linear", "-o", "/nonexistent-dir/out.csv"],
            mentions: ["-o", "/nonexistent-dir/out.csv"]),
        .init(
            arguments: [
                "simulate", "--spring", "--stiffness", "100", "--damping-ratio", "0.5", "--integrator", "adams",
                "--order", "13"
            ],
            mentions: ["--order", "13", "from 1 to 12"]),
        .init(
            arguments: [
                "simulate", "--spring", "--stiffness", "100", "--damping-ratio", "0.5", "--integrator", "rk4",
                "--order", "4"
            ],
            mentions: ["--order", "adams", "rk4"]),
        .init(
            arguments: [
                "simulate", "--spring", "--stiffness", "100", "--damping-ratio", "0.5", "--integrator", "adams",
                "--tolerance", "1e-9"
            ],
            mentions: ["--tolerance", "adams"]),
        // Inputs that crashed (a trap and a backtrace) before: now one line each.
        .init(
            arguments: ["spring", "--stiffness", "170", "--damping-ratio", "0", "--to", "4.9e-324"],
            mentions: ["epsilon × travel", "underflows"]),
        .init(
            arguments: ["sweep", "--spring", "--stiffness", "1:1e300:1e-300", "--damping", "1"],
            mentions: ["--stiffness", "1:1e300:1e-300", "at most 10000000"]),
        .init(
            arguments: ["keyframes", "--drop", "--duration", "4.9e-324"],
            mentions: ["--duration", "4.9e-324", "at least 1e-300"]),
        .init(arguments: ["easing", "circ-in", "--at", "1.5"], mentions: ["circ-in", "1.5", "[0, 1]"]),
        .init(
            arguments: ["keyframes", "--easing", "bounce-out", "--value-scale", "0"],
            mentions: ["--value-scale", "'0'", "non-zero"]),
        .init(
            arguments: ["keyframes", "--easing", "bounce-out", "--value-scale", "radians"],
            mentions: ["--value-scale", "'radians'", "percent or degrees"]),
        .init(
            arguments: ["keyframes", "--easing", "bounce-out", "--value-offset", "nan"],
            mentions: ["--value-offset", "nan", "finite"]),
        .init(
            arguments: ["keyframes", "--easing", "bounce-out", "--value-scale", "1e308", "--value-offset", "1e308"],
            mentions: ["values", "finite"]),
        .init(
            arguments: ["keyframes", "--scene", twoBalls, "--canvas", "400x300", "--value-scale", "2"],
            mentions: ["--value-scale", "--canvas", "--pixels-per-unit"]),
        .init(
            arguments: ["keyframes", "--spring", "--response", "0.5", "--retargetable", "--value-offset", "3"],
            mentions: ["--value-offset", "--retargetable"]),
        // A negative number is the flag's value, not a flag: its rule is named, not "Missing value".
        .init(arguments: ["easing", "linear", "--samples", "-3"], mentions: ["--samples", "-3", "≥ 2"]),
        .init(
            arguments: [
                "simulate", "--spring", "--stiffness", "100", "--damping-ratio", "0.5", "--integrator", "adams",
                "--order", "-2"
            ],
            mentions: ["--order", "-2", "from 1 to 12"]),
        .init(
            arguments: ["simulate", "--spring", "--stiffness", "100", "--damping", "1", "--max-steps", "-5"],
            mentions: ["--max-steps", "-5", "> 0"]),
        .init(
            arguments: ["sweep", "--spring", "--stiffness", "100", "--damping", "1", "--threads", "-1"],
            mentions: ["--threads", "-1", "1…1024"]),
        .init(
            arguments: ["sweep", "--scene", twoBalls, "--duration", "1", "--settle-speed", "-1"],
            mentions: ["--settle-speed", "-1", "≥ 0"]),
        .init(
            arguments: [
                "sweep", "--scene", twoBalls, "--duration", "1", "--settle-distance", "-0.5"
            ],
            mentions: ["--settle-distance", "-0.5", "≥ 0"]),
        // The value as typed, not as parsed ('inf').
        .init(
            arguments: ["simulate", "--spring", "--stiffness", "1e400", "--damping", "1"],
            mentions: ["--stiffness", "'1e400'"])
    ]
}

struct BadInputTests {
    @Test(arguments: BadInput.all)
    func isOneLineOnStderrAndExitOne(_ input: BadInput) throws {
        let result = try CLI.run(input.arguments)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(result.stderr)")
        for word in input.mentions { #expect(result.stderr.contains(word), "'\(word)' missing from: \(result.stderr)") }
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Stack"))
    }

    /// A duration of 1e308 s overflowed a sample count inside the baker (a trap); it bakes now.
    @Test func hugeEasingDurationsBake() throws {
        let result = try CLI.run(["keyframes", "--easing", "ease-in-out", "--duration", "1e308"])
        #expect(result.status == 0 && result.stdout.contains("\"duration\": 1e+308"), "\(result.stderr)")
    }

    /// A directory where FILE.partial should go: the system's words, not a Cocoa error domain.
    @Test func sweepOutputOverADirectoryNamesTheReason() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kinema-dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            atPath: directory.path + "/out.csv.partial", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run([
            "sweep", "--spring", "--stiffness", "100:200:50", "--damping", "1", "--duration", "0.5",
            "-o", directory.path + "/out.csv"
        ])
        #expect(
            result.status == 1 && result.stderr.contains("Is a directory")
                && !result.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test func usageErrorsKeepArgumentParsersCode() throws {
        let result = try CLI.run(["spring", "--no-such-flag"])
        #expect(result.status == 64)
    }
}
