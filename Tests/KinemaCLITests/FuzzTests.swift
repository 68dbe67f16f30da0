import Foundation
import Testing

/// Random command lines and mutated scene files from a fixed seed, run through the real binary:
/// every case must end within 10 s with exit 0, 1 or 64 (never a signal or a trap), and every
/// failure must begin with one `kinema: error:` line (rejected values: that line alone).
///
/// `make test` runs `KINEMA_FUZZ_CASES` (default 120) cases of each kind within
/// `KINEMA_FUZZ_SECONDS` (default 60) on the debug build; `make fuzz` runs thousands on the
/// release build. `KINEMA_FUZZ_SEED` picks
/// another seed. Each failure is reported with its command line, so it can be rerun.
@Suite(.serialized) struct FuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let cases = Int(environment["KINEMA_FUZZ_CASES"] ?? "") ?? 120
    static let seconds = Double(environment["KINEMA_FUZZ_SECONDS"] ?? "") ?? 60
    static let seed = UInt64(environment["KINEMA_FUZZ_SEED"] ?? "") ?? 17
    /// The binary under test: `KINEMA_FUZZ_BINARY` (`make fuzz` sets the release build, the one
    /// users run, where the 10 s limit separates a hang from a long computation), else the
    /// debug build beside the tests.
    static let executable = environment["KINEMA_FUZZ_BINARY"].map { URL(fileURLWithPath: $0) } ?? CLI.executable

    /// Numbers that have broken numeric code before: zeros, denormals, extremes, non-finite, and
    /// text that is not a number at all.
    static let numbers = [
        "0", "-0", "1", "-1", "0.5", "2", "100", "1e15", "-1e15", "4.9e-324", "1e-300", "1e308", "-1e308",
        "1e400", "nan", "inf", "-inf", "1e-12", "0.999999", "60", "abc", "", "1,2", "1:2:0.5", "0x10"
    ]
    static let easings = [
        "linear", "ease-in-out", "cubic-bezier(0,1e308,1,-1e308)", "cubic-bezier(0.5,nan,0.5,1)",
        "circ-in", "back-in-out", "elastic-out", "bounce-out", "lockwood-bounce-out", "damped-cosine(5,30)",
        "damped-cosine(1e200,1)", "damped-cosine(0,0)", "nope", "cubic-bezier(1.5,0,0,1)"
    ]

    struct Case: CustomStringConvertible {
        let arguments: [String]
        var description: String {
            "kinema " + arguments.map { $0.isEmpty || $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
        }
    }

    static func pick<T>(_ options: [T], _ rng: inout FuzzRandom) -> T {
        options[Int(rng.next() % UInt64(options.count))]
    }

    static func randomCommand(_ rng: inout FuzzRandom) -> Case {
        let number = { (rng: inout FuzzRandom) in pick(numbers, &rng) }
        var arguments: [String]
        switch rng.next() % 6 {
        case 0:
            arguments = ["easing", pick(easings, &rng)]
            if rng.next() % 2 == 0 {
                arguments += ["--samples", pick(["0", "2", "11", "-5", "abc", "1e3"], &rng)]
            } else {
                arguments += ["--at", "\(number(&rng)),\(number(&rng))"]
            }
        case 1:
            arguments =
                ["spring"]
                + pick(
                    [
                        ["--stiffness", number(&rng), "--damping", number(&rng)],
                        ["--response", number(&rng), "--damping-ratio", number(&rng)],
                        ["--response", number(&rng), "--bounce", number(&rng)],
                        ["--tension", number(&rng), "--friction", number(&rng)],
                        ["--bounciness", number(&rng), "--speed", number(&rng)],
                        ["--damped-cosine", "\(number(&rng)),\(number(&rng))"]
                    ], &rng)
            if rng.next() % 2 == 0 { arguments += ["--to", number(&rng)] }
            if rng.next() % 3 == 0 { arguments += ["--epsilon", number(&rng)] }
        case 2, 3:
            arguments = [pick(["simulate", "keyframes"], &rng)]
            arguments +=
                rng.next() % 2 == 0
                ? ["--spring", "--stiffness", number(&rng), "--damping-ratio", number(&rng)]
                : ["--drop", "--height", number(&rng), "--restitution", pick(["0", "0.5", "1", "1.5", "nan"], &rng)]
            arguments += ["--duration", pick(["0.5", "1", "4.9e-324", "1e308", "-1", "1e-9"], &rng)]
            if rng.next() % 2 == 0 {
                arguments += [
                    "--integrator",
                    pick(
                        ["rk4", "euler", "verlet", "adams", "dopri5", "dop853", "exact", "gsl-rk8pd", "gsl-msbdf", "x"],
                        &rng)
                ]
            }
            if rng.next() % 3 == 0 { arguments += ["--dt", number(&rng)] }
            if rng.next() % 3 == 0 { arguments += ["--sample-rate", number(&rng)] }
            if arguments[0] == "keyframes" && rng.next() % 3 == 0 {
                arguments += pick(
                    [["--retargetable"], ["--reduced-motion"], ["--retargetable", "--reduced-motion"]], &rng)
                arguments += ["--format", pick(["json", "js", "css", "swift", "lottie"], &rng)]
            }
        case 4:
            arguments = [
                "sweep", "--spring", "--stiffness",
                pick(["100:300:100", "1:1e300:1e-300", "1:2:xabc", "5:1:1", "1,nan", number(&rng)], &rng),
                "--damping-ratio", pick(["0.1,0.5", "0.5", "0:1:0.5", number(&rng)], &rng), "--duration",
                pick(["0.5", "1e308", "0"], &rng)
            ]
        default:
            arguments = [
                "keyframes", "--easing", pick(easings, &rng), "--duration", number(&rng),
                "--strategy", pick(["uniform", "turning-points", "adaptive", "x"], &rng),
                "--tolerance", pick(["1e-3", "0", "1e-12", "nan", "2"], &rng),
                "--format", pick(["json", "css", "lottie", "swift", "swiftui", "x"], &rng)
            ]
            // Values onto a layer's units, rounded or in full.
            if rng.next() % 2 == 0 {
                arguments += [
                    "--value-scale", pick(["300", "percent", "degrees", "-1e300", "1e-300", "5e-324", "0", "x"], &rng)
                ]
            }
            if rng.next() % 3 == 0 { arguments += ["--value-offset", pick(["20", "-1e308", "1e308", "nan"], &rng)] }
            if rng.next() % 3 == 0 { arguments += ["--full-precision"] }
        }
        return Case(arguments: arguments)
    }

    /// A scene file from the examples with keys dropped, values replaced or types changed.
    static func mutatedScene(_ rng: inout FuzzRandom) -> String {
        let base = """
            {"dimensions": D, "bodies": [{"name": N, "mass": M, "position": P, "velocity": V, "radius": R}, \
            {"name": "b", "position": Q}], "springs": [{"anchor": A, "body": 0, "stiffness": K, "damping": C, "restLength": L}], \
            "gravity": G, "drag": F, "planes": [{"name": "floor", "normal": O, "offset": 0, "restitution": E}], \
            "contacts": {"restitution": E2}}
            """
        let values: [(String, [String])] = [
            ("D", ["1", "2", "3", "0", "4", "1.5", "\"1\""]), ("N", ["\"a\"", "\"a,b\"", "\"b\"", "1", "null"]),
            ("M", ["1", "0", "-1", "1e308", "1e-320"]), ("P", ["[1]", "[1, 2]", "[]", "[1e308]", "\"x\""]),
            ("V", ["[0]", "[1, 1]", "[1e308]", "null"]), ("R", ["0", "0.1", "-1", "1e300"]),
            ("Q", ["[3]", "[3, 1]", "[1]"]),
            ("A", ["[0]", "[0, 0]", "[1e308]"]), ("K", ["100", "0", "-5", "1e15", "1e308"]), ("C", ["1", "0", "-1"]),
            ("L", ["0", "1", "-1"]), ("G", ["[-9.81]", "[0, -9.81]", "[1e308]", "[]"]),
            ("F", ["0", "1", "-1", "1e308"]),
            ("O", ["[1]", "[0, 1]", "[0]", "[1e-320]"]), ("E", ["0.5", "1", "0", "2", "-1"]), ("E2", ["0.9", "1", "5"])
        ]
        var text = base
        for (key, options) in values {
            text = text.replacingOccurrences(
                of: key == "E" ? "\"restitution\": E}" : key,
                with: key == "E" ? "\"restitution\": \(pick(options, &rng))}" : pick(options, &rng))
        }
        if rng.next() % 4 == 0, let cut = text.indices.dropFirst(Int(rng.next() % UInt64(text.count))).first {
            text = String(text[..<cut])  // truncated JSON
        }
        return text
    }

    /// Runs `arguments` with a 10 s limit; nil when it had to be killed.
    static func run(_ arguments: [String]) throws -> (status: Int32, signaled: Bool, stdout: String, stderr: String)? {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("kinema-fuzz-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: out.path + ".out", contents: nil)
        FileManager.default.createFile(atPath: out.path + ".err", contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: out.path + ".out");
            try? FileManager.default.removeItem(atPath: out.path + ".err")
        }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out.path + ".out"))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: out.path + ".err"))
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            return nil
        }
        let stdout = (try? String(contentsOfFile: out.path + ".out", encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: out.path + ".err", encoding: .utf8)) ?? ""
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal, stdout, stderr)
    }

    /// The problem with one run, or nil when it behaved.
    static func problem(_ result: (status: Int32, signaled: Bool, stdout: String, stderr: String)?) -> String? {
        guard let result else { return "did not finish within 10 s" }
        if result.signaled { return "killed by signal \(result.status)" }
        if result.stderr.contains("Fatal error") || result.stderr.contains("crashed") {
            return "trapped: \(result.stderr.prefix(200))"
        }
        switch result.status {
        case 0: return nil
        case 1:
            let lines = result.stderr.split(separator: "\n")
            return lines.count == 1 && lines[0].hasPrefix("kinema: error:")
                ? nil : "exit 1 without one error line: \(result.stderr.prefix(300))"
        case 64:
            return result.stderr.hasPrefix("kinema: error:")
                ? nil : "usage error not in kinema's form: \(result.stderr.prefix(200))"
        default: return "exit \(result.status): \(result.stderr.prefix(200))"
        }
    }

    @Test func randomCommandLinesNeverCrashOrHang() throws {
        var rng = FuzzRandom(seed: Self.seed)
        let start = Date()
        var ran = 0, failures: [String] = []
        while ran < Self.cases && Date().timeIntervalSince(start) < Self.seconds {
            let command = Self.randomCommand(&rng)
            if let problem = Self.problem(try Self.run(command.arguments)) { failures.append("\(command): \(problem)") }
            ran += 1
        }
        #expect(
            failures.isEmpty,
            "\(failures.count) of \(ran) command lines failed:\n\(failures.prefix(20).joined(separator: "\n"))")
        print("fuzz: \(ran) command lines (seed \(Self.seed)), \(failures.count) failures")
    }

    @Test func mutatedSceneFilesNeverCrashOrHang() throws {
        var rng = FuzzRandom(seed: Self.seed &+ 1)
        let start = Date()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kinema-fuzz-scenes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var ran = 0, failures: [String] = []
        while ran < Self.cases && Date().timeIntervalSince(start) < Self.seconds {
            let scene = Self.mutatedScene(&rng)
            let file = directory.appendingPathComponent("scene-\(ran).json")
            try scene.write(to: file, atomically: true, encoding: .utf8)
            var command = [
                "simulate", "--scene", file.path, "--duration", Self.pick(["0.5", "2"], &rng),
                "--integrator", Self.pick(["dopri5", "rk4", "dop853", "exact"], &rng)
            ]
            if rng.next() % 3 == 0 {  // the same file baked onto a canvas
                command = [
                    "keyframes", "--scene", file.path, "--duration", Self.pick(["0.5", "1"], &rng),
                    "--canvas", Self.pick(["800x600", "1x1", "0x5", "20000x10", "nanx3", "640", "x"], &rng),
                    "--pixel-tolerance", Self.pick(["0.5", "0", "1e-9", "nan", "1e300"], &rng),
                    "--format", Self.pick(["json", "css", "lottie", "swift", "swiftui"], &rng)
                ]
                if rng.next() % 3 == 0 { command += ["--pixels-per-unit", Self.pick(["100", "0", "1e308"], &rng)] }
                if rng.next() % 4 == 0 { command += ["--origin", Self.pick(["10,20", "1e308,1", "a"], &rng)] }
            }
            if let problem = Self.problem(try Self.run(command)) { failures.append("\(scene)\n  → \(problem)") }
            ran += 1
        }
        #expect(
            failures.isEmpty,
            "\(failures.count) of \(ran) scene files failed:\n\(failures.prefix(10).joined(separator: "\n"))")
        print("fuzz: \(ran) scene files (seed \(Self.seed &+ 1)), \(failures.count) failures")
    }

    /// Valid input of the classes that were once refused or mishandled, which must therefore
    /// succeed, not merely fail cleanly: curves with vertical tangents sampled at their ends,
    /// elastic impacts that land on sample times, and springs in extreme dialect values (from 0
    /// to 1 the motion starts outside the 0.001 band, so a settling duration of 0 is wrong).
    @Test func validInputOfTheHardenedClassesIsAccepted() throws {
        var rng = FuzzRandom(seed: Self.seed &+ 2)
        let start = Date()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kinema-fuzz-valid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func unit(_ rng: inout FuzzRandom) -> Double { Double(rng.next() % 1_000_001) / 1_000_000 }
        var ran = 0, failures: [String] = []
        while ran < Self.cases && Date().timeIntervalSince(start) < Self.seconds {
            var failure: String?
            let command: [String]
            switch rng.next() % 3 {
            case 0:
                let y1 = -2 + 5 * unit(&rng), y2 = -2 + 5 * unit(&rng), x = unit(&rng)
                let name = Self.pick(
                    [
                        "cubic-bezier(0,\(y1),\(x),\(y2))", "cubic-bezier(\(x),\(y1),1,\(y2))",
                        "cubic-bezier(0,\(y1),1,\(y2))", "circ-in", "circ-out", "circ-in-out",
                        "poly-in(\(0.05 + 0.9 * x))", "poly-out(\(0.05 + 0.9 * x))", "poly-in-out(\(0.05 + 0.9 * x))"
                    ], &rng)
                command = ["easing", name, "--at", "0,0.5,1,\(unit(&rng))"]
                if let result = try Self.run(command), result.status == 0 {
                    for line in result.stdout.split(separator: "\n").dropFirst() {
                        let fields = line.split(separator: ",").compactMap { Double($0) }
                        if fields.count != 3 || !fields[1].isFinite || fields[2].isNaN { failure = "row '\(line)'" }
                    }
                } else {
                    failure = Self.problem(try Self.run(command)) ?? "refused"
                }
            case 1:
                // A ball moving at `speed` meets a wall at x = 1 (radius 0.1) on the k-th 60 Hz sample.
                let speed = 0.25 + 4 * unit(&rng), k = 1 + Int(rng.next() % 50),
                    restitution = Self.pick([1, 0.5, 0.9], &rng)
                var position = 0.9 - speed * (Double(k) / 60)
                switch rng.next() % 3 {
                case 0: position = position.nextUp;
                case 1: position = position.nextDown;
                default: break
                }
                let file = directory.appendingPathComponent("wall-\(ran).json"),
                    events = directory.appendingPathComponent("events-\(ran).csv")
                try
                    #"{"dimensions":1,"bodies":[{"name":"a","position":[\#(position)],"velocity":[\#(speed)],"radius":0.1}],"planes":[{"normal":[-1],"offset":-1,"restitution":\#(restitution)}]}"#
                    .write(to: file, atomically: true, encoding: .utf8)
                command = [
                    "simulate", "--scene", file.path, "--duration", "\(Double(k) / 60 + 0.25)", "--events", events.path,
                    "--integrator",
                    Self.pick(["dopri5", "dop853", "exact", "rk4", "verlet", "semi-implicit-euler"], &rng)
                ]
                if let problem = Self.problem(try Self.run(command)) {
                    failure = problem
                } else {
                    let rows = ((try? String(contentsOf: events, encoding: .utf8)) ?? "").split(separator: "\n")
                        .dropFirst()
                    let speeds = rows.map { $0.split(separator: ",").suffix(2).compactMap { Double($0) } }
                    if speeds.count != 1 || abs(speeds[0][0] - speed) > 1e-9 * speed
                        || abs(speeds[0][1] - restitution * speed) > 1e-9 * speed
                    {
                        failure = "events \(Array(rows))"
                    }
                }
            default:
                let extremes = ["1e-300", "1e-150", "1e-12", "0.001", "1", "1000", "1e12", "1e150", "1e300"]
                let dialect = Self.pick(
                    [
                        ["--stiffness", "--damping"], ["--tension", "--friction"], ["--response", "--damping-ratio"],
                        ["--stiffness", "--damping-ratio"], ["--bounciness", "--speed"]
                    ], &rng)
                command = [
                    "spring", dialect[0], Self.pick(extremes, &rng), dialect[1], Self.pick(extremes, &rng), "--format",
                    "json"
                ]
                let result = try Self.run(command)
                if let problem = Self.problem(result) {
                    failure = problem
                } else if let result, result.status == 0 {
                    let json = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                    if let settling = json?["settlingDuration"] as? Double, !(settling > 0) {
                        failure = "settlingDuration \(settling)"
                    }
                }
            }
            if let failure { failures.append("\(Case(arguments: command)): \(failure)") }
            ran += 1
        }
        #expect(
            failures.isEmpty,
            "\(failures.count) of \(ran) valid inputs failed:\n\(failures.prefix(20).joined(separator: "\n"))")
        print("fuzz: \(ran) valid inputs (seed \(Self.seed &+ 2)), \(failures.count) failures")
    }
}

/// xorshift64*: a seeded generator, so every fuzz run with the same seed runs the same cases.
struct FuzzRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed | 1 }
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
