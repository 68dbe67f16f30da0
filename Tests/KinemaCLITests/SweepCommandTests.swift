import Foundation
import KinemaCLI
import Testing

struct SweepCommandTests {
    static let small = [
        "sweep", "--spring", "--stiffness", "100:300:100", "--damping-ratio", "0.2,0.7,1.5", "--duration", "1"
    ]

    @Test func hundredRowsWithTheContractColumns() throws {
        let result = try CLI.run([
            "sweep", "--spring", "--stiffness", "100:1000:100", "--damping-ratio", "0.1:1.0:0.1", "--duration", "2"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(
            lines.first
                == "stiffness,damping_ratio,settling_time,overshoot,extrema,final_error,max_error_exact,steps,keyframes_uniform,keyframes_adaptive,keyframe_error"
        )
        #expect(lines.count == 101)
        var stiffnesses = Set<Double>(), ratios = Set<Double>()
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { Double($0)! }
            #expect(fields.count == 11)
            stiffnesses.insert(fields[0])
            ratios.insert(fields[1])
            #expect(fields[6] <= 1e-6, "\(line)")
        }
        #expect(stiffnesses == Set(stride(from: 100.0, through: 1000, by: 100)))
        #expect(ratios == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0])
    }

    /// Spaces around a list's values or a range's parts, as people write them ("100, 200",
    /// "100 : 200 : 100"), give the same rows as none.
    @Test func spacesInRangesAndListsAreLayout() throws {
        func rows(_ stiffness: String) throws -> String {
            let result = try CLI.run([
                "sweep", "--spring", "--stiffness", stiffness, "--damping", "10", "--metrics", "settling_time"
            ])
            #expect(result.status == 0, "\(stiffness): \(result.stderr)")
            return result.stdout
        }
        #expect(try rows("100, 200") == (try rows("100,200")))
        #expect(try rows(" 100 : 200 : 100 ") == (try rows("100:200:100")))
        #expect(try rows("1 : 100 : x3") == (try rows("1:100:x3")))
    }

    /// A step too fine for 12 significant digits (the fuzzing campaign saw such rows printed
    /// alike): every value is printed to round-trip, so the rows stay distinct and each reads back
    /// as A + k·STEP.
    @Test func fineStepsPrintDistinctValues() throws {
        let result = try CLI.run([
            "sweep", "--spring", "--stiffness", "100:100.000000000001:1e-13", "--damping-ratio", "0.5",
            "--duration", "0.1"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let values = result.stdout.split(separator: "\n").dropFirst().map { Double($0.split(separator: ",")[0])! }
        // 100.000000000001 − 100 is 9.95e-13 in binary: ten values, 100 to 100 + 9e-13.
        #expect(values.count == 10 && Set(values).count == 10, "\(values)")
        for (k, value) in values.enumerated() { #expect(value == 100 + Double(k) * 1e-13) }
    }

    /// A value that fails validation in a later combination (the first is checked before the
    /// partial file is made; this one only when its row is computed): one error line, and neither
    /// FILE nor FILE.partial nor its fingerprint is left.
    @Test func invalidLaterCombinationLeavesNoPartialFile() throws {
        let path = try temporaryDirectory().appendingPathComponent("out.csv").path
        let result = try CLI.run([
            "sweep", "--spring", "--stiffness", "100:355:1", "--damping", "2,-1", "--duration", "0.5", "-o", path
        ])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(
            result.stderr.contains("--damping") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        for file in [path, path + ".partial", path + ".partial.sweep"] {
            #expect(!FileManager.default.fileExists(atPath: file), "\(file)")
        }
    }

    @Test func sameBytesWhateverTheThreads() throws {
        let one = try CLI.run(Self.small + ["--threads", "1"])
        let two = try CLI.run(Self.small + ["--threads", "2"])
        #expect(one.status == 0 && one.stdout == two.stdout && !one.stdout.isEmpty)
    }

    /// A worker claims several batches at once when the sweep is large beside the thread count:
    /// 1,500 rows are claimed 88 rows at a time on one thread, 40 on two, 24 on three and 8 on
    /// sixteen, and come out as the same bytes.
    @Test(arguments: [2, 3, 16])
    func sameBytesWhateverTheClaims(threads: Int) throws {
        let sweep = [
            "sweep", "--spring", "--stiffness", "100:1000:x50", "--damping-ratio", "0.1:1.5:x30", "--duration", "0.5",
            "--metrics", "settling_time,overshoot,steps"
        ]
        let one = try CLI.run(sweep + ["--threads", "1"]), many = try CLI.run(sweep + ["--threads", "\(threads)"])
        #expect(one.status == 0 && one.stdout.split(separator: "\n").count == 1_501, "\(one.stderr)")
        #expect(many.stdout == one.stdout)
    }

    /// Springs run by RK4 share 8-lane batches; each row must be the bytes it is when run alone
    /// (a one-value range keeps the columns). k = 4000, ζ = 12 at h = 1/600 has |λ|·h = 2.5, outside
    /// the batches' |λ|·h ≤ 2, so the last block mixes batched rows and a row run alone.
    @Test func batchedRowsEqualRowsRunAlone() throws {
        let common = ["--duration", "1", "--integrator", "rk4", "--dt", "0.0016666666666666668", "--velocity", "3"]
        let stiffnesses = ["50", "170", "900", "2500", "4000"], ratios = ["0.05", "0.5", "1.0", "12"]
        let full = try CLI.run(
            [
                "sweep", "--spring", "--stiffness", stiffnesses.joined(separator: ","),
                "--damping-ratio", ratios.joined(separator: ",")
            ] + common)
        #expect(full.status == 0, "\(full.stderr)")
        let rows = full.stdout.split(separator: "\n").dropFirst()
        #expect(rows.count == 20)
        for (row, (k, zeta)) in zip(rows, stiffnesses.flatMap { k in ratios.map { (k, $0) } }) {
            let alone = try CLI.run(
                ["sweep", "--spring", "--stiffness", "\(k):\(k):1", "--damping-ratio", "\(zeta):\(zeta):1"] + common)
            // The metrics' bytes (the range writes the swept values as 50.0 where the list kept 50).
            let metrics = { (line: Substring?) in
                line?.split(separator: ",", omittingEmptySubsequences: false).dropFirst(2)
            }
            #expect(metrics(alone.stdout.split(separator: "\n").dropFirst().first) == metrics(row), "\(k), \(zeta)")
        }
    }

    /// The batch computes each lane's coefficients as the scene system does for a spring alone
    /// (per unit mass, the anchor as (k·to)/k): springs in four dialects, with a mass, ends other
    /// than 0 → 1 and samples that do not fall on the steps (48 Hz against h = 1/600), each row the
    /// bytes of the same spring run alone, all metrics.
    @Test(arguments: [
        ["--mass", "0.37", "--damping", "1.3", "--stiffness", "17,230,1900"],
        ["--response", "0.31,0.55,0.9", "--bounce", "-0.4,0.15,0.7"],
        ["--tension", "120,300,700", "--friction", "9,14,33"],
        ["--motion-duration", "0.4,0.8,1.3", "--motion-bounce", "0,0.25,0.6"]
    ])
    func batchedRowsEqualRowsRunAloneInEveryDialect(_ dialect: [String]) throws {
        let common = [
            "--duration", "1.3", "--integrator", "rk4", "--dt", "0.0016666666666666668", "--sample-rate", "48",
            "--from", "-2.7", "--to", "13.1", "--relative-velocity", "0.6"
        ]
        let full = try CLI.run(["sweep", "--spring"] + dialect + common)
        #expect(full.status == 0, "\(full.stderr)")
        let rows = full.stdout.split(separator: "\n").dropFirst()
        // The swept flags' values in combination order (the last flag fastest).
        let lists = dialect.indices.filter { dialect[$0].hasPrefix("--") && dialect[$0 + 1].contains(",") }
        let values = lists.map { dialect[$0 + 1].split(separator: ",").map(String.init) }
        let combinations = values[0].flatMap { a in values.count > 1 ? values[1].map { [a, $0] } : [[a]] }
        #expect(rows.count == combinations.count)
        for (row, chosen) in zip(rows, combinations) {
            var alone = dialect
            for (k, flag) in lists.enumerated() { alone[flag + 1] = "\(chosen[k]):\(chosen[k]):1" }
            let single = try CLI.run(["sweep", "--spring"] + alone + common)
            let metrics = { (line: Substring?) in
                line?.split(separator: ",", omittingEmptySubsequences: false).dropFirst(lists.count)
            }
            #expect(single.status == 0, "\(single.stderr)")
            #expect(metrics(single.stdout.split(separator: "\n").dropFirst().first) == metrics(row), "\(chosen)")
        }
    }

    @Test func shardsConcatenateToTheFullSweep() throws {
        let full = try CLI.run(Self.small).stdout
        var joined = ""
        for shard in 1...3 {
            let part = try CLI.run(Self.small + ["--shard", "\(shard)/3"]).stdout
            joined += shard == 1 ? part : String(part.drop { $0 != "\n" }.dropFirst())
        }
        #expect(joined == full)
    }

    /// A run killed mid-way leaves FILE.partial (with perhaps a cut line); --resume completes it.
    @Test func resumeCompletesAnInterruptedRun() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let full = try CLI.run(Self.small).stdout
        let path = directory.appendingPathComponent("sweep.csv").path
        let lines = full.split(separator: "\n", omittingEmptySubsequences: false)
        let interrupted = lines.prefix(5).joined(separator: "\n") + "\n" + lines[5].prefix(7)
        try interrupted.write(toFile: path + ".partial", atomically: true, encoding: .utf8)
        try Self.fingerprint(Self.small).write(toFile: path + ".partial.sweep", atomically: true, encoding: .utf8)
        let result = try CLI.run(Self.small + ["--resume", "-o", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == full)
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
        #expect(!FileManager.default.fileExists(atPath: path + ".partial.sweep"))
    }

    /// The fingerprint file's documented form: the version, then the flags that change the rows as
    /// JSON strings.
    static func fingerprint(_ arguments: [String]) -> String {
        KinemaCommand.version + "\n" + arguments.map { "\"\($0)\"" }.joined(separator: " ") + "\n"
    }

    /// A partial file of another sweep with the same columns (another duration) is not merged.
    @Test func resumeRefusesThePartialFileOfAnotherSweep() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("sweep.csv").path
        let other = Self.small.dropLast() + ["2"]  // --duration 2: same header, other rows
        let partial = try CLI.run(Array(other)).stdout.split(separator: "\n").prefix(4).joined(separator: "\n") + "\n"
        try partial.write(toFile: path + ".partial", atomically: true, encoding: .utf8)
        for recorded in [Self.fingerprint(Array(other)), nil] {
            if let recorded {
                try recorded.write(toFile: path + ".partial.sweep", atomically: true, encoding: .utf8)
            } else {
                try? FileManager.default.removeItem(atPath: path + ".partial.sweep")
            }
            let result = try CLI.run(Self.small + ["--resume", "-o", path])
            #expect(result.status == 1 && result.stderr.contains("different sweep"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(try String(contentsOfFile: path + ".partial", encoding: .utf8) == partial)
        }
    }

    /// A second run writing the same -o fails at once while the first holds FILE.partial.
    @Test func secondWriterOfTheSameFileFailsAtOnce() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("sweep.csv").path
        let descriptor = open(path + ".partial", O_RDWR | O_CREAT, 0o644)
        #expect(descriptor >= 0 && flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        defer { close(descriptor) }
        let result = try CLI.run(Self.small + ["-o", path])
        #expect(
            result.status == 1 && result.stderr.contains("being written by another kinema sweep"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// A row's value refused by a rule is quoted as that row's, not as the range typed: checked
    /// as the scene is made (`--damping`), as the integrator is chosen (`--order`) and as the run
    /// starts (`--frame-jitter`).
    @Test(arguments: [
        (["--damping", "2,-1"], "'--damping' must be a finite number ≥ 0 (got '-1')"),
        (
            ["--damping", "2", "--integrator", "adams", "--dt", "0.01", "--order", "10:14:2"],
            "'--order' must be an integer from 1 to 12 (got '14')"
        ),
        (
            ["--damping", "2", "--frame-rate", "60", "--frame-jitter", "0.5,1.5"],
            "'--frame-jitter' must be a fraction in [0, 1) (got '1.5')"
        )
    ])
    func aRefusedRowQuotesItsOwnValue(arguments: [String], message: String) throws {
        let result = try CLI.run(["sweep", "--spring", "--stiffness", "100"] + arguments + ["--duration", "0.5"])
        #expect(result.status == 1 && result.stderr == "kinema: error: \(message).\n", "\(result.stderr)")
    }

    @Test(arguments: [
        (["--stiffness", "1000:100:100"], "--stiffness"),
        (["--stiffness", "100:1000:0"], "--stiffness"),
        (["--stiffness", "100:1000:x1"], "--stiffness"),

        (["--stiffness", "100", "--shard", "4/3"], "--shard"),
        (["--stiffness", "100", "--threads", "0"], "--threads"),
        (["--stiffness", "100", "--resume"], "--resume"),
        (["--stiffness", "-5:5:5"], "--stiffness"),
        (["--stiffness", "1:1000001:1"], "--yes")
    ])
    func badRangesAreOneLine(arguments: [String], mention: String) throws {
        let result = try CLI.run(["sweep", "--spring", "--damping", "1"] + arguments + ["--duration", "1"])
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(mention), "\(result.stderr)")
    }

    /// Text that is not a number is a usage error, as it is for argument-parser's own flags.
    @Test(arguments: [
        ["--stiffness", "1,x,3"], ["--stiffness", "a:b:1"], ["--stiffness", "1:2"], ["--stiffness", "abc"]
    ])
    func malformedNumbersAreUsageErrorsAsInSimulate(arguments: [String]) throws {
        let result = try CLI.run(["sweep", "--spring", "--damping", "1"] + arguments + ["--duration", "1"])
        #expect(result.status == 64 && result.stdout.isEmpty, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("kinema: error:") && result.stderr.contains("--stiffness"), "\(result.stderr)")
        let simulate = try CLI.run(["simulate", "--spring", "--damping", "1", "--stiffness", "abc"])
        #expect(simulate.status == 64 && simulate.stderr.hasPrefix("kinema: error:"))
    }

    /// Whole-number flags swept as ranges: `--order 1:4:1` gives 1.0 … 4.0 as numbers, which the
    /// flag takes as 1 … 4 (argument-parser reads no `1.0` as an integer). Each row is the bytes of
    /// the same run given its value alone, and Adams' error falls with its order.
    @Test func wholeNumberFlagsSweepAsRanges() throws {
        let common = ["--spring", "--stiffness", "100", "--damping", "10", "--duration", "0.3", "--dt", "0.001"]
        let metrics = ["--metrics", "max_error_exact,steps"]
        let swept = try CLI.run(["sweep"] + common + ["--integrator", "adams", "--order", "1:4:1"] + metrics)
        #expect(swept.status == 0, "\(swept.stderr)")
        let rows = swept.stdout.split(separator: "\n").dropFirst()
        #expect(rows.map { $0.split(separator: ",")[0] } == ["1", "2", "3", "4"])
        var errors: [Double] = []
        for (order, row) in zip(1...4, rows) {
            let alone = try CLI.run(["sweep"] + common + ["--integrator", "adams", "--order", "\(order)"] + metrics)
            #expect(alone.stdout.split(separator: "\n").last.map { "\(order)," + $0 } == String(row))
            errors.append(Double(row.split(separator: ",")[1])!)
        }
        #expect(errors == errors.sorted(by: >) && errors[3] < 1e-3 * errors[0], "\(errors)")

        let seeds = try CLI.run(
            ["sweep"] + common + [
                "--integrator", "rk4", "--frame-rate", "60", "--frame-jitter", "0.5", "--seed", "7:9:1"
            ]
                + metrics)
        #expect(seeds.status == 0 && seeds.stdout.split(separator: "\n").count == 4, "\(seeds.stderr)")
        let fractional = try CLI.run(["sweep"] + common + ["--integrator", "adams", "--order", "1:4:0.5"])
        #expect(fractional.status == 1 && fractional.stderr.contains("whole numbers"), "\(fractional.stderr)")
    }

    /// A range of seeds is counted in whole numbers, not `Double`s: past 2^53 every seed is its
    /// own row (a `Double` count repeats even ones and skips odd ones), up to 2^64 − 1.
    @Test(arguments: [(9_007_199_254_740_991 as UInt64, 9_007_199_254_740_997 as UInt64), (UInt64.max - 3, UInt64.max)])
    func seedRangesCountEverySeed(first: UInt64, last: UInt64) throws {
        let result = try CLI.run([
            "sweep", "--drop", "--duration", "0.1", "--frame-rate", "60", "--frame-jitter", "0.2", "--seed",
            "\(first):\(last):1", "--metrics", "steps"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let seeds = result.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[0] }
        #expect(seeds == (first...last).map { "\($0)"[...] })
    }

    /// `--integrator` takes a list of names; each row is the bytes of the sweep with that
    /// integrator alone. An unknown name is one error line naming it.
    @Test func integratorsSweepAsAList() throws {
        let common = ["--spring", "--stiffness", "100", "--damping", "10", "--duration", "0.5"]
        let names = ["rk4", "dopri5", "exact", "gsl-rk8pd"]
        let swept = try CLI.run(["sweep"] + common + ["--integrator", names.joined(separator: ",")])
        #expect(swept.status == 0, "\(swept.stderr)")
        let rows = swept.stdout.split(separator: "\n")
        #expect(rows.first?.hasPrefix("integrator,settling_time,") == true)
        for (name, row) in zip(names, rows.dropFirst()) {
            let alone = try CLI.run(["sweep"] + common + ["--integrator", name])
            #expect(alone.stdout.split(separator: "\n").last.map { name + "," + $0 } == String(row), "\(name)")
        }
        #expect(rows.count == names.count + 1)
        let unknown = try CLI.run(["sweep"] + common + ["--integrator", "rk4,rk5"])
        #expect(unknown.status == 1 && unknown.stderr.contains("'rk5'"), "\(unknown.stderr)")
    }

    /// `--flag=VALUE` sweeps as `--flag VALUE` does, and a scene path may hold ',' and ':'.
    @Test func equalsFormsAndPathsWithCommas() throws {
        let spaced = try CLI.run(["sweep", "--spring", "--stiffness", "100:200:50", "--damping=10", "--duration", "0.3"]
        )
        let joined = try CLI.run(["sweep", "--spring", "--stiffness=100:200:50", "--damping=10", "--duration=0.3"])
        #expect(spaced.status == 0 && spaced.stdout.split(separator: "\n").count == 4, "\(spaced.stderr)")
        #expect(joined.stdout == spaced.stdout, "\(joined.stderr)")

        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scene = try String(contentsOfFile: BadInput.twoBalls, encoding: .utf8)
        let path = directory.appendingPathComponent("a,b:c.json").path
        try scene.write(toFile: path, atomically: true, encoding: .utf8)
        let masses = ["--duration", "0.5", "--set", "bodies.left.mass=0.5:1.5:0.5"]
        let odd = try CLI.run(["sweep", "--scene", path] + masses)
        let plain = try CLI.run(["sweep", "--scene", BadInput.twoBalls] + masses)
        #expect(odd.status == 0 && odd.stdout == plain.stdout && !odd.stdout.isEmpty, "\(odd.stderr)")
    }
}
