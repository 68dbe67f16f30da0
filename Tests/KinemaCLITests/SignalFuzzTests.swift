import Foundation
import Testing

/// Every writer of the CLI signalled at a random moment, from before it opens its files to after
/// it has finished: SIGINT, SIGTERM or SIGHUP, half of the time over files an earlier run left.
/// Each run must end by that signal within 2 s, or have finished with exit 0; what it leaves is
/// the earlier file untouched or the complete output (the bytes of an undisturbed run), never a
/// temporary file. An interrupted sweep may leave FILE.partial, from which `--resume` must write
/// the undisturbed bytes. The case count and time follow FuzzTests' settings (half the cases).
@Suite(.serialized) struct SignalFuzzTests {
    /// A writer: its arguments, where `@NAME` stands for the file NAME in the run's directory,
    /// and whether its output holds timings (work-precision), so that a complete file is told by
    /// its lines, not its bytes.
    struct Writer {
        let arguments: [String]
        var isTimed = false
        var outputs: [String] { arguments.filter { $0.hasPrefix("@") }.map { String($0.dropFirst()) } }
        var isSweep: Bool { arguments.first == "sweep" }

        func arguments(in directory: URL) -> [String] {
            arguments.map { $0.hasPrefix("@") ? directory.appendingPathComponent(String($0.dropFirst())).path : $0 }
        }
    }

    static let writers: [Writer] = [
        Writer(arguments: [
            "simulate", "--drop", "--duration", "20", "--sample-rate", "2000", "-o", "@out.csv", "--events",
            "@events.csv"
        ]),
        Writer(arguments: ["easing", "bounce-out", "--samples", "300000", "-o", "@out.csv"]),
        Writer(arguments: ["spring", "--stiffness", "100", "--damping", "3", "-o", "@out.json"]),
        Writer(arguments: [
            "keyframes", "--spring", "--stiffness", "100", "--damping", "2", "--format", "lottie", "-o", "@out.json"
        ]),
        Writer(arguments: [
            "keyframes", "--scene", Self.example("ball-on-spring-2d.json"), "--duration", "2", "--format", "css", "-o",
            "@out.css"
        ]),
        Writer(arguments: ["sweep", "--spring", "--stiffness", "100:2000:100", "--damping", "1:10:3", "-o", "@out.csv"]
        ),
        Writer(arguments: ["verify", "-o", "@out.txt"]),
        Writer(
            arguments: [
                "work-precision", "--spring", "--stiffness", "1000", "--damping-ratio", "0.1", "--duration", "0.2",
                "-o", "@out.csv"
            ], isTimed: true)
    ]
    static func example(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/\(name)").path
    }
    static let earlier = Data("an earlier run's file\n".utf8)

    /// Runs `arguments` to its end; its wait status.
    static func finish(_ arguments: [String]) throws -> Int32 {
        let pid = try HostileUseTests.spawn(arguments, executable: FuzzTests.executable)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return status
    }

    /// Whether `data` is the output `reference` of an undisturbed run.
    static func isComplete(_ data: Data, _ reference: Data, timed: Bool) -> Bool {
        guard timed else { return data == reference }
        let lines = { (data: Data) in String(decoding: data, as: UTF8.self).split(separator: "\n") }
        return data.last == UInt8(ascii: "\n") && lines(data).count == lines(reference).count
            && lines(data).first == lines(reference).first
    }

