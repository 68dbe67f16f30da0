import Foundation
import Kinema
import Testing

/// Reproducers from the hardening review, each through the real binary: legitimate input that was
/// refused, and refusals or crashes whose message did not say what was wrong.
struct HardeningTests {
    /// Every named easing, every parameterised family at a few parameter sets, and cubic-beziers
    /// whose end tangent is vertical (x1 = 0 or x2 = 1).
    static let curves: [String] =
        Easing.fixedNames
        + [
            "back-in(1.70158)", "back-out(3)", "back-in-out(2.5949095)", "elastic-in(1,0.3)", "elastic-out(2,0.5)",
            "elastic-in-out(1,0.45)", "poly-in(0.5)", "poly-out(0.3)", "poly-in-out(0.25)", "poly-in(3)",
            "damped-cosine(5,30)", "cubic-bezier(0,1,1,0)", "cubic-bezier(0,0,1,1)", "cubic-bezier(0,-0.5,0.5,1)",
            "cubic-bezier(0.5,0,1,1.5)", "cubic-bezier(0,2,1,-1)", "cubic-bezier(0,0.5,1,0.5)"
        ]

    @Test(arguments: curves)
    func curvesAreSampledOnTheDefaultGridAndAtTheEnds(_ name: String) throws {
        for arguments in [["easing", name], ["easing", name, "--at", "0,0.5,1"]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 0, "kinema \(arguments.joined(separator: " ")): \(result.stderr)")
            for line in result.stdout.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: ",").map { Double($0) }
                #expect(
                    fields.count == 3 && fields[1]?.isFinite == true && fields[2].map { !$0.isNaN } == true,
                    "\(name): '\(line)'")
            }
        }
    }

    @Test func aVerticalTangentIsPrintedAsInfinity() throws {
        #expect(try CLI.csv(["easing", "circ-in", "--at", "1"]).rows[0] == [1, 1, .infinity])
        #expect(try CLI.csv(["easing", "circ-out", "--at", "0"]).rows[0] == [0, 0, .infinity])
        #expect(try CLI.csv(["easing", "circ-in-out", "--at", "0.5"]).rows[0] == [0.5, 0.5, .infinity])
        #expect(try CLI.csv(["easing", "cubic-bezier(0,1,1,0)", "--at", "0"]).rows[0] == [0, 0, .infinity])
        #expect(try CLI.csv(["easing", "cubic-bezier(0,2,1,2)", "--at", "1"]).rows[0] == [1, 1, -.infinity])
        #expect(try CLI.run(["easing", "--help"]).stdout.contains("inf or -inf"))
        // Outside the formula's domain the value itself is not a number: still refused.
        let outside = try CLI.run(["easing", "circ-in", "--at", "1.5"])
        #expect(outside.status == 1 && outside.stderr.contains("not defined at t = 1.5"))
    }

    /// The turning-point bake of a vertical tangent: finite controls, none of them null.
    @Test(arguments: ["circ-in", "circ-out", "circ-in-out", "cubic-bezier(0,1,1,0)", "poly-in(0.5)"])
    func verticalTangentsBakeToFiniteControls(_ name: String) throws {
        for strategy in ["turning-points", "adaptive"] {
            let json = try CLI.json(["keyframes", "--easing", name, "--strategy", strategy])
            let functions = try #require(json["timingFunctions"] as? [[Any]])
            #expect(
                functions.allSatisfy { $0.allSatisfy { ($0 as? Double)?.isFinite == true } },
                "\(name) \(strategy): \(functions)")
            #expect((json["maxError"] as? Double)?.isFinite == true, "\(name) \(strategy)")
        }
    }

    @Test(arguments: [
        ["--spring", "--stiffness", "100", "--damping", "10", "--duration", "1e-320"],
        ["--drop", "--duration", "4.9e-324"]
    ])
    func workPrecisionOnAVanishingDurationDoesNotCrash(_ scene: [String]) throws {
        let result = try CLI.run(["work-precision"] + scene)
        #expect(result.status == 0, "\(result.stderr.suffix(300))")
        #expect(!result.stderr.contains("Fatal") && !result.stderr.contains("undamped"), "\(result.stderr.suffix(300))")
    }

    /// Past ζ ≈ 1e8 the slow mode's rate is k/c to 1e-16, so |x − 1| ≤ 0.001 from ln(1000)·c/k.
    @Test(arguments: [1e10, 1e100, 1e150])
    func aHeavilyOverdampedSpringSettlesOnItsSlowMode(_ friction: Double) throws {
        let json = try CLI.json(["spring", "--tension", "230", "--friction", "\(friction)", "--format", "json"])
        let settling = try #require(json["settlingDuration"] as? Double)
        let expected = Foundation.log(1000) * friction / 230
        #expect(abs(settling - expected) <= 1e-9 * expected, "\(settling) vs \(expected)")
    }

    @Test func aSpringPastTheClosedFormsRangeIsRefusedByName() throws {
        let result = try CLI.run(["spring", "--tension", "230", "--friction", "1e308", "--format", "json"])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(result.stderr.contains("damping / (2·mass)") && result.stderr.contains("1e+154"), "\(result.stderr)")
    }

    @Test func aVeryShortBakeIsOneSegmentAndTooShortANamedRefusal() throws {
        let json = try CLI.json(["keyframes", "--drop", "--duration", "1e-15"])
        #expect(json["keyTimes"] as? [Double] == [0, 1])
        let refused = try CLI.run(["keyframes", "--drop", "--duration", "1e-301"])
        #expect(
            refused.status == 1 && refused.stderr.contains("'--duration' must be at least 1e-300 s"),
            "\(refused.stderr)")
    }

    @Test func anOverflowingTravelIsNamed() throws {
        let result = try CLI.run([
            "simulate", "--spring", "--from", "-1e308", "--to", "1e308", "--stiffness", "100", "--damping", "10"
        ])
        #expect(result.status == 1 && result.stderr.contains("travel '--to' − '--from'"), "\(result.stderr)")
        #expect(!result.stderr.contains("nan"))
    }

    @Test func namesWithLineBreaksStayOnTheErrorsOneLine() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenes = [
            #"{"dimensions":1,"bodies":[{"name":"a\nb","position":[-0.1],"radius":0.1}],"planes":[{"normal":[1],"offset":0,"restitution":0.5}]}"#,
            #"{"dimensions":1,"bo\ndies":[]}"#
        ]
        for (i, scene) in scenes.enumerated() {
            let file = directory.appendingPathComponent("scene\(i).json")
            try scene.write(to: file, atomically: true, encoding: .utf8)
            let result = try CLI.run(["simulate", "--scene", file.path, "--duration", "1"])
            #expect(
                result.status == 1 && result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(#"\n"#),
                "\(result.stderr)")
        }
    }

    @Test func verifySaysHowManyRowsFailed() throws {
        let result = try CLI.run(["verify", "--tolerance-scale", "1e-30"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("rows exceed their tolerance") && !result.stderr.contains("ExitCode"),
            "\(result.stderr)")
    }

    @Test func aSweepIntoADirectoryLeavesNothing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run([
            "sweep", "--spring", "--stiffness", "100:200:50", "--damping", "10", "-o", directory.path
        ])
        #expect(result.status == 1 && result.stderr.contains("not a directory"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path + ".partial"))
        #expect(!FileManager.default.fileExists(atPath: directory.path + ".partial.sweep"))
    }

    /// A sweep and a simulation, each a fraction of a second: the two ways `-o` is written (through
    /// `FILE.partial`, and through a temporary file).
    static let outputCommands = [
        ["sweep", "--spring", "--stiffness", "100:200:50", "--damping", "10"],
        ["simulate", "--spring", "--stiffness", "100", "--damping", "10", "--duration", "0.1"]
    ]

    /// `-o` naming a pipe (as `/dev/null` is a device): the rows go through it and it stays a pipe.
    /// An atomic rename would have replaced it with a regular file.
    @Test(arguments: outputCommands + [["keyframes", "--easing", "bounce-out"]])
    func anOutputPipeIsWrittenNotReplaced(_ command: [String]) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("rows").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // The reader is killed after 60 s, so a run that never opens the pipe fails instead of
        // hanging (SIGKILL: the test runner's children inherit SIGTERM blocked).
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        reader.arguments = ["-s", "KILL", "60", "cat", fifo]
        let received = Pipe()
        reader.standardOutput = received
        try reader.run()
        let result = try CLI.run(command + ["-o", fifo])
        let text = String(decoding: received.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        let expected = try CLI.run(command)
        #expect(result.status == 0 && reader.terminationStatus == 0, "\(result.stderr)")
        #expect(text == expected.stdout)
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["rows"])
    }

    /// `-o` naming the process's own stdout, appended to a file (`-o /dev/stdout >> FILE`, here
    /// through /proc, where a rename cannot land): written in place, after what the file held.
    /// Renaming a temporary file onto it would drop that, and cut the process off from its stdout.
    @Test(arguments: outputCommands)
    func anOutputNamingStdoutAppendsToItsFile(_ command: [String]) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("out.csv")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data("before\n".utf8)))
        let appending = try FileHandle(forWritingTo: file)
        try appending.seekToEnd()
        let result = try CLI.run(command + ["-o", "/proc/self/fd/1"], standardOutput: appending)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8) == "before\n" + CLI.run(command).stdout)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.csv"])
    }

    /// `-o` through a symbolic link: the file it names is replaced whole (a reader holding it
    /// open still reads the old bytes) and the link stays a link.
    @Test(arguments: outputCommands)
    func anOutputThroughALinkReplacesItsFileAtomically(_ command: [String]) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("rows.csv").path
        let link = directory.appendingPathComponent("latest.csv").path
        #expect(FileManager.default.createFile(atPath: target, contents: Data("old\n".utf8)))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "rows.csv")
        let reader = try #require(FileHandle(forReadingAtPath: target))
        defer { try? reader.close() }
        let result = try CLI.run(command + ["-o", link])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "rows.csv")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == CLI.run(command).stdout)
        #expect(try reader.readToEnd() == Data("old\n".utf8))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["latest.csv", "rows.csv"])
    }

    /// `-o` through a link to a file not there yet: the file is made (as a shell's `>` makes it).
    @Test(arguments: outputCommands)
    func anOutputThroughADanglingLinkMakesItsFile(_ command: [String]) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = directory.appendingPathComponent("latest.csv").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "rows.csv")
        let result = try CLI.run(command + ["-o", link])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "rows.csv")
        let written = try String(contentsOf: directory.appendingPathComponent("rows.csv"), encoding: .utf8)
        #expect(try written == CLI.run(command).stdout)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["latest.csv", "rows.csv"])
    }

    /// The wall reproducers: impacts that fall on 60 Hz sample times are one event each, elastic.
    @Test(arguments: [
        (0.65, 1.5, "exact"), (0.875, 1.5, "dop853"), (0.875, 1.5, "exact"), (0.5, 3.0, "dopri5"),
        (0.75, 1.5, "exact")
    ])
    func anElasticWallImpactOnASampleTimeIsOneEvent(_ start: (Double, Double, String)) throws {
        let (position, speed, integrator) = start
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("wall.json"),
            events = directory.appendingPathComponent("events.csv")
        try
            #"{"dimensions":1,"bodies":[{"name":"a","position":[\#(position)],"velocity":[\#(speed)],"radius":0.1}],"planes":[{"normal":[-1],"offset":-1,"restitution":1}]}"#
            .write(to: file, atomically: true, encoding: .utf8)
        let rows = try CLI.csv([
            "simulate", "--scene", file.path, "--duration", "1", "--integrator", integrator,
            "--events", events.path
        ]).rows
        let lines = try String(contentsOf: events, encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(lines.count == 1, "\(lines)")
        let impact = (0.9 - position) / speed
        #expect(lines.first?.hasSuffix(",\(speed),\(speed)") == true, "\(lines)")
        // Back along the same line: x(t) = 0.9 − speed·(t − impact) after it, to 1e-9.
        for row in rows where row[0] > impact && row[0] < impact + (0.9 - 0.1) / speed {
            #expect(abs(row[1] - (0.9 - speed * (row[0] - impact))) <= 1e-9, "x(\(row[0])) = \(row[1])")
        }
    }
}
