import KinemaTestSupport
import Testing

@testable import Kinema

/// Bernstein form, written independently of the implementation's Horner form.
private func bernstein(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
    let u = 1 - s
    return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
}

/// The exact value, by plain bisection on x(s) = t to the last representable bracket.
private func referenceValue(_ f: CubicBezierTimingFunction, at t: Double) -> Double {
    var lower = 0.0, upper = 1.0
    for _ in 0..<2_000 {
        let middle = 0.5 * (lower + upper)
        if middle <= lower || middle >= upper { break }
        if bernstein(f.x1, f.x2, middle) < t { lower = middle } else { upper = middle }
    }
    return bernstein(f.y1, f.y2, 0.5 * (lower + upper))
}

/// Bounds |value − exact|: the requirement is 1e-12, not CA's duration-scaled 1/(200·duration).
private let valueTolerance = 1e-12

struct CubicBezierTimingFunctionTests {
    static let named: [CubicBezierTimingFunction] = [.linear, .easeIn, .easeOut, .easeInEaseOut, .default]

    @Test(arguments: named)
    func namedCurvesMatchTheExactSolution(_ f: CubicBezierTimingFunction) {
        for t in grid(0, 1, count: 2_001) {
            #expect(abs(f.value(at: t) - referenceValue(f, at: t)) <= valueTolerance, "t = \(t)")
        }
    }

    @Test func namedCurvesHaveCoreAnimationsControlPoints() {
        #expect([Self.named[1].x1, Self.named[1].y1, Self.named[1].x2, Self.named[1].y2] == [0.42, 0, 1, 1])
        #expect([Self.named[2].x1, Self.named[2].y1, Self.named[2].x2, Self.named[2].y2] == [0, 0, 0.58, 1])
        #expect([Self.named[3].x1, Self.named[3].y1, Self.named[3].x2, Self.named[3].y2] == [0.42, 0, 0.58, 1])
        #expect([Self.named[4].x1, Self.named[4].y1, Self.named[4].x2, Self.named[4].y2] == [0.25, 0.1, 0.25, 1])
    }

    /// CSS's named timing functions parse to the control points CSS Easing Functions Level 1 gives
    /// them (`ease` is Core Animation's default; the others share Core Animation's names).
    @Test(arguments: [
        ("ease", [0.25, 0.1, 0.25, 1.0]), ("ease-in", [0.42, 0, 1, 1]), ("ease-out", [0, 0, 0.58, 1]),
        ("ease-in-out", [0.42, 0, 0.58, 1]), ("linear", [0, 0, 1, 1])
    ])
    func cssNamedTimingFunctionsParse(_ name: String, _ controls: [Double]) throws {
        guard case .timingFunction(let f) = try Easing(name: name) else {
            Issue.record("\(name) is not a cubic-bezier")
            return
        }
        #expect([f.x1, f.y1, f.x2, f.y2] == controls)
    }

    /// Other libraries' spellings name the same curves: Core Animation's and SwiftUI's timing
    /// functions, Penner's `easeOutBounce`, any case, `_` for `-`.
    @Test(arguments: [
        ("easeIn", "ease-in"), ("easeOut", "ease-out"), ("easeInEaseOut", "ease-in-out"), ("easeInOut", "ease-in-out"),
        ("EASE_IN_OUT", "ease-in-out"), ("easeInQuad", "quad-in"), ("easeOutBounce", "bounce-out"),
        ("easeInOutElastic", "elastic-in-out"), ("easeInOutBack", "back-in-out"), ("easeOutExpo", "expo-out"),
        ("quad_in_out", "quad-in-out")
    ])
    func otherSpellingsNameTheSameCurve(_ spelling: String, _ name: String) throws {
        let easing = try Easing(name: spelling)
        #expect(easing == (try Easing(name: name)) && easing.name == name)
    }

    @Test func randomControlPointsWithOvershootMatchTheExactSolution() throws {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<300 {
            let f = try CubicBezierTimingFunction(
                x1: .random(in: 0...1, using: &rng), y1: .random(in: -2...3, using: &rng),
                x2: .random(in: 0...1, using: &rng), y2: .random(in: -2...3, using: &rng))
            for _ in 0..<50 {
                let t = Double.random(in: 0...1, using: &rng)
                #expect(abs(f.value(at: t) - referenceValue(f, at: t)) <= valueTolerance, "\(f) at t = \(t)")
            }
        }
    }

    /// Controls at the x-limits make x'(s) vanish, where y(t) has an infinite slope and no solver
    /// in doubles can do better than the conditioning (1 ulp in t moves y by ~(1e-16)^(1/3)). There
    /// the test checks the solve itself: x(s) equals t to within the rounding of evaluating x (1e-15).
    /// Any accepted controls, y up to ±`largestControl`: the curve starts at exactly 0 and ends at
    /// exactly 1, and between them it is as close to the exact curve as the controls' size allows
    /// (a few roundings of the largest term, 3·|y|).
    @Test(arguments: [1.0, 1e3, 1e9, 1e300])
    func anyControlsEndExactlyAndStayWithinRoundingOfTheirSize(range: Double) throws {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<300 {
            let f = try CubicBezierTimingFunction(
                x1: .random(in: 0...1, using: &rng), y1: .random(in: -range...range, using: &rng),
                x2: .random(in: 0...1, using: &rng), y2: .random(in: -range...range, using: &rng))
            #expect(f.value(at: 0) == 0 && f.value(at: 1) == 1, "\(f)")
            let scale = max(1, abs(f.y1), abs(f.y2))
            for _ in 0..<20 {
                let t = Double.random(in: 0...1, using: &rng)
                let error = abs(f.value(at: t) - referenceValue(f, at: t))
                #expect(error <= 1e-14 * scale, "\(f) at t = \(t): \(error / scale) of the controls")
            }
        }
    }