    @Test func signalsAtRandomMomentsLeaveNothingBehind() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        // An undisturbed run of each writer: its outputs and how long it took.
        var references: [(outputs: [String: Data], seconds: Double)] = []
        for (index, writer) in Self.writers.enumerated() {
            let directory = root.appendingPathComponent("reference-\(index)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let start = Date()
            let status = try Self.finish(writer.arguments(in: directory))
            #expect(status == 0, "\(writer.arguments): wait status \(status)")
            var outputs: [String: Data] = [:]
            for name in writer.outputs {
                outputs[name] = try Data(contentsOf: directory.appendingPathComponent(name))
            }
            references.append((outputs, Date().timeIntervalSince(start)))
        }

        var rng = FuzzRandom(seed: FuzzTests.seed &+ 3)
        let start = Date()
        var ran = 0, failures: [String] = []
        var outcomes: [String: Int] = [:]
        while ran < max(FuzzTests.cases / 2, 1) && Date().timeIntervalSince(start) < FuzzTests.seconds / 2 {
            defer { ran += 1 }
            let index = Int(rng.next() % UInt64(Self.writers.count))
            let writer = Self.writers[index], reference = references[index]
            let signal = [SIGINT, SIGTERM, SIGHUP][Int(rng.next() % 3)]
            let overEarlier = rng.next() % 2 == 0
            let delay = reference.seconds * 1.3 * Double(rng.next() % 10_000) / 10_000
            let directory = root.appendingPathComponent("case-\(ran)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            if overEarlier {
                for name in writer.outputs { try Self.earlier.write(to: directory.appendingPathComponent(name)) }
            }
            let label =
                "\(Self.commandLine(writer.arguments)) signal \(signal) after \(String(format: "%.3f", delay)) s"
                + (overEarlier ? " over earlier files" : "")

            let pid = try HostileUseTests.spawn(writer.arguments(in: directory), executable: FuzzTests.executable)
            Thread.sleep(forTimeInterval: delay)
            kill(pid, signal)
            var status: Int32 = 0
            let deadline = Date().addingTimeInterval(2)
            while waitpid(pid, &status, WNOHANG) == 0 {
                guard Date() < deadline else {
                    kill(pid, SIGKILL)
                    waitpid(pid, &status, 0)
                    status = -1
                    break
                }
                usleep(2_000)
            }
            let signalled = status & 0x7f == signal, finished = status == 0
            guard signalled || finished else {
                failures.append(
                    "\(label): " + (status == -1 ? "still running 2 s after the signal" : "wait status \(status)"))
                continue
            }

            var names = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
            if writer.isSweep && signalled && names.contains("out.csv.partial") {
                // The sweep's own record of the rows done, for --resume to continue.
                let resumed = try Self.finish(writer.arguments(in: directory) + ["--resume"])
                names = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
                guard resumed == 0 else {
                    failures.append("\(label): --resume ended with wait status \(resumed)")
                    continue
                }
                outcomes["sweep resumed", default: 0] += 1
            }
            var problems: [String] = []
            for name in names.subtracting(writer.outputs).sorted() { problems.append("left '\(name)'") }
            for name in writer.outputs {
                guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path)
                else {
                    if finished { problems.append("finished without '\(name)'") }
                    continue
                }
                let complete = Self.isComplete(data, reference.outputs[name] ?? Data(), timed: writer.isTimed)
                if !complete && !(overEarlier && data == Self.earlier) {
                    problems.append("'\(name)' is neither the earlier file nor complete (\(data.count) bytes)")
                }
                if finished && !complete { problems.append("finished with '\(name)' incomplete") }
            }
            if problems.isEmpty {
                outcomes[finished ? "finished" : "ended by the signal", default: 0] += 1
            } else {
                failures.append("\(label): \(problems.joined(separator: "; "))")
            }
            try? FileManager.default.removeItem(at: directory)
        }
        #expect(
            failures.isEmpty,
            "\(failures.count) of \(ran) signalled runs failed:\n\(failures.prefix(20).joined(separator: "\n"))")
        let summary = outcomes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        print("fuzz: \(ran) signalled writers (seed \(FuzzTests.seed &+ 3)): \(summary); \(failures.count) failures")
    }

    /// A writer's command line as a shell would show it.
    static func commandLine(_ arguments: [String]) -> String { "kinema " + arguments.joined(separator: " ") }
}
