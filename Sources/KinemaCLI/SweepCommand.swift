import ArgumentParser
import Dispatch
import Foundation
@_spi(Engine) import Kinema

/// `kinema sweep`: every combination of scene-flag values, one CSV row each.
struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Run every combination of scene-flag values and print one row of metrics per combination.",
        discussion: """
            Any numeric scene flag may be a range: A:B:STEP (A, A+STEP, … ≤ B), A:B:xN (N log-spaced values) or V1,V2,…, \
            and --integrator a list of names (rk4,dopri5); \
            with --scene FILE, so may any numeric field of the file: --set PATH=RANGE, PATH as bodies.NAME.mass, \
            bodies.NAME.position.0, springs.0.stiffness, planes.NAME.restitution, contacts.restitution, gravity.1, \
            drag or restVelocity (bodies and planes by name or index, springs by index). The combinations are the \
            Cartesian product in flag order. Columns: the swept flags (without dashes, inner dashes as underscores) \
            and paths, then the metrics (--metrics picks them). For --spring and --drop: settling_time, overshoot, \
            extrema, final_error, max_error_exact (against the analytic spring; empty otherwise), steps, \
            keyframes_uniform, keyframes_adaptive, keyframe_error. For --scene, per body (BODY.impacts, …): impacts, \
            last_impact, settling_time (speed ≤ --settle-speed and distance from the final position ≤ \
            --settle-distance from then on), final_position (BODY.final_x, …), peak_speed; and for the scene: \
            energy_drift ((E_end − E_0)/|E_0|, kinetic + gravity + springs), steps. \
            Rows come out in combination order, the same bytes whatever --threads.
            With -o, rows go to FILE.partial as they are done and FILE appears (by rename) when all are; after a \
            kill, the same command with --resume continues from FILE.partial. A device or a pipe (/dev/null, a FIFO) is \
            written directly.

            Examples:
              kinema sweep --spring --stiffness 100:1000:100 --damping-ratio 0.1:1.0:0.1 --duration 2
              kinema sweep --spring --response 0.2:1:x5 --bounce 0,0.2,0.4 --threads 2 -o sweep.csv
              kinema sweep --drop --restitution 0.1:0.9:0.1 --shard 2/3
              kinema sweep --scene examples/two-balls-1d.json --duration 2 --set bodies.b.mass=0.5:2:x4 \
                --set planes.floor.restitution=0.2:1:0.2 --metrics impacts,settling_time
            """
    )

    @Option(parsing: .unconditional, help: "Worker threads (default: all cores).")
    var threads: Int?
    @Option(help: "Run only shard I of N (contiguous blocks of rows), e.g. 2/3.")
    var shard: String?
    @Flag(help: "Continue an interrupted run from FILE.partial (needs -o FILE).")
    var resume = false
    @Flag(help: "Run a sweep of more than \(Self.confirmationLimit) combinations.")
    var yes = false
    @Option(name: [.customShort("o"), .customLong("output")], help: "Write to FILE (through FILE.partial).")
    var output: String?
    @Option(help: "The metric columns, comma-separated (default: all of the scene's kind); only these are computed.")
    var metrics: String?
    @Option(
        parsing: .unconditional,
        help: "--scene sweeps: the speed at or below which a body counts as settled (default 0.01).")
    var settleSpeed: Double?
    @Option(
        parsing: .unconditional,
        help:
            "--scene sweeps: the distance from its final position within which a body counts as settled (default 0.001)."
    )
    var settleDistance: Double?
    @Argument(parsing: .allUnrecognized, help: "PhysicsScene and simulation flags, numeric ones as ranges.")
    var sceneArguments: [String] = []

    /// The scene and simulation flags of one combination, as parsed.
    struct Combination: ParsableArguments {
        @OptionGroup var scene: SceneOptions
        @OptionGroup var simulation: SimulationOptions
    }

    /// Sweeps larger than this (about a minute on two cores) need `--yes`.
    static let confirmationLimit = 1_000_000
    /// The most combinations a sweep runs, `--yes` or not.
    static let combinationLimit = 100_000_000.0

    func run() throws {
        let axes = try Self.axes(sceneArguments, refusing: checkSize)
        let total = axes.reduce(1) { $0 * max(1, $1.values.count) }
        let (first, last) = try shardRange(total: total)
        let threadCount = try threadCount()
        if resume && output == nil { throw CLIError("'--resume' needs '-o FILE': it continues FILE.partial.") }
        // Parse the first combination up front, so a bad flag is one error line and no file.
        let plan = try plan(axes, first: first)
        let firstScene = try plan.template.scene.makeScene(suggestingDuration: false).scene
        let header =
            (axes.filter(\.isSwept).map(\.column) + plan.metrics.columns(for: firstScene)).joined(separator: ",")
            + "\n"
        _ = try rows(plan, first..<(first + 1))
        try DistinctFiles.check(
            outputs: [("-o", output), ("-o", output.map { $0 + ".partial" })],
            inputs: [("--scene", plan.template.scene.flags[text: .scene])])
        let sink = try SweepOutput(path: output, header: header, fingerprint: fingerprint, resume: resume)
        let next = first + sink.rowsAlreadyWritten
        let progress = ProgressBar(total: last - first, done: next - first)
        // A worker claims whole batches, enough of them that claims stay rare beside the rows'
        // work (at most 256 rows) and few enough that every worker gets at least 16 claims.
        let batches = (last - next + SweepBatch.width - 1) / SweepBatch.width, workers = min(threadCount, batches)
        let claim = SweepBatch.width * max(1, min(32, batches / (16 * max(1, workers))))
        // Rows are written in order as they become contiguous; at most 16 claims per worker (and
        // at least 1,024 rows) are in flight, so memory stays flat.
        let scheduler = SweepScheduler(rows: next, to: last, window: max(1024, 16 * claim * workers)) {
            text, written in
            try sink.write(text)
            progress.update(done: written - first)
        }
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            // Each worker parses its own flags, scene file and metrics: every row copies them, and
            // a reference count shared between threads would be written by every core at once.
            let own: Plan
            do { own = try self.plan(try Self.axes(self.sceneArguments), first: first) } catch {
                return scheduler.fail(error)
            }
            while let claimed = scheduler.claim(claim) {
                do {
                    var text = ""
                    for start in stride(from: claimed.lowerBound, to: claimed.upperBound, by: SweepBatch.width) {
                        for row in try self.rows(own, start..<min(start + SweepBatch.width, claimed.upperBound)) {
                            text += row
                        }
                    }
                    scheduler.finish(claimed, text)
                } catch { scheduler.fail(error) }
            }
        }
        if let failure = scheduler.failure {
            // An invalid combination (a bad value later in a list): no partial file left. A
            // failed write is reported as it is.
            if !scheduler.writeFailed { sink.discard() }
            throw failure
        }
        progress.finish()
        try sink.commit()
    }

    /// What every row reads: the axes, the first combination parsed with its scene file loaded
    /// and its `--set` paths resolved (the other rows set their swept values in it), the metrics.
    struct Plan {
        let axes: [Axis]
        let template: MotionRequest
        let metrics: SweepMetrics
    }

    func plan(_ axes: [Axis], first: Int) throws -> Plan {
        var base = try combination(axes, index: first, template: nil)
        let paths = axes.compactMap(\.path)
        if base.scene.flags.isGiven(.scene) {
            let file = try base.scene.loadScene()
            base.scene.loaded = file
            base.scene.sets = try paths.map { (try ScenePath($0, in: file), .nan) }
        } else if !paths.isEmpty {
            throw CLIError("'--set' needs '--scene FILE': it sets a field of the scene file.")
        }
        let metrics = try SweepMetrics(
            kind: base.scene.flags.isGiven(.scene) ? .scene : .motion, list: self.metrics, settleSpeed: settleSpeed,
            settleDistance: settleDistance)
        return Plan(axes: axes, template: try combination(axes, index: first, template: base), metrics: metrics)
    }

    /// What `--resume` checks a partial file against: the version and every flag that changes the
    /// rows (the scene flags, `--shard` and the metric options; not `--threads`, `--yes` or `-o`),
    /// one JSON string each.
    var fingerprint: String {
        let metricFlags =
            (metrics.map { ["--metrics", $0] } ?? []) + (settleSpeed.map { ["--settle-speed", "\($0)"] } ?? [])
            + (settleDistance.map { ["--settle-distance", "\($0)"] } ?? [])
        let flags = ["sweep"] + sceneArguments + (shard.map { ["--shard", $0] } ?? []) + metricFlags
        return KinemaCommand.version + "\n" + flags.map(JSON.string).joined(separator: " ") + "\n"
    }

    // MARK: Ranges

    struct Axis {
        let flag: String
        let values: [String]
        let isRange: Bool
        /// The scene file's field for `--set PATH=…`.
        var path: String? = nil
        /// The values as numbers, read once (nil where one is not a number).
        var numbers: [Double?] = []
        /// How a row sets the flag in a parsed template; nil for a path or a flag parsed per row.
        var setter: MotionRequest.Field? = nil
        /// Combinations between consecutive values of this axis (the product of the later axes'
        /// value counts): combination i takes value `(i / stride) % values.count`.
        var stride = 1
        /// The value of combination `index`.
        func valueIndex(_ index: Int) -> Int { (index / stride) % values.count }
        /// Whether the flag has a column (and so may change from row to row).
        var isSwept: Bool { values.count > 1 || isRange }
        var column: String { path.map(CSV.field) ?? String(flag.dropFirst(2)).replacingOccurrences(of: "-", with: "_") }
    }

    /// Refuses `combinations` past the limit, or past the confirmation limit without `--yes`.
    func checkSize(_ combinations: Double) throws {
        // Counted as a Double: three axes of 10⁷ values overflow an Int.
        let count = KinemaCommand.count(combinations)
        guard combinations <= Self.combinationLimit else {
            throw CLIError("the sweep has \(count) combinations; at most \(Int(Self.combinationLimit)).")
        }
        guard combinations <= Double(Self.confirmationLimit) || yes else {
            throw CLIError(
                "the sweep has \(count) combinations, more than \(Self.confirmationLimit): add '--yes' to run it.")
        }
    }

    /// The flags in order, each with the values it takes (one for a plain flag or a valueless one).
    /// `refusing` sees the product of every axis's value count, before any value is written, and
    /// throws to refuse the sweep.
    static func axes(_ given: [String], refusing: (Double) throws -> Void = { _ in }) throws -> [Axis] {
        // `--stiffness=1:2:1` is `--stiffness 1:2:1`, as argument-parser reads it.
        let arguments = given.flatMap { argument -> [String] in
            guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "="),
                !argument[argument.index(after: equals)...].hasPrefix("--")
            else { return [argument] }
            return [String(argument[..<equals]), String(argument[argument.index(after: equals)...])]
        }
        func takesValue(_ i: Int) -> Bool {
            i + 1 < arguments.count && !(arguments[i + 1].hasPrefix("--"))
                && !["--spring", "--drop"].contains(arguments[i])
        }
        // Every axis counted before any value is written (a malformed one is left to the loop below).
        var combinations = 1.0
        for i in arguments.indices where takesValue(i) {
            let (flag, text) = (arguments[i], arguments[i + 1])
            let range = flag == "--set" ? text.split(separator: "=", maxSplits: 1).last.map(String.init) : text
            guard let range, flag == "--set" || numericFlags[flag] != nil,
                let count = try? values(in: range, flag: flag).count
            else { continue }
            combinations *= Double(count)
        }
        try refusing(combinations)
        var axes: [Axis] = []
        var i = 0
        while i < arguments.count {
            let flag = arguments[i]
            guard flag.hasPrefix("--") || flag.hasPrefix("-") else {
                throw CLIError("unexpected argument '\(flag)': sweep takes flags ('--stiffness 100:1000:100').")
            }
            let takesValue = takesValue(i)
            if takesValue && flag == "--set" {
                let text = arguments[i + 1]
                let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].isEmpty else {
                    throw CLIError(flag: "--set", value: "'\(text)'", rule: "PATH=VALUE or PATH=RANGE", isUsage: true)
                }
                let path = String(parts[0]), range = String(parts[1])
                guard !axes.contains(where: { $0.path == path }) else {
                    throw CLIError(flag: "--set", value: "'\(path)'", rule: "each path once")
                }
                let values = try expand(range, flag: "--set \(path)")
                guard values.allSatisfy({ Double($0)?.isFinite == true }) else {
                    throw CLIError(
                        flag: "--set \(path)", value: "'\(range)'", rule: "a finite number or a range of them")
                }
                axes.append(
                    Axis(flag: flag, values: values, isRange: values.count > 1 || range.contains(":"), path: path))
                i += 2
            } else if takesValue {
                let text = arguments[i + 1]
                let values = try values(of: flag, text)
                let isRange = values.count > 1 || (numericFlags[flag] != nil && text.contains(":"))
                axes.append(Axis(flag: flag, values: values, isRange: isRange))
                i += 2
            } else {
                axes.append(Axis(flag: flag, values: [], isRange: false))
                i += 1
            }
        }
        var stride = 1
        for k in axes.indices.reversed() where !axes[k].values.isEmpty {
            let isWhole = numericFlags[axes[k].flag] == true
            axes[k].numbers = axes[k].values.map { isWhole ? exactWhole($0) : Double($0) }
            axes[k].setter = axes[k].path == nil ? MotionRequest.runFields[axes[k].flag] : nil
            axes[k].stride = stride
            stride = stride.multipliedReportingOverflow(by: axes[k].values.count).partialValue
        }
        return axes
    }

    /// The values `flag` takes: a numeric flag's range or list (whole numbers for a whole-number
    /// flag's range, which argument-parser would not read as `1.0`), `--integrator`'s names
    /// (`rk4,dopri5`), any other flag's text as it is (a scene path may hold ':' or ',').
    static func values(of flag: String, _ text: String) throws -> [String] {
        if flag == "--integrator" {
            let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let known = SimulationOptions.Integrator.allCases.map(\.rawValue)
            if let unknown = names.first(where: { !known.contains($0) }) {
                throw CLIError(
                    "'--integrator' names '\(unknown)', which is not one of " + known.joined(separator: ", ") + ".")
            }
            return names
        }
        guard let isWhole = numericFlags[flag] else { return [text] }
        if isWhole, let values = wholeRange(text) { return values }
        let values = try expand(text, flag: flag)
        guard isWhole, text.contains(":") else { return values }
        return try values.map { value in
            let x = Double(value) ?? .nan
            if let whole = Int64(exactly: x) { return "\(whole)" }
            if let whole = UInt64(exactly: x) { return "\(whole)" }
            throw CLIError(flag: flag, value: "'\(text)'", rule: "a range of whole numbers (this one gives \(value))")
        }
    }

    /// `A:B:STEP` of whole numbers counted exactly (a range of seeds near 2^64 has no `Double`
    /// steps); nil for any other text, or a range `expand` refuses, so that it names the rule.
    static func wholeRange(_ text: String) -> [String]? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        func count<T: FixedWidthInteger>(_ a: T, _ b: T, _ step: T) -> T? {
            let span = b.subtractingReportingOverflow(a)
            guard a <= b, step > 0, !span.overflow, span.partialValue / step < 10_000_000 else { return nil }
            return span.partialValue / step + 1
        }
        if let a = Int64(parts[0]), let b = Int64(parts[1]), let step = Int64(parts[2]), let n = count(a, b, step) {
            return (0..<n).map { "\(a + $0 * step)" }
        }
        if let a = UInt64(parts[0]), let b = UInt64(parts[1]), let step = UInt64(parts[2]), let n = count(a, b, step) {
            return (0..<n).map { "\(a + $0 * step)" }
        }
        return nil
    }

    /// The numeric scene and simulation flags by name, `true` for whole-number ones (`--order`,
    /// `--seed`, `--max-steps`): the flags with setters, so a flag declared as a number is swept as one.
    static let numericFlags = MotionRequest.runFields.mapValues(\.kind.isWhole)

    /// A whole number's text as a `Double` when one holds it exactly (nil: its rows are parsed, so
    /// argument-parser reads it, or refuses it, as on the command line).
    static func exactWhole(_ text: String) -> Double? {
        if let whole = Int64(text) { return Double(exactly: whole) }
        return UInt64(text).flatMap { Double(exactly: $0) }
    }

    /// `A:B:STEP`, `A:B:xN`, `V1,V2,…`, or a single value.
    static func expand(_ text: String, flag: String) throws -> [String] {
        let range = try values(in: text, flag: flag)
        return (0..<range.count).map(range.value)
    }

    /// The values of `expand`, counted before any is written: a sweep too large is refused
    /// from the counts alone (two axes of 10⁷ values were written out, 627 MB in 46 s, first).
    struct ValueRange {
        let count: Int
        let value: (Int) -> String
    }

    static func values(in text: String, flag: String) throws -> ValueRange {
        let rule = "a value, A:B:STEP, A:B:xN or V1,V2,… (finite numbers, A ≤ B, STEP > 0, N ≥ 2)"
        if text.contains(":") {
            // Spaces around the parts ("0.1 : 1 : 0.1", "100, 200") are layout, not part of a number.
            let parts = text.split(separator: ":", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            // Text that is not a range of numbers is a usage error (64), as argument-parser's own
            // "not a number" is; numbers that break the rule are rejected values (1).
            let isNumber = { (part: String) in
                Double(part) != nil || (part.hasPrefix("x") && Int(part.dropFirst()) != nil)
            }
            guard parts.count == 3, parts.allSatisfy(isNumber) else {
                throw CLIError(flag: flag, value: "'\(text)'", rule: rule, isUsage: true)
            }
            guard let a = Double(parts[0]), let b = Double(parts[1]), a.isFinite, b.isFinite, a <= b else {
                throw CLIError(flag: flag, value: "'\(text)'", rule: rule)
            }
            if parts[2].hasPrefix("x") {
                guard let n = Int(parts[2].dropFirst()), n >= 2, a > 0 else {
                    throw CLIError(flag: flag, value: "'\(text)'", rule: "A:B:xN with 0 < A ≤ B and N ≥ 2 (log-spaced)")
                }
                guard n <= 10_000_000 else {
                    throw CLIError(flag: flag, value: "'\(text)'", rule: "at most 10000000 values")
                }
                return ValueRange(count: n) { k in
                    k == n - 1 ? "\(b)" : "\(a * Foundation.pow(b / a, Double(k) / Double(n - 1)))"
                }
            }
            guard let step = Double(parts[2]), step.isFinite, step > 0 else {
                throw CLIError(flag: flag, value: "'\(text)'", rule: rule)
            }
            if let range = try decimalRange(parts[0], parts[1], parts[2], flag: flag, text: text) { return range }
            // Counted as a Double: (b − a)/step can exceed every Int (1:1e300:1e-300).
            let steps = ((b - a) / step * (1 + 1e-12)).rounded(.down)
            guard steps < 10_000_000 else {
                throw CLIError(flag: flag, value: "'\(text)'", rule: "at most 10000000 values")
            }
            let count = Int(steps) + 1
            // a + k·step, rounded to 12 significant digits so 0.1:1.0:0.1 gives 0.3, not
            // 0.30000000000000004, unless the step is too fine for 12 digits to tell the values
            // apart: then every value in its shortest round-trip form.
            let digits = step >= 1e-10 * max(abs(a), abs(b)) ? 12 : 17
            return ValueRange(count: count) { k in
                let value = a + Double(k) * step
                return "\(Double(String(format: "%.\(digits)g", value)) ?? value)"
            }
        }
        if text.contains(",") {
            let values = text.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard values.allSatisfy({ Double($0) != nil }) else {
                throw CLIError(flag: flag, value: "'\(text)'", rule: rule, isUsage: true)
            }
            guard values.allSatisfy({ Double($0)?.isFinite == true }) else {
                throw CLIError(flag: flag, value: "'\(text)'", rule: rule)
            }
            return ValueRange(count: values.count) { values[$0] }
        }
        return ValueRange(count: 1) { _ in text }
    }

    /// `A:B:STEP` counted in decimal, when A, B and STEP are decimals of at most 15 significant
    /// digits on a common grid: the values are A + k·STEP exactly, each printed as the shortest text
    /// that rounds to it (−0.3:0.3:0.1 gives 0, not 5.55111512313e-17); nil for ranges outside
    /// that grid, which `expand` counts in binary.
    static func decimalRange(_ a: String, _ b: String, _ step: String, flag: String, text: String) throws -> ValueRange?
    {
        guard let a = DecimalText(a), let b = DecimalText(b), let step = DecimalText(step) else { return nil }
        let exponent = min(a.exponent, b.exponent, step.exponent)
        guard let first = a.scaled(to: exponent), let last = b.scaled(to: exponent),
            let increment = step.scaled(to: exponent), increment > 0, first <= last
        else { return nil }
        let count = (last - first) / increment + 1
        guard count <= 10_000_000 else {
            throw CLIError(flag: flag, value: "'\(text)'", rule: "at most 10000000 values")
        }
        return ValueRange(count: Int(count)) { k in
            let value = Double("\(first + Int64(k) * increment)e\(exponent)") ?? 0
            return "\(value == 0 ? 0 : value)"
        }
    }

    /// A number's text as digits × 10^exponent, for digits below 10^15 (exact in a `Double` and in
    /// sums of a range's steps).
    struct DecimalText {
        static let limit: Int64 = 1_000_000_000_000_000
        let digits: Int64
        let exponent: Int

        init?(_ text: String) {
            let lower = text.lowercased()
            let parts = lower.split(separator: "e", omittingEmptySubsequences: false)
            guard parts.count <= 2, let mantissa = parts.first else { return nil }
            var shift = 0
            if parts.count == 2 {
                guard let e = Int(parts[1]), abs(e) < 400 else { return nil }
                shift = e
            }
            let pieces = mantissa.split(separator: ".", omittingEmptySubsequences: false)
            guard pieces.count <= 2 else { return nil }
            let fraction = pieces.count == 2 ? pieces[1] : ""
            let whole = pieces[0]
            guard fraction.allSatisfy({ $0.isASCII && $0.isNumber }), !(whole.isEmpty && fraction.isEmpty) else {
                return nil
            }
            let sign: Int64 = whole.hasPrefix("-") ? -1 : 1
            let wholeDigits = whole.drop { $0 == "-" || $0 == "+" }
            guard wholeDigits.allSatisfy({ $0.isASCII && $0.isNumber }), whole.count - wholeDigits.count <= 1 else {
                return nil
            }
            let all = (wholeDigits + fraction).drop { $0 == "0" }
            guard all.count <= 15, let magnitude = Int64(all.isEmpty ? "0" : String(all)) else { return nil }
            (digits, exponent) = (sign * magnitude, shift - fraction.count)
        }

        /// The digits on the grid of 10^exponent (≤ this one's), while they stay below the limit.
        func scaled(to target: Int) -> Int64? {
            var value = digits
            for _ in 0..<(exponent - target) {
                let (product, overflow) = value.multipliedReportingOverflow(by: 10)
                guard !overflow, abs(product) < Self.limit else { return nil }
                value = product
            }
            return value
        }
    }

    /// Each axis's value in combination `index` (the last axis varies fastest).
    static func chosen(_ axes: [Axis], index: Int) -> [String] {
        var remainder = index
        var chosen = [String](repeating: "", count: axes.count)
        for (k, axis) in axes.enumerated().reversed() where !axis.values.isEmpty {
            chosen[k] = axis.values[remainder % axis.values.count]
            remainder /= axis.values.count
        }
        return chosen
    }

    /// The command-line arguments of a combination, from its chosen values (`--set` paths are
    /// not flags: they are set in the scene).
    static func arguments(_ axes: [Axis], chosen: [String]) -> [String] {
        var arguments: [String] = []
        for (k, axis) in axes.enumerated() where axis.path == nil {
            arguments.append(axis.flag)
            if !axis.values.isEmpty { arguments.append(chosen[k]) }
        }
        return arguments
    }

    /// Combination `index`: the template with the row's swept values set, or parsed when there is
    /// no template or a swept flag has no setter; the `--set` values in `scene.sets` (whose paths
    /// the template resolved).
    func combination(_ axes: [Axis], index: Int, template: MotionRequest?) throws -> MotionRequest {
        var combination: MotionRequest
        if var set = template,
            axes.allSatisfy({ axis in
                guard axis.isSwept && axis.path == nil else { return true }
                guard let setter = axis.setter, let value = axis.numbers[axis.valueIndex(index)] else { return false }
                return set.set(setter, to: value)
            })
        {
            combination = set
        } else {
            do {
                let parsed = try Combination.parse(Self.arguments(axes, chosen: Self.chosen(axes, index: index)))
                combination = MotionRequest(scene: parsed.scene.values, simulation: parsed.simulation.values)
            } catch {
                throw CLIError(
                    Combination.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid flags",
                    isUsage: Combination.exitCode(for: error).rawValue == 64)
            }
            if let template {
                (combination.scene.loaded, combination.scene.sets) = (template.scene.loaded, template.scene.sets)
            }
        }
        if !combination.scene.sets.isEmpty {
            for (k, axis) in axes.filter({ $0.path != nil }).enumerated() {
                combination.scene.sets[k].value = axis.numbers[axis.valueIndex(index)] ?? .nan
            }
        }
        return combination
    }

    // MARK: Rows

    /// One combination, ready to simulate.
    struct Prepared {
        let index: Int
        let combination: MotionRequest
        let duration: Double
        /// The closed form, for a spring.
        let exact: DampedHarmonicOscillator?
        /// A spring's lane in a batch: a spring's scene is made only if it runs alone.
        let lane: SweepBatch.Lane?
        /// The scene of a drop or a scene file.
        let scene: PhysicsScene?

        func makeScene() throws -> PhysicsScene {
            try scene ?? combination.scene.makeScene(suggestingDuration: false).scene
        }
    }

    /// The rows of combinations `indices` (at most one batch of them): the springs among them that
    /// can share an RK4 batch run together (`SweepBatch`), the others one by one.
    func rows(_ plan: Plan, _ indices: Range<Int>) throws -> [String] {
        let (axes, template, metrics) = (plan.axes, plan.template, plan.metrics)
        func prepare(_ index: Int) throws -> Prepared {
            let combination = try combination(axes, index: index, template: template)
            let suggesting = combination.simulation[.duration] == nil
            if combination.scene.flags.isGiven(.spring) && metrics.kind == .motion {
                let made = try combination.scene.makeSpring(suggestingDuration: suggesting)
                return Prepared(
                    index: index, combination: combination,
                    duration: try combination.simulation.resolvedDuration(default: made.defaultDuration),
                    exact: made.exact,
                    lane: SweepBatch.Lane(made.parameters, from: made.from, to: made.to, velocity: made.velocity),
                    scene: nil)
            }
            let made = try combination.scene.makeScene(suggestingDuration: suggesting)
            return Prepared(
                index: index, combination: combination,
                duration: try combination.simulation.resolvedDuration(default: made.defaultDuration), exact: made.exact,
                lane: nil, scene: made.scene)
        }
        let prepared = try indices.map { index in try quotingRow(axes, index) { try prepare(index) } }
        var rows = [String?](repeating: nil, count: prepared.count)
        let keys = prepared.map { row in
            row.lane.flatMap { SweepBatch.key($0, row.combination.simulation, duration: row.duration) }
        }
        if let key = keys.compactMap({ $0 }).first {
            let batch = prepared.indices.filter { keys[$0] == key }
            // A batch that fails leaves its rows to run alone, where the failure is reported as theirs.
            if batch.count > 1, let samples = try? SweepBatch.run(batch.compactMap { prepared[$0].lane }, key: key) {
                for (lane, i) in batch.enumerated() {
                    var row = swept(axes, prepared[i].index)
                    try metrics.append(
                        SweepMetrics.Samples(
                            times: samples.times, positions: samples.positions, stride: SweepBatch.width, offset: lane,
                            steps: samples.steps),
                        exact: prepared[i].exact,
                        source: {
                            try MotionSource(
                                times: samples.times, positions: samples.lane(lane, of: samples.positions),
                                velocities: samples.lane(lane, of: samples.velocities))
                        }, to: &row)
                    rows[i] = row.line()
                }
            }
        }
        for i in prepared.indices where rows[i] == nil {
            let trajectory = try simulate(prepared[i], axes, prepared[i].makeScene())
            var row = swept(axes, prepared[i].index)
            if metrics.kind == .motion {
                try metrics.append(
                    SweepMetrics.Samples(
                        times: trajectory.times, positions: trajectory.positions, stride: trajectory.coordinateCount,
                        offset: 0, steps: trajectory.steps),
                    exact: prepared[i].exact, source: { try MotionSource(trajectory: trajectory) }, to: &row)
            } else {
                metrics.append(trajectory, to: &row)
            }
            rows[i] = row.line()
        }
        return rows.map { $0! }
    }

    func simulate(_ prepared: Prepared, _ axes: [Axis], _ scene: PhysicsScene) throws -> Trajectory {
        do {
            return try quotingRow(axes, prepared.index) {
                try prepared.combination.simulation.run(scene, duration: prepared.duration)
            }
        } catch let error as SimulationError {
            throw CLIError(error)
        }
    }

    /// `body` for combination `index`. A value a rule refuses is quoted as typed, which for a
    /// swept flag is its whole range (`'1:14:1'`): on such an error `body` runs again with the
    /// row's own values as the typed ones, so that the message quotes the value refused (`'13'`).
    func quotingRow<T>(_ axes: [Axis], _ index: Int, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CLIError {
            let row = ["sweep"] + Self.arguments(axes, chosen: Self.chosen(axes, index: index))
            try RawArguments.$current.withValue(row) { _ = try body() }
            throw error
        }
    }

    /// A row holding combination `index`'s swept values (the first columns).
    func swept(_ axes: [Axis], _ index: Int) -> CSVRow {
        var row = CSVRow()
        for axis in axes where axis.isSwept { row.append(axis.values[axis.valueIndex(index)]) }
        return row
    }

    // MARK: Shards, threads

    func shardRange(total: Int) throws -> (Int, Int) {
        guard let shard else { return (0, total) }
        let parts = shard.split(separator: "/").map { Int($0) }
        guard parts.count == 2, let i = parts[0], let n = parts[1], n >= 1, i >= 1, i <= n else {
            throw CLIError(flag: "--shard", value: "'\(shard)'", rule: "I/N with 1 ≤ I ≤ N")
        }
        return (total * (i - 1) / n, total * i / n)
    }

    func threadCount() throws -> Int {
        if let threads {
            guard threads >= 1, threads <= 1024 else {
                throw CLIError(flag: "--threads", value: "\(threads)", rule: "an integer in 1…1024")
            }
            return threads
        }
        return max(1, ProcessInfo.processInfo.activeProcessorCount)
    }
}
