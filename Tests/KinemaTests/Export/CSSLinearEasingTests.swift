import Foundation
import Testing

@testable import Kinema

/// CSS `linear()` easings placed to a tolerance, checked by evaluating the stops as CSS does
/// (linear interpolation between them) against the closed forms on a dense grid.
struct CSSLinearEasingTests {
    /// The stops as CSS Easing Level 2 evaluates them: linear between neighbouring points.
    static func evaluate(_ easing: CSSLinearEasing, at x: Double) -> Double {
        let stops = easing.stops
        guard let upper = stops.firstIndex(where: { $0.progress >= x }), upper > 0 else { return stops[0].output }
        let a = stops[upper - 1], b = stops[upper]
        return b.progress == a.progress
            ? b.output : a.output + (b.output - a.output) * (x - a.progress) / (b.progress - a.progress)
    }

    @Test(arguments: [("bounce-out", 1e-3), ("bounce-out", 1e-4), ("damped-cosine(5,30)", 1e-3), ("back-in-out", 1e-3)])
    func followsTheClosedFormWithinTheTolerance(_ name: String, _ tolerance: Double) throws {
        let curve = try Easing(name: name)
        let easing = try CSSLinearEasing(fitting: try MotionSource(easing: curve), tolerance: tolerance)
        let travel = curve.value(at: 1) - curve.value(at: 0)
        var worst = 0.0
        for i in 0...100_000 {
            let x = Double(i) / 100_000
            worst = max(worst, abs(Self.evaluate(easing, at: x) - (curve.value(at: x) - curve.value(at: 0)) / travel))
        }
        #expect(worst <= tolerance * (1 + 1e-6))
        #expect(easing.maxError <= tolerance && easing.maxError >= 0.5 * worst)
        #expect(
            easing.stops.first == .init(output: 0, progress: 0) && easing.stops.last == .init(output: 1, progress: 1))
        // Every impact is a point (the velocity jumps there).
        for breakpoint in curve.breakpoints {
            #expect(easing.stops.contains { abs($0.progress - breakpoint) <= 1e-12 }, "no point at \(breakpoint)")
        }
    }

    /// Tighter tolerances need more points, about 1/√10 as many per decade (chord error ∝ length²).
    @Test func pointCountFollowsTheTolerance() throws {
        let source = try MotionSource(easing: try Easing(name: "damped-cosine(5,30)"))
        let counts = try [1e-2, 1e-3, 1e-4].map { try CSSLinearEasing(fitting: source, tolerance: $0).stops.count }
        #expect(counts[0] < counts[1] && counts[1] < counts[2])
        #expect(Double(counts[2]) / Double(counts[1]) > 2 && Double(counts[2]) / Double(counts[1]) < 4.5)
    }

    /// A simulated drop: the easing maps height 1 → resting 0 onto 0 → 1 and stays within the
    /// tolerance of the trajectory, with a point at every bounce.
    @Test func aDropFromASimulation() throws {
        let scene = try PhysicsScene.drop(height: 1, restitution: 0.5)
        let trajectory = try Simulation(scene: scene).run(
            method: .dopri5(tolerance: 1e-11), duration: 1.2, sampleRate: 2_000)
        let source = try MotionSource(trajectory: trajectory)
        let easing = try CSSLinearEasing(fitting: source, tolerance: 1e-3)
        let first = source.value(at: 0), travel = source.value(at: 1.2) - first
        var worst = 0.0
        for i in 0...50_000 {
            let t = 1.2 * Double(i) / 50_000
            worst = max(worst, abs(Self.evaluate(easing, at: t / 1.2) - (source.value(at: t) - first) / travel))
        }
        #expect(worst <= 1e-3 * (1 + 1e-6))
        #expect(!source.breakpoints.isEmpty)
        for impact in source.breakpoints { #expect(easing.stops.contains { abs($0.progress * 1.2 - impact) <= 1e-9 }) }
    }

    @Test func refusesAMotionWithoutTravelAndABadTolerance() throws {
        let loop = try MotionSource(
            duration: 1, value: { sin(2 * .pi * $0) }, velocity: { t, _ in 2 * .pi * cos(2 * .pi * t) })
        #expect(throws: KinemaError.self) { try CSSLinearEasing(fitting: loop) }
        let source = try MotionSource(easing: try Easing(name: "ease-in"))
        for tolerance in [0, -1, Double.nan] {
            #expect(throws: KinemaError.self) { try CSSLinearEasing(fitting: source, tolerance: tolerance) }
        }
    }
}
