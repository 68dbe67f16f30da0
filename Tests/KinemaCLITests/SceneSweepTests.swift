import Foundation
import Testing

/// `kinema sweep --scene FILE --set PATH=RANGE` and the scene metrics.
final class SceneSweepTests {
    /// Each test's scene files, removed with it.
    let directory: URL

    init() throws { directory = try temporaryDirectory() }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func file(_ text: String) throws -> String {
        let path = directory.appendingPathComponent("scene-\(UUID()).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Rows of a CSV text as dictionaries by column.
    static func rows(_ csv: String) -> [[String: String]] {
        let lines = csv.split(separator: "\n").map(String.init)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) else {
            return []
        }
        return lines.dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Dictionary(uniqueKeysWithValues: zip(header, cells))
        }
    }

    /// A 2-D scene with every kind of field, its values as parameters, so a field set by `--set`
    /// can be compared with the same scene written with that value.
    static func scene(_ v: [String: Double] = [:]) -> String {
        func x(_ key: String, _ value: Double) -> String { "\(v[key] ?? value)" }
        return """
            {"dimensions": 2,
             "bodies": [
               {"name": "ball.one", "mass": \(x("mass", 1)), "position": [0, 1], "velocity": [0.5, 0], "radius": 0.1},
               {"name": "b", "position": [\(x("bx", 0.6)), \(x("by", 1.2))], "velocity": [\(x("bvx", -0.3)), 0], \
            "radius": \(x("radius", 0.1))}],
             "springs": [
               {"body": "ball.one", "anchor": [0, \(x("anchorY", 2))], "stiffness": \(x("k", 40)), \
            "damping": \(x("c", 0.5))},
               {"bodies": ["ball.one", "b"], "stiffness": 10, "restLength": \(x("rest", 0.6))}],
             "planes": [
               {"name": "floor", "normal": [0, 1], "restitution": \(x("e", 0.7)), "friction": \(x("mu", 0))},
               {"normal": [-1, 0], "offset": \(x("wall", -2)), "restitution": 1}],
             "contacts": {"restitution": \(x("contactE", 0.9))},
             "gravity": [0, \(x("g", -9.81))], "drag": \(x("drag", 0)), "restVelocity": \(x("restV", 0.01))}
            """
    }

    /// Each kind of path sets the field it names: the sweep's row for a value ends where the scene
    /// written with that value ends (`kinema simulate`, same integrator and samples), bit for bit.
    @Test(arguments: [
        ("bodies.ball.one.mass", "mass", 1.5), ("bodies.1.radius", "radius", 0.05),
        ("bodies.b.position.1", "by", 1.5), ("bodies.b.velocity.0", "bvx", -0.8),
        ("springs.0.stiffness", "k", 60), ("springs.0.damping", "c", 2), ("springs.1.restLength", "rest", 0.4),
        ("springs.0.anchor.1", "anchorY", 2.5), ("planes.floor.restitution", "e", 0.3),
        ("planes.floor.friction", "mu", 0.4), ("planes.1.offset", "wall", -0.7),
        ("contacts.restitution", "contactE", 0.5),
        ("gravity.1", "g", -3), ("drag", "drag", 0.2), ("restVelocity", "restV", 0.1)
    ])
    func setReachesTheFieldItNames(path: String, key: String, value: Double) throws {
        let base = try file(Self.scene())
        let simulation = ["--duration", "1", "--integrator", "dopri5", "--tolerance", "1e-10"]
        let sweep = try CLI.run(
            ["sweep", "--scene", base, "--set", "\(path)=\(value),\(value * 1.1)", "--metrics", "final_position"]
                + simulation)
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let rows = Self.rows(sweep.stdout)
        #expect(rows.count == 2)
        for (row, set) in zip(rows, [value, value * 1.1]) {
            let written = try file(Self.scene([key: set]))
            let run = try CLI.run(["simulate", "--scene", written] + simulation)
            #expect(run.status == 0, "\(run.stderr)")
            let last = try #require(Self.rows(run.stdout).last)
            for column in ["ball.one.x", "ball.one.y", "b.x", "b.y"] {
                let body = column.dropLast(2), axis = column.suffix(1)
                #expect(row["\(body).final_\(axis)"] == last[column], "\(path) = \(set): \(column)")
            }
            #expect(Double(row[path] ?? "") == set)
        }
    }