    @Test func extremeControlPointsStillConverge() throws {
        for (x1, x2) in [(0.0, 0.0), (1.0, 1.0), (0.0, 1.0), (1.0, 0.0), (1e-9, 1 - 1e-9)] {
            let f = try CubicBezierTimingFunction(x1: x1, y1: -1, x2: x2, y2: 2)
            for t in grid(0, 1, count: 501) {
                let s = f.parameter(at: t)
                #expect(abs(bernstein(x1, x2, s) - t) <= 1e-15, "\(f) at t = \(t)")
                let slope = 3 * (1 - s) * (1 - s) * x1 + 6 * (1 - s) * s * (x2 - x1) + 3 * s * s * (1 - x2)
                if slope > 1e-3 {
                    #expect(abs(f.value(at: t) - referenceValue(f, at: t)) <= valueTolerance, "\(f) at t = \(t)")
                }
            }
            #expect(f.value(at: 0) == 0 && f.value(at: 1) == 1)
        }
    }

    @Test func thirdsInXAreTheIdentity() throws {
        let f = try CubicBezierTimingFunction(x1: 1.0 / 3, y1: 0.9, x2: 2.0 / 3, y2: -0.3)
        #expect(f.isIdentityInX)
        for t in grid(0, 1, count: 101) {
            #expect(f.parameter(at: t) == t)
            #expect(abs(f.value(at: t) - bernstein(0.9, -0.3, t)) <= 1e-15)
        }
    }

    @Test func derivativeMatchesFiniteDifferences() throws {
        var rng = SplitMix64(seed: 7)
        for f in Self.named
            + (0..<20).map({ _ in
                try! CubicBezierTimingFunction(
                    x1: .random(in: 0.05...0.95, using: &rng), y1: .random(in: -1...2, using: &rng),
                    x2: .random(in: 0.05...0.95, using: &rng), y2: .random(in: -1...2, using: &rng))
            })
        {
            for t in grid(0.02, 0.98, count: 49) {
                let numeric = firstDerivative({ referenceValue(f, at: $0) }, at: t, h: 1e-4)
                #expect(abs(f.derivative(at: t) - numeric) <= 1e-6 * max(1, abs(numeric)), "\(f) at t = \(t)")
            }
        }
    }

    @Test func derivativeAtTheEndsTakesTheLimit() {
        // ease-in-out: x'(0) = 3·0.42, y'(0) = 0, so the slope is 0 at both ends.
        #expect(CubicBezierTimingFunction.easeInEaseOut.derivative(at: 0) == 0)
        #expect(CubicBezierTimingFunction.easeInEaseOut.derivative(at: 1) == 0)
        // ease-out at 0: x'(0) = y'(0) = 0, so the slope is the limit y''/x'' = 6/3.48; check by differences.
        let f = CubicBezierTimingFunction.easeOut
        let numeric = (referenceValue(f, at: 1e-9) - 0) / 1e-9
        #expect(abs(f.derivative(at: 0) - numeric) <= 1e-3 * max(1, abs(numeric)))
    }

    @Test(arguments: [(-0.1, 0.0), (1.1, 0.0), (Double.nan, 0.0), (0.5, Double.infinity)])
    func rejectsInvalidControls(x: Double, y: Double) {
        #expect(throws: KinemaError.self) { try CubicBezierTimingFunction(x1: x, y1: y, x2: 0.5, y2: 1) }
    }

    /// Outside [0, 1] the curve goes on along its end tangents, as CSS Easing Level 1 specifies
    /// (the slopes written out from the spec's three cases each end, not from the type), and the
    /// velocity is that slope: the value's own finite-difference slope.
    @Test(arguments: [
        (0.5, 1.0, 0.5, 1.0), (0.42, 0.0, 0.58, 1.0), (0.3, -0.4, 0.6, 1.5), (0.0, 0.5, 0.0, 1.0),
        (0.0, 0.0, 1.0, 1.0), (0.0, 0.2, 1.0, 0.7), (1.0, 2.0, 1.0, -1.0), (0.0, 0.3, 0.6, 1.0)
    ])
    func extrapolatesAlongTheEndTangentsAsCSSDoes(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) throws {
        let f = try CubicBezierTimingFunction(x1: x1, y1: y1, x2: x2, y2: y2)
        // CSS Easing 1, "cubic Bézier easing functions": before 0 the line P0–P1 if x1 > 0, else P0–P2
        // if x2 > 0, else 0; after 1 the line P2–P3 if x2 < 1, else P1–P3 if x1 < 1, else 0.
        let start = x1 > 0 ? y1 / x1 : x2 > 0 ? y2 / x2 : 0
        let end = x2 < 1 ? (1 - y2) / (1 - x2) : x1 < 1 ? (1 - y1) / (1 - x1) : 0
        for t in [-2.0, -1.0, -0.25, -1e-9] {
            #expect(abs(f.value(at: t) - start * t) <= 1e-15 * max(1, abs(start * t)))
            #expect(f.derivative(at: t) == start)
            let slope = (f.value(at: t + 1e-10) - f.value(at: t - 1e-10)) / 2e-10
            #expect(t > -1e-6 || abs(slope - start) <= 1e-5 * max(1, abs(start)))
        }
        for t in [1 + 1e-9, 1.25, 2.0, 3.0] {
            #expect(abs(f.value(at: t) - (1 + end * (t - 1))) <= 1e-15 * max(1, abs(end * t)))
            #expect(f.derivative(at: t) == end)
        }
        // Continuous at the ends: the curve meets the lines.
        #expect(f.value(at: 0) == 0 && f.value(at: 1) == 1)
    }
}
