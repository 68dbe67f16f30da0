import Foundation
import Testing

/// `kinema keyframes --scene … --canvas`: one track per body, numbers sized to the tolerance.
struct CanvasCommandTests {
    static let scene = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../examples/ball-on-spring-2d.json").standardized.path
    static let flags = ["keyframes", "--scene", scene, "--duration", "2", "--canvas", "640x480"]

    /// One body, named; x and y on the same keyTimes; its size in bytes stated; no number longer
    /// than the tolerance needs in the keyframes (and no -0).
    @Test func oneBodyOneTrackInPixels() throws {
        let result = try CLI.run(Self.flags + ["--pixel-tolerance", "0.25"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(json["bytes"] as? Int == result.stdout.utf8.count)
        #expect((json["maxError"] as! Double) <= 0.25)
        let bodies = json["bodies"] as! [[String: Any]]
        #expect(bodies.count == 1 && bodies[0]["name"] as? String == "ball")
        let keyTimes = bodies[0]["keyTimes"] as! [Double]
        #expect(
            (bodies[0]["x"] as! [Double]).count == keyTimes.count
                && (bodies[0]["y"] as! [Double]).count == keyTimes.count)
        let body = result.stdout[result.stdout.range(of: "\"keyTimes\"")!.lowerBound...]
        let longest = body.split { !"0123456789.-".contains($0) }.map { $0.filter(\.isNumber).count }.max()!
        #expect(longest <= 9 && !body.contains("-0,") && !body.contains("-0]"))
        #expect(result.stderr.contains("1 body,") && result.stderr.contains("\(result.stdout.utf8.count) bytes"))
    }

    /// The CSS draws the body as a circle translated by its x and y; the Lottie document has one
    /// layer for it, a circle of its radius with split x and y position keyframes.
    @Test func cssAndLottieDrawOneShapePerBody() throws {
        let css = try CLI.run(Self.flags + ["--format", "css"])
        #expect(css.stdout.contains("@keyframes kinema-ball-x {") && css.stdout.contains("@keyframes kinema-ball-y {"))
        #expect(css.stdout.contains(".kinema-ball {") && css.stdout.contains("border-radius: 50%"))
        let lottie = try CLI.run(Self.flags + ["--format", "lottie"])
        let document = try JSONSerialization.jsonObject(with: Data(lottie.stdout.utf8)) as! [String: Any]
        let layers = document["layers"] as! [[String: Any]]
        #expect(layers.count == 1 && layers[0]["nm"] as? String == "ball")
        #expect(document["w"] as? Int == 640 && document["h"] as? Int == 480)
        #expect(lottie.stdout.contains("\"p\":{\"s\":true,\"x\":{\"a\":1") && lottie.stdout.contains("\"ty\":\"el\""))
    }

    @Test(arguments: [
        (["--canvas", "640"], "'--canvas' must be 'WxH'"),
        (["--canvas", "640x480", "--origin", "1,2"], "'--origin' needs '--pixels-per-unit'"),
        (["--canvas", "640x480", "--format", "js"], "json, css, lottie, swift or swiftui with '--canvas'"),
        (["--canvas", "640x480", "--pixel-tolerance", "0"], "--pixel-tolerance"),
        (["--canvas", "640x480", "--strategy", "turning-points"], "adaptive or uniform with '--canvas'"),
        (["--pixels-per-unit", "100"], "'--pixels-per-unit' applies to '--canvas' only"),
        // A fraction of the travel means nothing on a canvas: refused, not ignored.
        (
            ["--canvas", "640x480", "--tolerance", "0.01"],
            "'--canvas' bounds the error in pixels with '--pixel-tolerance'"
        ),
        (["--canvas", "0x480"], "'--canvas' must be 'WxH' with a width of 1 to 16384 pixels (got '0x480')"),
        // A tolerance below the positions' rounding: refused at once (it ran a minute to ∞ px).
        (["--canvas", "640x480", "--pixels-per-unit", "1e300"], "'--pixel-tolerance' must be at least 1e-09 ×")
    ])
    func misuseIsRefused(_ extra: [String], _ message: String) throws {
        let result = try CLI.run(["keyframes", "--scene", Self.scene, "--duration", "1"] + extra)
        #expect(result.status != 0 && result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func aOneDimensionalMotionOrAnEasingIsRefused() throws {
        let drop = try CLI.run(["keyframes", "--drop", "--canvas", "640x480"])
        #expect(drop.status != 0 && drop.stderr.contains("'--canvas' draws x and y"))
        let easing = try CLI.run(["keyframes", "--easing", "bounce-out", "--canvas", "640x480"])
        #expect(easing.status != 0 && easing.stderr.contains("not an easing"))
    }
}
