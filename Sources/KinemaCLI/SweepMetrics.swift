@_spi(Engine) import Kinema

/// The metric columns of a sweep's rows, as `--metrics` picks them, and how each is computed.
/// Only the metrics asked for are computed (the keyframe bake, most of a spring row's cost, runs
/// only for `keyframes_adaptive` or `keyframe_error`).
struct SweepMetrics: Sendable {
    /// `--spring` and `--drop`: one motion (coordinate 0, or one lane of a batch). `--scene`:
    /// each named body, and the scene as a whole.
    enum Kind: Sendable { case motion, scene }

    /// The metrics of `--spring` and `--drop` rows, named as their columns.
    enum MotionMetric: String, CaseIterable, Sendable {
        case settlingTime = "settling_time", overshoot, extrema, finalError = "final_error"
        case maxErrorExact = "max_error_exact", steps, keyframesUniform = "keyframes_uniform"
        case keyframesAdaptive = "keyframes_adaptive", keyframeError = "keyframe_error"
    }
    static let motionNames = MotionMetric.allCases.map(\.rawValue)
    static let sceneNames = [
        "impacts", "last_impact", "settling_time", "final_position", "peak_speed", "energy_drift", "steps"
    ]
    /// The scene metrics with one column per body (`BODY.NAME`); the others are one column each.
    static let perBody: Set = ["impacts", "last_impact", "settling_time", "final_position", "peak_speed"]

    let kind: Kind
    /// The chosen metrics, in the order given.
    let names: [String]
    /// The chosen metrics of a motion sweep, in the order given (read once: rows do not compare names).
    let motionMetrics: [MotionMetric]
    /// Whether settling time, overshoot or extrema are asked for (one pass over the samples).
    let shape: Bool
    /// Whether the keyframe bake (most of a spring row's cost) is asked for.
    let bakes: Bool
    /// A body has settled once its speed stays at or below `settleSpeed` and its distance from
    /// its final position at or below `settleDistance`.
    let settleSpeed: Double
    let settleDistance: Double

    /// - Throws: `CLIError` for an unknown or repeated name (the error lists the known ones), and
    ///   for thresholds that are negative, not finite, or given for a motion sweep.
    init(kind: Kind, list: String?, settleSpeed: Double?, settleDistance: Double?) throws {
        self.kind = kind
        let known = kind == .motion ? Self.motionNames : Self.sceneNames
        if let list {
            let names = list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            for name in names where !known.contains(name) {
                let sweeps = kind == .motion ? "--spring and --drop" : "--scene"
                throw CLIError(
                    "'--metrics' names '\(name)', which is not a metric of \(sweeps) sweeps: "
                        + "\(known.joined(separator: ", ")).")
            }
            guard Set(names).count == names.count else {
                throw CLIError(flag: "--metrics", value: "'\(list)'", rule: "each metric once")
            }
            self.names = names
        } else {
            names = known
        }
        if kind == .motion, settleSpeed != nil || settleDistance != nil {
            throw CLIError(
                "'\(settleSpeed != nil ? "--settle-speed" : "--settle-distance")' applies to '--scene' sweeps: "
                    + "a spring or a drop settles within 0.001 of its travel.")
        }
        for (flag, value) in [("--settle-speed", settleSpeed), ("--settle-distance", settleDistance)] {
            if let value, !(value.isFinite && value >= 0) {
                throw CLIError(flag: flag, value: "\(value)", rule: "a finite number ≥ 0")
            }
        }
        motionMetrics = kind == .motion ? names.compactMap(MotionMetric.init(rawValue:)) : []
        shape = motionMetrics.contains { [.settlingTime, .overshoot, .extrema].contains($0) }
        bakes = motionMetrics.contains { [.keyframesAdaptive, .keyframeError].contains($0) }
        self.settleSpeed = settleSpeed ?? 0.01
        self.settleDistance = settleDistance ?? 0.001
    }

    /// The column names for rows of `scene`.
    func columns(for scene: PhysicsScene) -> [String] {
        guard kind == .scene else { return names }
        let axes = ["x", "y", "z"].prefix(scene.dimensions)
        return names.flatMap { name -> [String] in
            guard Self.perBody.contains(name) else { return [name] }
            return scene.bodies.flatMap { body in
                name == "final_position"
                    ? axes.map { CSV.field("\(body.name).final_\($0)") } : [CSV.field("\(body.name).\(name)")]
            }
        }
    }

    /// One motion's samples: coordinate `offset` of rows `stride` wide (a spring's or a drop's
    /// trajectory, or a lane of a batch's samples), read in place.
    struct Samples {
        let times: [Double]
        let positions: [Double]
        let stride: Int
        let offset: Int
        let steps: Int
    }

    /// Appends the metrics of one row of a scene sweep.
    func append(_ trajectory: Trajectory, to row: inout CSVRow) {
        for value in sceneValues(trajectory) { row.append(value) }
    }

