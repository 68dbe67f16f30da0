import Foundation
import Testing

/// The analytic damped spring, written out here (independent of the library).
private func analytic(k: Double, c: Double, x0: Double, target: Double, v0: Double, t: Double) -> (Double, Double) {
    let w0 = sqrt(k), zeta = c / (2 * sqrt(k)), a = x0 - target
    func x(_ t: Double) -> Double {
        if zeta < 1 {
            let wd = w0 * sqrt(1 - zeta * zeta)
            return target + exp(-zeta * w0 * t) * (a * cos(wd * t) + (v0 + zeta * w0 * a) / wd * sin(wd * t))
        } else if zeta == 1 {
            return target + exp(-w0 * t) * (a + (v0 + w0 * a) * t)
        }
        let r1 = -w0 * (zeta - sqrt(zeta * zeta - 1)), r2 = -w0 * (zeta + sqrt(zeta * zeta - 1))
        let c2 = (v0 - r1 * a) / (r2 - r1)
        return target + (a - c2) * exp(r1 * t) + c2 * exp(r2 * t)
    }
    let h = 1e-5
    return (x(t), (x(t + h) - x(t - h)) / (2 * h))
}

struct SimulateCommandTests {
    @Test(arguments: [("100", "2"), ("100", "20"), ("100", "60")], ["exact", "dopri5", "adams"])
    func followsTheAnalyticSpring(spring: (k: String, c: String), integrator: String) throws {
        var arguments = [
            "simulate", "--spring", "--stiffness", spring.k, "--damping", spring.c, "--from", "-1", "--to", "2",
            "--velocity", "7", "--duration", "1.3", "--integrator", integrator
        ]
        if integrator == "dopri5" { arguments += ["--tolerance", "1e-11"] }
        if integrator == "adams" { arguments += ["--order", "10", "--dt", "0.001"] }
        let (header, rows) = try CLI.csv(arguments)
        #expect(header == ["t", "x", "v"])
        #expect(rows.last![0] == 1.3)
        #expect(rows.count == 79)  // 0, 1/60, …, 77/60, then 1.3 (= 78/60)
        for row in rows {
            let (x, _) = analytic(k: Double(spring.k)!, c: Double(spring.c)!, x0: -1, target: 2, v0: 7, t: row[0])
            #expect(abs(row[1] - x) <= 1e-9, "t = \(row[0])")
        }
    }

    @Test func dropWritesItsImpactsAndStaysAboveTheFloor() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = directory.appendingPathComponent("events.csv").path
        let (header, rows) = try CLI.csv([
            "simulate", "--drop", "--restitution", "0.8", "--sample-rate", "1000", "--events", events
        ])
        #expect(header == ["t", "x", "v"])
        #expect(abs(rows.last![0] - sqrt(2 / 9.81) * 1.8 / 0.2) <= 1e-12)  // default duration: the time to rest
        for row in rows { #expect(row[1] >= -1e-12) }
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        #expect(lines[0] == "t,body,collider,speed_in,speed_out")
        let first = lines[1].split(separator: ",")
        #expect(abs(Double(first[0])! - sqrt(2 / 9.81)) <= 1e-9)
        #expect(first[1] == "ball" && first[2] == "floor")
        #expect(abs(Double(first[3])! - sqrt(2 * 9.81)) <= 1e-9)
        #expect(abs(Double(first[4])! - 0.8 * sqrt(2 * 9.81)) <= 1e-9)
    }

