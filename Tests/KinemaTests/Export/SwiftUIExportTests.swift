import Foundation
import Testing

@testable import Kinema

/// The SwiftUI exports read back as SwiftUI documents its keyframes: a `LinearKeyframe(to,
/// duration:, timingCurve:)` goes from the track's last value to `to` over `duration`, its
/// progress eased by the `UnitCurve.bezier` (a cubic-bezier timing function; nothing of the
/// exporter's is used to evaluate it), measured against the closed form and the simulation.
@Suite struct SwiftUIExportTests {
    /// One track of the export: its start and each keyframe's value, duration and curve.
    struct Track {
        var start: Double
        var keyframes: [(to: Double, duration: Double, curve: CubicBezierTimingFunction)]

        /// The value at time `t` (seconds), as SwiftUI plays the track.
        func value(at t: Double) -> Double {
            var from = start, begin = 0.0
            for k in keyframes {
                if t <= begin + k.duration {
                    let progress = k.duration > 0 ? min(max((t - begin) / k.duration, 0), 1) : 1
                    return from + (k.to - from) * k.curve.value(at: progress)
                }
                from = k.to
                begin += k.duration
            }
            return from
        }
    }

    /// The tracks in `text`, in order, each starting from `starts[i]`.
    static func tracks(_ text: String, starts: [Double]) throws -> [Track] {
        let number = "(-?[0-9.e-]+)"
        let keyframe = try Regex(
            "LinearKeyframe\\(\(number), duration: \(number)(, timingCurve: \\.bezier\\(startControlPoint: UnitPoint\\(x: "
                + "\(number), y: \(number)\\), endControlPoint: UnitPoint\\(x: \(number), y: \(number)\\)\\))?\\)")
        let blocks = text.components(separatedBy: "KeyframeTrack(").dropFirst()
        return try zip(blocks, starts).map { block, start in
            let keyframes = try block.matches(of: keyframe).map { m -> (Double, Double, CubicBezierTimingFunction) in
                let field = { (i: Int) in m.output[i].substring.flatMap { Double($0) } }
                // Groups 4 to 7 are the curve's controls, where the keyframe has one (group 3).
                let curve =
                    try field(4).map {
                        try CubicBezierTimingFunction(x1: $0, y1: field(5)!, x2: field(6)!, y2: field(7)!)
                    }
                    ?? .linear
                return (field(1)!, field(2)!, curve)
            }
            return Track(start: start, keyframes: keyframes)
        }
    }

    /// A damped cosine baked to 1e-3 plays, as SwiftUI would, within the error the export states
    /// (the fit's and the rounding's), itself within the bound; its durations add up to 1 s.
    @Test func aLinearKeyframeTrackPlaysTheFit() throws {
        let source = try MotionSource(easing: try Easing(name: "damped-cosine(5,30)"), duration: 1)
        let fit = try KeyframeBaker.bake(source, tolerance: 1e-3)
        let text = KeyframeExport.swiftUI(fit, name: "jelly")
        let track = try #require(try Self.tracks(text, starts: [0]).first)
        #expect(track.keyframes.count == fit.keyframeCount - 1)
        #expect(abs(track.keyframes.map(\.duration).reduce(0, +) - 1) <= 1e-12)
        let worst = (0...4_000).map { i -> Double in
            let t = Double(i) / 4_000
            return abs(track.value(at: t) - (1 - exp(-5 * t) * cos(30 * t)))
        }.max()!
        let stated = try #require(Double(text.components(separatedBy: "max error ")[1].prefix { $0 != "\n" }))
        #expect(worst <= stated * (1 + 1e-9) && stated <= 1e-3 * 1.60063, "\(worst) of \(stated)")
    }

    /// Three balls in a box on an 800 × 600 canvas: each ball's x and y tracks, read as SwiftUI
    /// plays them, within the export's stated error (pixels) of the simulated centre.
    @Test func aSceneExportsEachBodysXAndYTracks() throws {
        let trajectory = try Simulation(scene: try SceneKeyframesTests.box())
            .run(method: .dopri5(tolerance: 1e-11), duration: 3, sampleRate: 400)
        let mapping = try CanvasMapping.fitting(trajectory, width: 800, height: 600)
        let baked = try SceneKeyframes(trajectory: trajectory, mapping: mapping, tolerance: 0.5)
        let text = KeyframeExport.swiftUI(baked, name: "box")
        #expect(text.contains("struct BoxValues {") && text.contains("var red = CGPoint(x: "))
        #expect(text.contains("KeyframeTrack(\\BoxValues.red.x)") && text.contains("KeyframeTrack(\\BoxValues.blue.y)"))
        let starts = baked.bodies.flatMap { [$0.x.animation.values[0][0], $0.y.animation.values[0][0]] }
        let tracks = try Self.tracks(text, starts: starts)
        #expect(tracks.count == 6)
        for (b, body) in baked.bodies.enumerated() {
            var worst = 0.0
            for sample in 0..<trajectory.count {
                let t = trajectory.times[sample]
                let x = mapping.x(trajectory.position(atSample: sample, coordinate: 2 * b))
                let y = mapping.y(trajectory.position(atSample: sample, coordinate: 2 * b + 1))
                let dx = tracks[2 * b].value(at: t) - x, dy = tracks[2 * b + 1].value(at: t) - y
                worst = max(worst, (dx * dx + dy * dy).squareRoot())
            }
            #expect(worst <= baked.maxError + 1e-9, "\(body.name): \(worst) px")
        }
        #expect(baked.maxError <= 0.5)
    }
}