    /// Appends the metrics of one row of a spring or drop sweep, `exact` the spring's closed form
    /// (its target is the settling target; nil otherwise), `source` the motion for the keyframe
    /// bake (called only when `bakes`).
    func append(
        _ motion: Samples, exact: DampedHarmonicOscillator?, source: () throws -> MotionSource, to row: inout CSVRow
    ) throws {
        let n = motion.times.count, stride = motion.stride, offset = motion.offset, positions = motion.positions
        /// The motion's position at sample i (read from the array: the accessor is a call per read).
        func position(_ i: Int) -> Double { positions[i * stride + offset] }
        let start = position(0), end = position(n - 1)
        let target = exact?.target ?? end
        let travel = abs(target - start) > 0 ? abs(target - start) : 1
        var settling = 0.0, overshoot = 0.0, extrema = 0
        if shape {
            var previous = start
            for i in 0..<n {
                let x = position(i)
                if abs(x - target) > 0.001 * travel { settling = motion.times[min(i + 1, n - 1)] }
                overshoot = max(overshoot, (x - target) * (target >= start ? 1 : -1) / travel)
                if i > 0 && i < n - 1 && (x - previous) * (position(i + 1) - x) < 0 {
                    extrema += 1
                }
                previous = x
            }
        }
        let bake = bakes ? try KeyframeBaker.bake(source(), strategy: .adaptive) : nil
        for metric in motionMetrics {
            switch metric {
            case .settlingTime: row.append(settling)
            case .overshoot: row.append(overshoot)
            case .extrema: row.append("\(extrema)")
            case .finalError: row.append(abs(end - target))
            case .maxErrorExact:
                guard let exact else {
                    row.append("")
                    continue
                }
                var worst = 0.0
                for (i, x) in exact.positions(at: motion.times).enumerated() {
                    worst = max(worst, abs(position(i) - x))
                }
                row.append(worst)
            case .steps: row.append("\(motion.steps)")
            case .keyframesUniform:
                row.append("\(KeyframeBaker.uniformSegmentCount(duration: motion.times[n - 1]) + 1)")
            case .keyframesAdaptive: row.append(bake.map { "\($0.keyframeCount)" } ?? "")
            case .keyframeError: row.append(bake.map { "\($0.maxError)" } ?? "")
            }
        }
    }

    private func sceneValues(_ trajectory: Trajectory) -> [String] {
        let scene = trajectory.scene, d = scene.dimensions, n = trajectory.count
        var row: [String] = []
        for name in names {
            switch name {
            case "impacts", "last_impact":
                // A body's impacts: those it makes, and those another body makes on it.
                var counts = [Int](repeating: 0, count: scene.bodies.count)
                var last = [Double?](repeating: nil, count: scene.bodies.count)
                for event in trajectory.events {
                    var involved = [event.bodyIndex]
                    if case .body(let other) = event.hit { involved.append(other) }
                    for i in involved {
                        counts[i] += 1
                        last[i] = event.time
                    }
                }
                row += name == "impacts" ? counts.map { "\($0)" } : last.map { $0.map { "\($0)" } ?? "" }
            case "settling_time":
                for body in scene.bodies.indices {
                    var settled = 0.0
                    for i in 0..<n {
                        var speed = 0.0, distance = 0.0
                        for a in 0..<d {
                            let c = body * d + a
                            let v = trajectory.velocity(atSample: i, coordinate: c),
                                x =
                                    trajectory.position(atSample: i, coordinate: c)
                                    - trajectory.position(atSample: n - 1, coordinate: c)
                            speed += v * v
                            distance += x * x
                        }
                        if speed.squareRoot() > settleSpeed || distance.squareRoot() > settleDistance {
                            settled = trajectory.times[min(i + 1, n - 1)]
                        }
                    }
                    row.append("\(settled)")
                }
            case "final_position":
                for body in scene.bodies.indices {
                    row += (0..<d).map { "\(trajectory.position(atSample: n - 1, coordinate: body * d + $0))" }
                }
            case "peak_speed":
                for body in scene.bodies.indices {
                    var peak = 0.0
                    for i in 0..<n {
                        var speed = 0.0
                        for a in 0..<d {
                            speed +=
                                trajectory.velocity(atSample: i, coordinate: body * d + a)
                                * trajectory.velocity(atSample: i, coordinate: body * d + a)
                        }
                        peak = max(peak, speed)
                    }
                    row.append("\(peak.squareRoot())")
                }
            case "energy_drift":
                // The simulator's own energy (kinetic, gravity's potential, the springs'), at two samples.
                let system = SceneSystem<FlatVector>(scene: scene), c = trajectory.coordinateCount
                func energy(_ i: Int) -> Double {
                    let lanes = i * c..<(i + 1) * c
                    return system.energy(
                        of: PhaseState(
                            position: FlatVector(Array(trajectory.positions[lanes])),
                            velocity: FlatVector(Array(trajectory.velocities[lanes]))))
                }
                let first = energy(0), last = energy(n - 1)
                row.append("\(first != 0 ? (last - first) / abs(first) : last - first)")
            default:
                row.append("\(trajectory.steps)")
            }
        }
        return row
    }
}
