import Foundation
import Testing

@testable import Kinema

private func seed(_ t: Double) -> Double { 1 - exp(-5 * t) * cos(30 * t) }

private func maxError(_ animation: KeyframeAnimation, _ f: (Double) -> Double) -> Double {
    var worst = 0.0
    for i in 0...20_000 {
        let t = animation.duration * Double(i) / 20_000
        worst = max(worst, abs(animation.value(at: t / animation.duration)[0] - f(t)))
    }
    return worst
}

/// Rebuilds the animation from `kinema keyframes --format json`.
private func animation(fromJSON text: String) throws -> (KeyframeAnimation, [String: Any]) {
    let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    let functions = try (json["timingFunctions"] as! [[Double]]).map {
        try CubicBezierTimingFunction(x1: $0[0], y1: $0[1], x2: $0[2], y2: $0[3])
    }
    let animation = try KeyframeAnimation(
        keyPath: json["keyPath"] as! String, values: (json["values"] as! [Double]).map { [$0] },
        keyTimes: json["keyTimes"] as? [Double], timingFunctions: functions,
        duration: json["duration"] as! Double)
    return (animation, json)
}

struct KeyframesCommandTests {
    @Test func jellySpringWithinOneThousandthInAtMostTwelve() throws {
        let result = try CLI.run(["keyframes", "--easing", "damped-cosine(5,30)", "--tolerance", "0.001"])
        #expect(result.status == 0, "\(result.stderr)")
        let (animation, json) = try animation(fromJSON: result.stdout)
        #expect(animation.keyframeCount <= 12 && (json["keyframeCount"] as! Int) == animation.keyframeCount)
        #expect(maxError(animation, seed) <= 1e-3)
        #expect((json["maxError"] as! Double) <= 1e-3)
        for f in animation.timingFunctions { for c in [f.x1, f.y1, f.x2, f.y2] { #expect(c >= 0 && c <= 1) } }
    }

    /// A spring's keyframes follow the spring, not its samples' interpolant, however short it is:
    /// against the closed form, within the tolerance (1e-3 of the travel) plus the closed form's
    /// own rounding, from a 0.6 s spring to a 20 µs one (two samples at 2,000 Hz, before).
    @Test(arguments: [1e2, 1e4, 1e8, 1e12])
    func springKeyframesFollowTheSpringAtAnyStiffness(stiffness: Double) throws {
        let result = try CLI.run(["keyframes", "--spring", "--stiffness", "\(stiffness)", "--damping-ratio", "0.3"])
        #expect(result.status == 0, "\(result.stderr)")
        let (animation, _) = try animation(fromJSON: result.stdout)
        let exact = try DampedSpring(stiffness: stiffness, dampingRatio: 0.3).motion(from: 0, to: 1, initialVelocity: 0)
        #expect(animation.keyframeCount > 2)
        #expect(maxError(animation, exact.position(at:)) <= 1.01e-3)
    }

    /// A bake above its tolerance says so on stderr, and why; one within it says nothing there.
    @Test func aToleranceTheBakeMissesIsReported() throws {
        let pinned = try CLI.run(["keyframes", "--easing", "expo-out", "--tolerance", "1e-6"])
        #expect(pinned.status == 0 && !pinned.stdout.isEmpty)
        #expect(
            pinned.stderr.hasPrefix("keyframes: value: max error 0.0009765")
                && pinned.stderr.contains("above 1e-06")
                && pinned.stderr.contains("value at t = 1.0 is 0.0009765625 from its limit"),
            "\(pinned.stderr)")
        let floor = try CLI.run(["keyframes", "--easing", "cubic-bezier(1,0,0,1)", "--tolerance", "1e-14"])
        #expect(floor.status == 0 && floor.stderr.contains("pieces shorter than"), "\(floor.stderr)")
        let met = try CLI.run(["keyframes", "--easing", "expo-out", "--tolerance", "1e-3"])
        #expect(met.status == 0 && met.stderr.isEmpty, "\(met.stderr)")
    }

    @Test func uniformSixtyFramesPerSecond() throws {
        let result = try CLI.run([
            "keyframes", "--easing", "damped-cosine(5,30)", "--strategy", "uniform", "--fps", "60"
        ])
        let (animation, json) = try animation(fromJSON: result.stdout)
        #expect(animation.keyframeCount == 61 && animation.keyTimes.last == 1)
        let reported = json["maxError"] as! Double
        #expect(abs(reported - 2.6e-2) <= 1e-3)
        #expect(abs(maxError(animation, seed) - reported) <= 1e-4)
    }

    /// `@keyframes` parsed back (percentages, values, cubic-bezier controls) evaluates to the curve.
    @Test func cssParsesBack() throws {
        let text = try CLI.run(["keyframes", "--easing", "damped-cosine(5,30)", "--format", "css"]).stdout
        var keyTimes: [Double] = [], values: [Double] = [], functions: [CubicBezierTimingFunction] = []
        for line in text.split(separator: "\n") where line.contains("% {") {
            let percent = line.split(separator: "%")[0].trimmingCharacters(in: .whitespaces)
            keyTimes.append(Double(percent)! / 100)
            let value = line.components(separatedBy: "--value: ")[1].split(separator: ";")[0]
            values.append(Double(value)!)
            if let range = line.range(of: "cubic-bezier(") {
                let numbers = line[range.upperBound...].split(separator: ")")[0].split(separator: ",").map {
                    Double($0.trimmingCharacters(in: .whitespaces))!
                }
                functions.append(
                    try CubicBezierTimingFunction(x1: numbers[0], y1: numbers[1], x2: numbers[2], y2: numbers[3]))
            }
        }
        #expect(keyTimes.first == 0 && keyTimes.last == 1)
        let animation = try KeyframeAnimation(
            values: values.map { [$0] }, keyTimes: keyTimes, timingFunctions: functions)
        #expect(maxError(animation, seed) <= 1e-3)
        #expect(text.contains("@property --value"))
    }

    /// The linear() easing parsed back (outputs and percentages), scaled by the printed end values,
    /// follows the closed form within the tolerance, and a tighter tolerance places more points.
    @Test(arguments: [1e-3, 1e-4])
    func cssLinearEasingParsesBack(_ tolerance: Double) throws {
        let text = try CLI.run([
            "keyframes", "--easing", "damped-cosine(5,30)", "--format", "css", "--tolerance", "\(tolerance)"
        ]).stdout
        let line = try #require(
            text.split(separator: "\n").first {
                $0.hasPrefix(".kinema-value-linear { animation: kinema-value-linear 1.0s linear(")
            })
        let ends = try #require(text.split(separator: "\n").first { $0.hasPrefix("@keyframes kinema-value-linear") })
        let to = try #require(Double(ends.components(separatedBy: "to { --value: ")[1].split(separator: ";")[0]))
        let stops = line.components(separatedBy: "linear(")[1].split(separator: ")")[0].split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).split(separator: " ")
        }
        let outputs = stops.compactMap { Double($0[0]) },
            progress = stops.compactMap { Double($0[1].dropLast()).map { $0 / 100 } }
        #expect(
            outputs.count == stops.count && progress.count == stops.count && progress.first == 0 && progress.last == 1)
        let animation = try KeyframeAnimation(values: outputs.map { [$0 * to] }, keyTimes: progress)
        #expect(maxError(animation, seed) <= tolerance * to * (1 + 1e-9))
        // The old fixed 101 even points were 1e-2 off; at 1e-4 the easing needs more than at 1e-3.
        #expect(tolerance < 1e-3 ? stops.count > 150 : stops.count < 150)
    }

    /// A playable document: the composition at --fps, one layer named by the key path, its x
    /// position mapped by --lottie-range, each keyframe's handles its segment's controls.
    @Test func lottieDocumentEvaluates() throws {
        let text = try CLI.run([
            "keyframes", "--easing", "damped-cosine(5,30)", "--format", "lottie", "--fps", "30",
            "--lottie-range", "100:300"
        ]).stdout
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        #expect(json["fr"] as? Double == 30 && json["ip"] as? Double == 0 && json["op"] as? Double == 31)
        #expect(json["w"] as? Int == 512 && json["v"] is String)
        let layers = json["layers"] as! [[String: Any]]
        #expect(layers.count == 1 && layers[0]["nm"] as? String == "value" && layers[0]["ty"] as? Int == 4)
        let transform = layers[0]["ks"] as! [String: Any], position = transform["p"] as! [String: Any]
        let frames = (position["x"] as! [String: Any])["k"] as! [[String: Any]]
        let keyTimes = frames.map { ($0["t"] as! Double) / 30 }
        let values = frames.map { [(($0["s"] as! [Double])[0] - 100) / 200] }
        let functions = try frames.dropLast().map { frame -> CubicBezierTimingFunction in
            let o = frame["o"] as! [String: [Double]], i = frame["i"] as! [String: [Double]]
            return try CubicBezierTimingFunction(x1: o["x"]![0], y1: o["y"]![0], x2: i["x"]![0], y2: i["y"]![0])
        }
        let animation = try KeyframeAnimation(values: values, keyTimes: keyTimes, timingFunctions: functions)
        #expect(maxError(animation, seed) <= 1e-3)
        let tracks = (json["meta"] as! [String: Any])["tracks"] as! [[String: Any]]
        #expect(abs((tracks[0]["maxError"] as! Double) - maxError(animation, seed)) <= 1e-4)
    }

    /// --value-scale and --value-offset: every format takes the values in the layer's units, the
    /// timing unchanged; read back, the export plays offset + scale × the closed form within the
    /// scaled tolerance. Lottie then maps nothing more (its default range is for values 0 → 1).
    @Test(arguments: [("300", 20.0, 300.0), ("percent", 0, 100), ("degrees", -90, 180 / Double.pi), ("-2", 5, -2)])
    func valuesMapOntoTheLayersUnits(_ scale: String, _ offset: Double, _ factor: Double) throws {
        let flags = [
            "keyframes", "--easing", "damped-cosine(5,30)", "--value-scale", scale, "--value-offset", "\(offset)"
        ]
        let (animation, json) = try animation(fromJSON: try CLI.run(flags).stdout)
        let mapped = { (t: Double) in offset + factor * seed(t) }
        let travel = 1.60063 * abs(factor)  // the damped cosine's range, from 0 to its first peak
        #expect(maxError(animation, mapped) <= (json["maxError"] as! Double) + 1e-12 * travel)
        #expect((json["maxError"] as! Double) <= 1e-3 * travel)
        let lottie =
            try JSONSerialization.jsonObject(
                with: Data(try CLI.run(flags + ["--format", "lottie"]).stdout.utf8)) as! [String: Any]
        let layer = (lottie["layers"] as! [[String: Any]])[0]["ks"] as! [String: Any]
        let frames = ((layer["p"] as! [String: Any])["x"] as! [String: Any])["k"] as! [[String: Any]]
        let values = frames.map { ($0["s"] as! [Double])[0] }
        #expect(zip(values, animation.values).allSatisfy { abs($0 - $1[0]) <= 1e-9 * travel }, "\(values)")
    }

    /// By default numbers are rounded to the bound; --full-precision prints each as it is.
    @Test func fullPrecisionPrintsEveryDigit() throws {
        let base = ["keyframes", "--easing", "damped-cosine(5,30)", "--format", "css"]
        let rounded = try CLI.run(base).stdout, full = try CLI.run(base + ["--full-precision"]).stdout
        let long = try Regex("[0-9]\\.[0-9]{12,}")
        #expect(rounded.firstMatch(of: long) == nil && full.firstMatch(of: long) != nil)
        #expect(rounded.utf8.count < full.utf8.count * 3 / 4, "\(rounded.utf8.count) of \(full.utf8.count)")
    }

    /// --lottie-bare keeps the animated property alone; several tracks are one JSON array.
    @Test func lottieBareProperty() throws {
        let one = try CLI.run(["keyframes", "--easing", "bounce-out", "--format", "lottie", "--lottie-bare"]).stdout
        let property = try JSONSerialization.jsonObject(with: Data(one.utf8)) as! [String: Any]
        #expect(property["a"] as? Int == 1 && (property["k"] as? [Any])?.isEmpty == false)
        let scene = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../examples/two-balls-1d.json"
        ).path
        let two = try CLI.run(["keyframes", "--scene", scene, "--duration", "2", "--format", "lottie", "--lottie-bare"])
            .stdout
        #expect((try JSONSerialization.jsonObject(with: Data(two.utf8)) as? [Any])?.count == 2)
    }

    /// A key path with quotes, a backslash, an interpolation, a tab, line breaks and U+2028.
    static let awkwardKeyPath = "a\"b\\c\\(x)\td\ne\r\u{2028}f"

    @Test(arguments: ["swift", "swiftui"], ["position.x", awkwardKeyPath])
    func swiftSourceParses(_ format: String, keyPath: String) throws {
        let text = try CLI.run([
            "keyframes", "--spring", "--response", "0.5", "--bounce", "0.3", "--format", format, "--key-path", keyPath
        ]).stdout
        #expect(text.contains(format == "swift" ? "CAKeyframeAnimation(keyPath: " : "LinearKeyframe("))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kinema-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("export.swift")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let check = try Self.swiftc(["-typecheck", file.path], in: directory)
        #expect(check.status == 0, "\(check.errors)")
    }

    /// `--swiftui-name` names the declarations, so two exports can sit in one module.
    @Test func aSwiftUIExportTakesAName() throws {
        let flags = ["keyframes", "--spring", "--response", "0.5", "--bounce", "0.3", "--format", "swiftui"]
        let card = try CLI.run(flags + ["--swiftui-name", "card"]).stdout
        #expect(
            card.contains("struct CardValues {") && card.contains("func cardKeyframes() -> some Keyframes<CardValues>"))
        #expect(!card.contains("Kinema"))
        #expect(try CLI.run(flags).stdout.contains("struct KinemaValues {"))
    }

    /// The CAKeyframeAnimation source, built against QuartzCore's stand-in (Apple's documented
    /// signatures) and run: the animation it makes has the key path given, character for character.
    @Test func swiftSourceBuildsTheAnimationWithItsKeyPath() throws {
        let text = try CLI.run([
            "keyframes", "--easing", "ease-in", "--format", "swift", "--key-path", Self.awkwardKeyPath
        ]).stdout
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kinema-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let standIns = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("AppleStandIns")
        for module in ["CoreGraphics", "QuartzCore"] {
            let built = try Self.swiftc(
                [
                    "-parse-as-library", "-module-name", module, "-I", directory.path, "-emit-module", "-emit-library",
                    "-static", "-o", directory.appendingPathComponent("lib\(module).a").path,
                    "-emit-module-path", directory.appendingPathComponent("\(module).swiftmodule").path,
                    standIns.appendingPathComponent("\(module).swift").path
                ], in: directory)
            try #require(built.status == 0, "\(built.errors)")
        }
        try text.write(to: directory.appendingPathComponent("export.swift"), atomically: true, encoding: .utf8)
        try "import QuartzCore\nprint(makeAnimation().keyPath!.unicodeScalars.map { $0.value })\n".write(
            to: directory.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        let program = directory.appendingPathComponent("program").path
        let built = try Self.swiftc(
            [
                "-I", directory.path, "-L", directory.path, "-lQuartzCore", "-lCoreGraphics", "-o", program,
                "export.swift", "main.swift"
            ], in: directory)
        try #require(built.status == 0, "\(built.errors)")
        let run = Process()
        run.executableURL = URL(fileURLWithPath: program)
        let output = Pipe()
        run.standardOutput = output
        try run.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        run.waitUntilExit()
        #expect(printed == "\(Self.awkwardKeyPath.unicodeScalars.map(\.value))\n")
    }

    /// swiftc run in `directory`: its exit status and its errors.
    static func swiftc(_ arguments: [String], in directory: URL) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc"] + arguments
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, message)
    }

    @Test(arguments: [
        (["--easing", "linear", "--tolerance", "0"], "--tolerance"),
        (["--easing", "linear", "--strategy", "uniform", "--fps", "0"], "--fps"),
        (["--easing", "linear", "--format", "gif"], "--format"),
        (["--easing", "nope"], "'nope'"),
        (["--easing", "linear", "--strategy", "best"], "--strategy"),
        (["--easing", "linear", "--drop"], "--easing"),
        (["--easing", "linear", "--format", "lottie", "--lottie-property", "color"], "--lottie-property"),
        (["--easing", "linear", "--format", "lottie", "--lottie-range", "0:inf"], "--lottie-range"),
        (["--easing", "linear", "--format", "lottie", "--lottie-range", "5"], "--lottie-range")
    ])
    func badInputIsOneLine(arguments: [String], mention: String) throws {
        let result = try CLI.run(["keyframes"] + arguments)
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(mention), "\(result.stderr)")
    }
}
