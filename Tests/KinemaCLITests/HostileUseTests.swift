import Foundation
import Testing

/// What an adversarial user tried against the release binaries: signals in the middle of a write,
/// outputs that name one file, planted links, sweeps and bakes sized to never end, names that a
/// spreadsheet runs. Each case failed before its fix.
@Suite struct HostileUseTests {
    /// The writers that go through a temporary file, each slow enough to be caught writing.
    static let writers: [[String]] = [
        ["simulate", "--drop", "--duration", "400", "--sample-rate", "100000"],
        ["easing", "bounce-out", "--samples", "100000000"]
    ]

    /// SIGINT, SIGTERM or SIGHUP while `-o FILE` is being written: the temporary file is removed
    /// (up to 134 MB of them were left), nothing is left at FILE, and the process ends with the
    /// signal's status.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP], [0, 1])
    func aSignalLeavesNoTemporaryFile(_ signal: Int32, _ writer: Int) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pid = try Self.spawn(Self.writers[writer] + ["-o", directory.appendingPathComponent("out.csv").path])
        let deadline = Date().addingTimeInterval(20)
        var names: [String] = []
        while Date() < deadline {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            if names.contains(where: { $0.contains(".tmp-") }) { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(names.contains { $0.contains(".tmp-") }, "the writer finished before it could be signalled")
        kill(pid, signal)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect(status & 0x7f == signal, "wait status \(status)")  // ended by the signal itself
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    /// Starts `kinema ARGUMENTS` as a shell would: no signal blocked or ignored (a process started
    /// from a test's worker thread inherits that thread's mask, which blocks them), output dropped.
    static func spawn(_ arguments: [String], executable: URL = CLI.executable) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for stream in [STDOUT_FILENO, STDERR_FILENO] {
            posix_spawn_file_actions_addopen(&actions, stream, "/dev/null", O_WRONLY, 0)
        }
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable.path, &actions, &attributes, argv, environ) == 0 else {
            throw CLIFailure(result: CLIResult(status: -1, stdout: "", stderr: "posix_spawn failed"))
        }
        return pid
    }

