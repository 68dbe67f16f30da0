import Foundation
import KinemaTestSupport
import Testing

@testable import Kinema

/// Penner's equations as easings.net lists them, transcribed independently of the implementation
/// (which builds out and in-out from one ease-in).
private let reference: [String: @Sendable (Double) -> Double] = {
    let c1 = 1.70158, c2 = c1 * 1.525, c3 = c1 + 1, c4 = 2 * Double.pi / 3, c5 = 2 * Double.pi / 4.5
    @Sendable func bounceOut(_ x: Double) -> Double {
        let n1 = 7.5625, d1 = 2.75
        if x < 1 / d1 { return n1 * x * x }
        if x < 2 / d1 { let y = x - 1.5 / d1; return n1 * y * y + 0.75 }
        if x < 2.5 / d1 { let y = x - 2.25 / d1; return n1 * y * y + 0.9375 }
        let y = x - 2.625 / d1
        return n1 * y * y + 0.984375
    }
    return [
        "quad-in": { $0 * $0 }, "quad-out": { 1 - (1 - $0) * (1 - $0) },
        "quad-in-out": { $0 < 0.5 ? 2 * $0 * $0 : 1 - pow(-2 * $0 + 2, 2) / 2 },
        "cubic-in": { pow($0, 3) }, "cubic-out": { 1 - pow(1 - $0, 3) },
        "cubic-in-out": { $0 < 0.5 ? 4 * pow($0, 3) : 1 - pow(-2 * $0 + 2, 3) / 2 },
        "quart-in": { pow($0, 4) }, "quart-out": { 1 - pow(1 - $0, 4) },
        "quart-in-out": { $0 < 0.5 ? 8 * pow($0, 4) : 1 - pow(-2 * $0 + 2, 4) / 2 },
        "quint-in": { pow($0, 5) }, "quint-out": { 1 - pow(1 - $0, 5) },
        "quint-in-out": { $0 < 0.5 ? 16 * pow($0, 5) : 1 - pow(-2 * $0 + 2, 5) / 2 },
        "sine-in": { 1 - cos($0 * .pi / 2) }, "sine-out": { sin($0 * .pi / 2) },
        "sine-in-out": { -(cos(.pi * $0) - 1) / 2 },
        "expo-in": { $0 == 0 ? 0 : pow(2, 10 * $0 - 10) }, "expo-out": { $0 == 1 ? 1 : 1 - pow(2, -10 * $0) },
        "expo-in-out": { x in
            x == 0 ? 0 : x == 1 ? 1 : x < 0.5 ? pow(2, 20 * x - 10) / 2 : (2 - pow(2, -20 * x + 10)) / 2
        },
        "circ-in": { 1 - sqrt(1 - pow($0, 2)) }, "circ-out": { sqrt(1 - pow($0 - 1, 2)) },
        "circ-in-out": { x in
            x < 0.5 ? (1 - sqrt(1 - pow(2 * x, 2))) / 2 : (sqrt(1 - pow(-2 * x + 2, 2)) + 1) / 2
        },
        "back-in": { c3 * pow($0, 3) - c1 * $0 * $0 }, "back-out": { 1 + c3 * pow($0 - 1, 3) + c1 * pow($0 - 1, 2) },
        "back-in-out": { x in
            x < 0.5
                ? (pow(2 * x, 2) * ((c2 + 1) * 2 * x - c2)) / 2
                : (pow(2 * x - 2, 2) * ((c2 + 1) * (x * 2 - 2) + c2) + 2) / 2
        },
        "elastic-in": { x in x == 0 ? 0 : x == 1 ? 1 : -pow(2, 10 * x - 10) * sin((x * 10 - 10.75) * c4) },
        "elastic-out": { x in x == 0 ? 0 : x == 1 ? 1 : pow(2, -10 * x) * sin((x * 10 - 0.75) * c4) + 1 },
        "elastic-in-out": { x in
            x == 0
                ? 0
                : x == 1
                    ? 1
                    : x < 0.5
                        ? -(pow(2, 20 * x - 10) * sin((20 * x - 11.125) * c5)) / 2
                        : (pow(2, -20 * x + 10) * sin((20 * x - 11.125) * c5)) / 2 + 1
        },
        "bounce-in": { 1 - bounceOut(1 - $0) }, "bounce-out": bounceOut,
        "bounce-in-out": { x in x < 0.5 ? (1 - bounceOut(1 - 2 * x)) / 2 : (1 + bounceOut(2 * x - 1)) / 2 }
    ]
}()

/// Bounds |value − reference|: the two are different float expressions of one formula.
private let formulaTolerance = 1e-14

struct PennerEasingTests {
    static let all = PennerEasing.Family.allCases.flatMap { f in PennerEasing.Mode.allCases.map { PennerEasing(f, $0) }
    }

    @Test(arguments: all)
    func matchesTheCanonicalFormula(_ easing: PennerEasing) throws {
        let name = "\(easing.family.rawValue)-\(easing.mode.rawValue)"
        let formula = try #require(reference[name])
        for t in grid(0, 1, count: 1_001) {
            #expect(abs(easing.value(at: t) - formula(t)) <= formulaTolerance, "\(name) at t = \(t)")
        }
        // Exact end points, as d3 and tween.js guarantee (sine-in(1), back-out(0) were an ulp off).
        #expect(easing.value(at: 0) == 0, "\(name)(0)")
        #expect(easing.value(at: 1) == 1, "\(name)(1)")
    }

    @Test(arguments: all)
    func derivativeMatchesFiniteDifferences(_ easing: PennerEasing) throws {
        let name = "\(easing.family.rawValue)-\(easing.mode.rawValue)"
        let formula = try #require(reference[name])
        // Kinks: the half-way join and bounce's breakpoints (and their mirrors), where the one-sided
        // derivatives differ; circ's infinite slope at the ends.
        var kinks: [Double] = [0.5]
        for b in [1 / 2.75, 2 / 2.75, 2.5 / 2.75] {
            kinks += [b, 1 - b, b / 2, 0.5 + b / 2, 0.5 - b / 2, 1 - b / 2]
        }
        for t in grid(0.01, 0.99, count: 99) where kinks.allSatisfy({ abs($0 - t) > 2e-3 }) {
            let numeric = firstDerivative(formula, at: t, h: 1e-4)
            #expect(abs(easing.derivative(at: t) - numeric) <= 1e-6 * max(1, abs(numeric)), "\(name) at t = \(t)")
        }
    }

    @Test func bounceOutIsPennersWithItsConstants() {
        // Penner's ActionScript form, easeOutBounce(t, b = 0, c = 1, d = 1).
        func penner(_ time: Double) -> Double {
            var t = time
            if t < 1 / 2.75 { return 7.5625 * t * t }
            if t < 2 / 2.75 { t -= 1.5 / 2.75; return 7.5625 * t * t + 0.75 }
            if t < 2.5 / 2.75 { t -= 2.25 / 2.75; return 7.5625 * t * t + 0.9375 }
            t -= 2.625 / 2.75
            return 7.5625 * t * t + 0.984375
        }
        for t in grid(0, 1, count: 10_001) {
            #expect(PennerEasing(.bounce, .out).value(at: t) == penner(t))
        }
    }
}