    /// A path the scene does not have is refused before any row, naming it and listing what the
    /// scene offers at that level.
    @Test(arguments: [
        ("bodies.ball.two.mass", "the scene has no body 'ball'; its bodies: ball.one, b"),
        ("bodies.b.mas", "a body's fields: mass, radius, position.0–1, velocity.0–1"),
        ("bodies.ball.one", "a body's fields: mass, radius, position.0–1, velocity.0–1"),
        ("bodies", "name a body and its field; the scene's bodies: ball.one, b"),
        ("springs.0", "a spring's fields: stiffness, damping, restLength, anchor.0–1"),
        ("bodies.b.position.2", "'position' has components position.0–1 in this 2-D scene"),
        ("springs.2.stiffness", "the scene has no spring '2'; its springs (by index): 0, 1"),
        ("springs.1.anchor.0", "spring 1 joins two bodies: no anchor"),
        ("planes.ceiling.offset", "the scene has no plane 'ceiling'; its planes: floor, plane2"),
        ("contacts.mass", "contacts' fields: restitution, friction"),
        ("gravity.3", "'gravity' has components gravity.0–1"),
        ("mass", "the scene's fields: bodies, springs, planes, contacts, gravity.0–1, drag, restVelocity")
    ])
    func unknownPathsSayWhatTheSceneOffers(path: String, message: String) throws {
        let outputs = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: outputs) }
        let output = outputs.appendingPathComponent("out.csv").path
        let result = try CLI.run([
            "sweep", "--scene", try file(Self.scene()), "--set", "\(path)=1,2", "--duration", "1", "-o", output
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("'--set' path '\(path)'") && result.stderr.contains(message), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outputs.path).isEmpty)
    }

    /// A ball dropped from 1 m onto a floor of restitution e: impact n at t1·(1 + 2e(1 − eⁿ⁻¹)/(1 − e)),
    /// t1 = √(2h/g); between impacts, parabolas leaving at eⁿ·√(2gh); the energy after n impacts
    /// is e²ⁿ of the start's.
    @Test func dropMetricsFollowTheClosedForm() throws {
        let drop = try file(
            #"{"dimensions": 1, "bodies": [{"name": "ball", "position": [1]}], "gravity": [-9.81],"#
                + #" "planes": [{"name": "floor", "normal": [1], "restitution": 0.5}]}"#)
        let duration = 1.5, g = 9.81
        let result = try CLI.run([
            "sweep", "--scene", drop, "--set", "planes.floor.restitution=0.6,0.8", "--duration", "\(duration)",
            "--integrator", "dopri5", "--tolerance", "1e-12",
            "--metrics", "impacts,last_impact,final_position,peak_speed,energy_drift"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.hasPrefix(
                "planes.floor.restitution,ball.impacts,ball.last_impact,ball.final_x,ball.peak_speed,energy_drift\n"))
        for row in Self.rows(result.stdout) {
            let e = try #require(Double(row["planes.floor.restitution"] ?? ""))
            let t1 = (2 / g).squareRoot(), v1 = (2 * g).squareRoot()
            let impacts = (1...20).map { n in t1 * (1 + 2 * e * (1 - Foundation.pow(e, Double(n - 1))) / (1 - e)) }
                .filter { $0 <= duration }
            /// Position and velocity at t.
            func state(_ t: Double) -> (Double, Double) {
                guard let n = impacts.lastIndex(where: { $0 <= t }) else { return (1 - g * t * t / 2, -g * t) }
                let s = t - impacts[n], v0 = Foundation.pow(e, Double(n + 1)) * v1
                return (v0 * s - g * s * s / 2, v0 - g * s)
            }
            #expect(Int(row["ball.impacts"] ?? "") == impacts.count)
            #expect(abs((Double(row["ball.last_impact"] ?? "") ?? .nan) - impacts.last!) <= 1e-9)
            #expect(abs((Double(row["ball.final_x"] ?? "") ?? .nan) - state(duration).0) <= 1e-8)
            let samples = (0...90).map { Double($0) / 60 }
            let peak = samples.map { abs(state($0).1) }.max()!
            #expect(abs((Double(row["ball.peak_speed"] ?? "") ?? .nan) - peak) <= 1e-8)
            let (x, v) = state(duration)
            let expected = (v * v / 2 + g * x) / g - 1  // E/E0 − 1, E0 = m·g·h with h = 1
            #expect(abs((Double(row["energy_drift"] ?? "") ?? .nan) - expected) <= 1e-9, "e = \(e)")
        }
    }

    /// A critically damped body on an anchored spring, from 1 to 0 (k = 100, m = 1: x = (1 + ωt)e^(−ωt)):
    /// the settling time is the first sample after which speed and distance from the final
    /// position stay within --settle-speed and --settle-distance.
    @Test func settlingTimeFollowsTheThresholds() throws {
        let spring = try file(
            #"{"dimensions": 1, "bodies": [{"name": "mass", "position": [1]}],"#
                + #" "springs": [{"body": "mass", "anchor": [0], "stiffness": 100, "damping": 20}]}"#)
        let result = try CLI.run([
            "sweep", "--scene", spring, "--duration", "3", "--integrator", "dopri5", "--tolerance", "1e-12",
            "--set", "bodies.mass.mass=1,1", "--metrics", "settling_time", "--settle-speed", "0.05",
            "--settle-distance", "0.002"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let ω = 10.0, times = (0...180).map { Double($0) / 60 }
        let x = { (t: Double) in (1 + ω * t) * Foundation.exp(-ω * t) },
            v = { (t: Double) in -ω * ω * t * Foundation.exp(-ω * t) }
        let last = times.lastIndex { abs(v($0)) > 0.05 || abs(x($0) - x(3)) > 0.002 }!
        for row in Self.rows(result.stdout) {
            #expect(Double(row["mass.settling_time"] ?? "") == times[last + 1], "\(row)")
        }
    }

    /// --metrics picks columns in its order; the values are those of the full row.
    @Test func metricsPickColumns() throws {
        let grid = ["sweep", "--spring", "--stiffness", "100:300:100", "--damping-ratio", "0.2,0.9", "--duration", "1"]
        let full = Self.rows(try CLI.run(grid).stdout)
        let picked = try CLI.run(grid + ["--metrics", "final_error,settling_time,overshoot"])
        #expect(picked.status == 0, "\(picked.stderr)")
        #expect(picked.stdout.hasPrefix("stiffness,damping_ratio,final_error,settling_time,overshoot\n"))
        let rows = Self.rows(picked.stdout)
        #expect(rows.count == full.count && rows.count == 6)
        for (row, whole) in zip(rows, full) {
            for column in ["stiffness", "damping_ratio", "final_error", "settling_time", "overshoot"] {
                #expect(row[column] == whole[column])
            }
        }
        for (arguments, message) in [
            (["--metrics", "settling_time,impacts"], "'--metrics' names 'impacts', which is not a metric of --spring"),
            (["--metrics", "steps,steps"], "'--metrics' must be each metric once"),
            (["--settle-speed", "0.1"], "'--settle-speed' applies to '--scene' sweeps")
        ] {
            let result = try CLI.run(grid + arguments)
            #expect(result.status == 1 && result.stderr.contains(message), "\(result.stderr)")
        }
        let set = try CLI.run(grid + ["--set", "drag=1"])
        #expect(set.status == 1 && set.stderr.contains("'--set' needs '--scene FILE'"), "\(set.stderr)")
    }

    /// A scene sweep's bytes do not depend on the thread count or on sharding.
    @Test func sceneRowsAreTheSameForAnyThreadsAndShards() throws {
        let sweep = [
            "sweep", "--scene", try file(Self.scene()), "--set", "bodies.b.velocity.0=-1:1:0.25",
            "--set", "contacts.restitution=0.5,1", "--duration", "0.5"
        ]
        let one = try CLI.run(sweep + ["--threads", "1"]), two = try CLI.run(sweep + ["--threads", "2"])
        #expect(one.status == 0 && one.stdout == two.stdout, "\(one.stderr)")
        #expect(one.stdout.split(separator: "\n").count == 19)
        var shards = ""
        for i in 1...3 {
            let shard = try CLI.run(sweep + ["--shard", "\(i)/3"]).stdout
            shards += i == 1 ? shard : String(shard.drop { $0 != "\n" }.dropFirst())
        }
        #expect(shards == one.stdout)
    }
}
