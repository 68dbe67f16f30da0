import Foundation
import Testing

@testable import Kinema

/// Back, elastic and poly with parameters, against the peers' published formulas written out
/// here (d3-ease, Penner's ActionScript, React Native's Easing.back) and the canonical curves.
struct ParametricEasingTests {
    static let times = (0...200).map { Double($0) / 200 }

    /// d3's backIn/backOut/backInOut with overshoot s (d3-ease src/back.js), React Native's back(s) for in.
    static func d3Back(_ s: Double, _ mode: PennerEasing.Mode, _ t: Double) -> Double {
        func backIn(_ t: Double) -> Double { t * t * (s * (t - 1) + t) }
        switch mode {
        case .in: return backIn(t)
        case .out: return 1 - backIn(1 - t)
        case .inOut: return t < 0.5 ? backIn(2 * t) / 2 : (2 - backIn(2 - 2 * t)) / 2
        }
    }

    /// Penner's easeInElastic(t, 0, 1, 1, a, p) with a ≥ 1, as published (s from asin(c/a)).
    static func pennerElasticIn(_ t: Double, _ a: Double, _ p: Double) -> Double {
        if t == 0 || t == 1 { return t }
        let s = p / (2 * .pi) * asin(1 / a)
        let u = t - 1
        return -(a * pow(2, 10 * u) * sin((u - s) * (2 * .pi) / p))
    }

    @Test(arguments: [0.5, 1.70158, 3.0])
    func backMatchesD3(_ s: Double) throws {
        for mode in PennerEasing.Mode.allCases {
            let easing = try Easing(name: "back-\(mode.rawValue)(\(s))")
            for t in Self.times { #expect(abs(easing.value(at: t) - Self.d3Back(s, mode, t)) <= 1e-14) }
        }
    }

    @Test(arguments: [(1.0, 0.3), (1.5, 0.3), (2.0, 0.5), (1.2, 0.8)])
    func elasticMatchesPenner(_ a: Double, _ p: Double) throws {
        let easingIn = try ParametricEasing(.elastic(amplitude: a, period: p), .in)
        let easingOut = try ParametricEasing(.elastic(amplitude: a, period: p), .out)
        for t in Self.times {
            #expect(abs(easingIn.value(at: t) - Self.pennerElasticIn(t, a, p)) <= 1e-13)
            #expect(abs(easingOut.value(at: t) - (1 - Self.pennerElasticIn(1 - t, a, p))) <= 1e-13)
        }
    }

    /// The canonical curves are the parameters' defaults: back s = 1.70158 (in-out 1.70158·1.525),
    /// elastic (1, 0.3) (in-out (1, 0.45)), poly 2…5 = quad…quint.
    @Test func canonicalCurvesAreSpecialCases() throws {
        let pairs: [(String, String)] = [
            ("back-in(1.70158)", "back-in"), ("back-out(1.70158)", "back-out"),
            ("back-in-out(\(1.70158 * 1.525))", "back-in-out"),
            ("elastic-in(1,0.3)", "elastic-in"), ("elastic-out(1,0.3)", "elastic-out"),
            ("elastic-in-out(1,0.45)", "elastic-in-out"),
            ("poly-in(2)", "quad-in"), ("poly-out(3)", "cubic-out"), ("poly-in-out(4)", "quart-in-out"),
            ("poly-in(5)", "quint-in")
        ]
        for (parametric, canonical) in pairs {
            let a = try Easing(name: parametric), b = try Easing(name: canonical)
            for t in Self.times {
                #expect(abs(a.value(at: t) - b.value(at: t)) <= 1e-14, "\(parametric) at \(t)")
                #expect(
                    abs(a.derivative(at: t) - b.derivative(at: t)) <= 1e-11 * max(1, abs(b.derivative(at: t))),
                    "\(parametric)' at \(t)")
            }
        }
    }

    /// Exact ends, derivatives that are the values' slopes, names that parse back.
    @Test(arguments: [
        "back-in(2.5)", "back-out(0)", "back-in-out(1.1)", "elastic-in(1.3,0.4)", "elastic-out(2,0.25)",
        "elastic-in-out(1,0.6)", "poly-in(0.5)", "poly-out(2.5)", "poly-in-out(7)"
    ])
    func endsDerivativesAndNames(_ name: String) throws {
        let easing = try Easing(name: name)
        #expect(easing.value(at: 0) == 0 && easing.value(at: 1) == 1)
        #expect(try Easing(name: easing.name) == easing)
        for t in stride(from: 0.013, through: 0.987, by: 0.0371) where abs(t - 0.5) > 1e-3 {
            let h = 1e-6, slope = (easing.value(at: t + h) - easing.value(at: t - h)) / (2 * h)
            #expect(abs(easing.derivative(at: t) - slope) <= 1e-5 * max(1, abs(slope)), "\(name) at \(t)")
        }
    }

    @Test(arguments: [
        "back-in(nan)", "elastic-in(0.5,0.3)", "elastic-out(1,0)", "elastic-in-out(1,-1)", "poly-in(0)",
        "poly-out(-2)", "poly-in(inf)", "back-in(1,2)", "elastic-in(1)"
    ])
    func badParametersAreRefused(_ name: String) {
        #expect(throws: KinemaError.self) { try Easing(name: name) }
    }
}