    /// Two outputs naming one file kept only the last one written (exit 0); an output that is the
    /// scene file replaced it.
    @Test func outputsThatNameOneFileAreRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("o.csv").path
        let both = try CLI.run(["simulate", "--drop", "--events", file, "-o", directory.path + "/./o.csv"])
        #expect(both.status == 1 && both.stderr.contains("name one file"), "\(both.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file))
        let scene = directory.appendingPathComponent("scene.json").path
        let text = #"{"dimensions": 1, "bodies": [{"name": "b", "position": [0], "velocity": [1]}]}"#
        try text.write(toFile: scene, atomically: true, encoding: .utf8)
        for command in [
            ["simulate", "--scene", scene, "--duration", "1", "-o", scene],
            ["keyframes", "--scene", scene, "--duration", "1", "-o", scene],
            ["sweep", "--scene", scene, "--duration", "1", "--set", "bodies.b.mass=1,2", "-o", scene]
        ] {
            let result = try CLI.run(command)
            #expect(result.status == 1 && result.stderr.contains("must not replace an input"), "\(result.stderr)")
            #expect(try String(contentsOfFile: scene, encoding: .utf8) == text)
        }
    }

    /// A link planted at FILE.partial was written through, and FILE became a link to its target.
    @Test(arguments: [".partial", ".partial.sweep"])
    func aPlantedLinkIsNeverFollowed(_ suffix: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("other").path,
            output = directory.appendingPathComponent("out.csv").path
        try "keep\n".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: output + suffix, withDestinationPath: target)
        let result = try CLI.run(["sweep", "--spring", "--stiffness", "100:200:50", "--damping", "10", "-o", output])
        #expect(result.status == 1 && result.stderr.contains("not a regular file"), "\(result.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep\n")
        #expect(!FileManager.default.fileExists(atPath: output))
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(names == ["other", "out.csv" + suffix])
    }

    /// Counted before any value is written: 46 s and 627 MB before, for the same refusal.
    @Test func anOversizedSweepIsRefusedFromItsCounts() throws {
        let two = try CLI.run([
            "sweep", "--spring", "--stiffness", "1:9999999:1", "--damping", "1:9999999:1", "--yes"
        ])
        #expect(
            two.status == 1 && two.stderr.contains("99999980000001 combinations; at most 100000000"), "\(two.stderr)")
        let one = try CLI.run(["sweep", "--spring", "--stiffness", "1:9999999:1", "--damping", "1"])
        #expect(one.stderr.contains("9999999 combinations, more than 1000000: add '--yes'"), "\(one.stderr)")
        // Every axis counted: this said 9999999, the first axis's count, before.
        let three = try CLI.run(["sweep", "--spring", "--stiffness", "1:9999999:1", "--damping", "1:3:1"])
        #expect(three.stderr.contains(" 29999997 combinations, more than 1000000"), "\(three.stderr)")
        let log = try CLI.run(["sweep", "--spring", "--stiffness", "1:1e12:x1000000000000", "--damping", "1"])
        #expect(log.status == 1 && log.stderr.contains("at most 10000000 values"), "\(log.stderr)")
    }

    /// Values are A + k·STEP in decimal, each the shortest text that rounds to it.
    @Test func aRangeThroughZeroLabelsZero() throws {
        let rows = try CLI.csv([
            "sweep", "--spring", "--stiffness", "100", "--damping", "10", "--velocity=-0.3:0.3:0.1",
            "--metrics", "settling_time"
        ]).rows
        #expect(rows.map { $0[0] } == [-0.3, -0.2, -0.1, 0, 0.1, 0.2, 0.3])
        let text = try CLI.run([
            "sweep", "--spring", "--stiffness", "100", "--damping", "10", "--velocity=-0.3:0.3:0.1",
            "--metrics", "settling_time"
        ]).stdout
        #expect(text.contains("\n0.0,") && !text.contains("e-17"))
    }

    /// A name that starts a formula gets a leading quote wherever it reaches a CSV; a negative
    /// number stays a number.
    @Test func namesThatStartAFormulaAreQuotedAsText() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scene = directory.appendingPathComponent("scene.json").path
        try #"""
        {"dimensions": 2, "bodies": [{"name": "=cmd|' /C calc'!A0", "position": [1, 0], "velocity": [-1, 0]}],
         "planes": [{"name": "@wall", "normal": [1, 0], "offset": 0, "restitution": 1}]}
        """#.write(toFile: scene, atomically: true, encoding: .utf8)
        let events = directory.appendingPathComponent("events.csv").path
        let run = try CLI.run(["simulate", "--scene", scene, "--duration", "2", "--events", events])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("t,'=cmd|' /C calc'!A0.x,"), "\(run.stdout.prefix(80))")
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        #expect(lines.count >= 2 && lines[1].contains(",'=cmd|' /C calc'!A0,'@wall,"), "\(lines)")
        let sweep = try CLI.run([
            "sweep", "--scene", scene, "--duration", "2", "--set", "planes.@wall.restitution=0.5,1",
            "--metrics", "impacts"
        ])
        #expect(sweep.stdout.contains(",'=cmd|' /C calc'!A0.impacts"), "\(sweep.stdout.prefix(120)) \(sweep.stderr)")
    }

    @Test func aSceneThatIsADirectorySaysSo() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(["simulate", "--scene", directory.path])
        #expect(result.status == 1 && result.stderr.contains("is a directory"), "\(result.stderr)")
    }

    /// A number that rounds to 0 is refused with what was written: `mass: 1e-400` read as 0 and
    /// was reported as "got 0.0".
    @Test func aNumberTooSmallForADoubleIsQuotedAsWritten() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scene = directory.appendingPathComponent("scene.json")
        try #"""
        {"dimensions": 1, "gravity": [-9.8],
         "bodies": [{"name": "a", "mass": 1e-400, "position": [0], "velocity": [0], "radius": 0.1}]}
        """#.write(to: scene, atomically: true, encoding: .utf8)
        let result = try CLI.run(["simulate", "--scene", scene.path, "--duration", "1"])
        #expect(result.status == 1, "\(result.stdout.prefix(80))")
        #expect(
            result.stderr.contains("line 2, column 35: invalid JSON: number 1e-400 is too small"), "\(result.stderr)")
    }

    /// Bakes past what a bake holds are refused before their work: a spring of k = 1e308 exited 0
    /// with an error of 1e149, the drop baked for over five minutes.
    @Test(arguments: [
        (["--spring", "--stiffness", "1e308", "--damping", "1"], "cannot follow it"),
        (
            [
                "--drop", "--restitution", "0.9999", "--rest-velocity", "1e-12", "--gravity", "1e6", "--duration", "30",
                "--tolerance", "1e-5"
            ], "more than 10000 impacts"
        )
    ])
    func bakesPastTheirLimitsAreRefused(_ flags: [String], _ message: String) throws {
        let result = try CLI.run(["keyframes"] + flags)
        #expect(result.status == 1 && result.stdout.isEmpty && result.stderr.contains(message), "\(result.stderr)")
    }

    /// A spring that turns 1,600 times a second is sampled at 16 a turn, not 2 kHz, and bakes
    /// within its tolerance of the closed form (its bake was past it before).
    @Test func aFastSpringBakesWithinItsTolerance() throws {
        let json = try CLI.json(["keyframes", "--spring", "--stiffness", "1e8", "--damping", "100"])
        let error = try #require(json["maxError"] as? Double)
        #expect(error <= 0.001, "max error \(error)")
    }

    /// `keyframes --scene` holds its trajectory whole: past its stated limit it is refused at once
    /// (10⁴ bodies took 735 MB before, 10⁵ over 6 GB).
    @Test func aSceneBakePastItsLimitIsRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scene = directory.appendingPathComponent("many.json").path
        let bodies = (0..<3_000).map { #"{"name": "b\#($0)", "position": [\#($0), 1], "velocity": [0, 0]}"# }
        try (#"{"dimensions": 2, "gravity": [0, -9.81], "bodies": ["# + bodies.joined(separator: ",") + "]}")
            .write(toFile: scene, atomically: true, encoding: .utf8)
        let result = try CLI.run(["keyframes", "--scene", scene, "--duration", "1"])
        #expect(result.status == 1 && result.stderr.contains("more than its 4000000"), "\(result.stderr)")
    }
}