    @Test func twoDimensionalSceneHasAColumnPerBodyAxis() throws {
        let scene = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/ball-on-spring-2d.json").path
        let (header, rows) = try CLI.csv(["simulate", "--scene", scene, "--duration", "1"])
        #expect(header == ["t", "ball.x", "ball.y", "ball.vx", "ball.vy"])
        #expect(rows.count == 61)
        for row in rows { #expect(row[2] >= 0.05 - 1e-12) }  // the ball's radius keeps it above the floor
    }

    /// 40 links hung from a static pin (123 coordinates: once refused, now in flat storage), through
    /// the CLI with Kinema's in-place DOP853 and with GSL's rk8pd: the two agree and the pin stays.
    @Test func largeSceneWithAStaticPinAgreesWithGSL() throws {
        let scene = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/hanging-chain-40.json").path
        let common = ["simulate", "--scene", scene, "--duration", "0.5", "--sample-rate", "20", "--tolerance", "1e-10"]
        let kinema = try CLI.csv(common + ["--integrator", "dop853"])
        let gsl = try CLI.csv(common + ["--integrator", "gsl-rk8pd"])
        #expect(kinema.header.count == 1 + 41 * 6 && kinema.header == gsl.header)
        #expect(kinema.header[1...3] == ["pin.x", "pin.y", "pin.z"])
        #expect(kinema.rows.count == 11 && gsl.rows.count == 11)
        var worst = 0.0
        for (a, b) in zip(kinema.rows, gsl.rows) {
            #expect(a[1] == 0 && a[2] == 0 && a[3] == 2)  // the pin
            for column in 1..<a.count { worst = max(worst, abs(a[column] - b[column])) }
        }
        #expect(worst <= 1e-6)
        #expect(kinema.rows.last![1 + 40 * 6 + 2] < 2 - 0.1, "the far end has fallen")
    }

    @Test func frameDrivenRunPrintsOneRowPerFrame() throws {
        let (_, rows) = try CLI.csv([
            "simulate", "--spring", "--stiffness", "170", "--damping", "26", "--integrator", "rk4",
            "--frame-rate", "120", "--frame-jitter", "0.3", "--seed", "3", "--duration", "1"
        ])
        #expect(rows.count > 90 && rows.count < 175)
        #expect(rows.last![0] == 1)
        for row in rows {
            let (x, _) = analytic(k: 170, c: 26, x0: 0, target: 1, v0: 0, t: row[0])
            #expect(abs(row[1] - x) <= 1e-6)
        }
        let again = try CLI.csv([
            "simulate", "--spring", "--stiffness", "170", "--damping", "26", "--integrator", "rk4",
            "--frame-rate", "120", "--frame-jitter", "0.3", "--seed", "3", "--duration", "1"
        ])
        #expect(again.rows == rows)
    }

    @Test func unstableRunIsRefusedWithTheLargestStableStep() throws {
        let result = try CLI.run([
            "simulate", "--spring", "--stiffness", "40000", "--damping", "0", "--integrator", "rk4",
            "--dt", "\(1.0 / 60)", "--duration", "2"
        ])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(result.stderr.contains("unstable") && result.stderr.contains("0.0141421356237309"))
    }
}

struct SimulateBadInputTests {
    static let scenes: [(name: String, text: String, mentions: [String])] = [
        ("truncated", "{\"dimensions\": 1, \"bodies\": [", ["line 1, column 30", "unexpected end"]),
        (
            "unknown-key",
            "{\n  \"dimensions\": 1,\n  \"bodies\": [{\"name\": \"a\", \"position\": [0], \"colour\": 1}]\n}",
            ["line 3", "unknown key 'colour'"]
        ),
        ("not-json", "dimensions = 1", ["line 1, column 1", "invalid JSON"]),
        (
            "bad-restitution",
            "{\"dimensions\": 1, \"bodies\": [{\"name\": \"a\", \"position\": [1]}],\n \"planes\": [{\"normal\": [1], \"restitution\": 1.5}]}",
            ["line 2", "restitution", "1.5"]
        )
    ]

    @Test(arguments: scenes.map(\.name))
    func badSceneFilesNameTheirLineAndColumn(_ name: String) throws {
        let entry = Self.scenes.first { $0.name == name }!
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("\(name).json").path
        try entry.text.write(toFile: path, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out.csv").path
        let result = try CLI.run(["simulate", "--scene", path, "--duration", "1", "-o", out])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        for word in entry.mentions { #expect(result.stderr.contains(word), "'\(word)' missing from \(result.stderr)") }
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["\(name).json"])
    }

    @Test(arguments: [
        (["--spring", "--mass", "-1", "--stiffness", "1", "--damping", "1"], "--mass"),
        (["--spring", "--mass", "0", "--stiffness", "1", "--damping", "1"], "--mass"),
        (["--drop", "--restitution", "1.5"], "--restitution"),
        (["--drop", "--restitution", "-0.1"], "--restitution"),
        (["--drop", "--height", "-1"], "--height"),
        (["--drop", "--integrator", "rk4", "--dt", "0"], "--dt"),
        (["--drop", "--integrator", "rk4", "--dt", "-0.01"], "--dt"),
        (["--drop", "--tolerance", "-1"], "--tolerance"),
        (["--drop", "--duration", "0"], "--duration"),
        (["--drop", "--duration", "nan"], "--duration"),
        (["--drop", "--sample-rate", "0"], "--sample-rate"),
        (["--drop", "--integrator", "leapfrog"], "--integrator"),
        (["--drop", "--restitution", "1"], "--duration"),
        (["--scene", "/nonexistent/scene.json", "--duration", "1"], "--scene"),
        (["--drop", "--frame-rate", "60", "--frame-jitter", "1"], "--frame-jitter"),
        (["--spring", "--stiffness", "10", "--damping", "1", "--height", "2"], "--height"),
        (
            ["--spring", "--stiffness", "400", "--damping", "4", "--integrator", "gsl-rkf45", "--tolerance", "1e-300"],
            "tolerance"
        ),
        (["--spring", "--stiffness", "400", "--damping", "4", "--integrator", "gsl-msbdf", "--dt", "0.01"], "--dt"),
        (
            ["--spring", "--stiffness", "400", "--damping", "4", "--integrator", "gsl-rk4", "--frame-rate", "60"],
            "--frame-rate"
        )
    ])
    func badFlagsAreOneLineAndLeaveNoFile(arguments: [String], flag: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.csv").path
        let result = try CLI.run(
            ["simulate"] + arguments + ["-o", out, "--events", directory.appendingPathComponent("e.csv").path])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(flag), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func unwritableOutputIsOneLine() throws {
        let result = try CLI.run(["simulate", "--drop", "-o", "/nonexistent-dir/out.csv"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("-o") && result.stderr.split(separator: "\n").count == 1)
    }
}
