import Foundation
import KinemaTestSupport
import Testing

@testable import Kinema

/// The motion behind the SwiftUI custom animations (`SpringCustomAnimation`, `DropCustomAnimation`),
/// played as SwiftUI documents the protocol: every frame asks `animate(value:time:context:)` for the
/// offset from where the first animation started, and a change while one runs asks the new one's
/// `shouldMerge(previous:value:time:context:)`, handing it the running one's state and time. The
/// SwiftUI files only forward to these segments (their code is type-checked against a SwiftUI
/// stand-in by scripts/check-apple-sources.sh); here each is measured against closed forms.
@Suite struct CustomAnimationTests {
    /// A 2-D value with only what SwiftUI's `VectorArithmetic` gives.
    struct Point: AnimationArithmetic {
        var x = 0.0, y = 0.0
        static var zero: Point { Point() }
        static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
        static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
        mutating func scale(by rhs: Double) { (x, y) = (x * rhs, y * rhs) }
        var magnitudeSquared: Double { x * x + y * y }
    }

    static func oscillator(_ spring: DampedSpring, target: Double, from x: Double, velocity v: Double) throws
        -> DampedHarmonicOscillator
    {
        try DampedHarmonicOscillator(
            mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping, target: target,
            initialPosition: x, initialVelocity: v)
    }

    /// From rest, the offset is the spring's closed form towards the value, to 1e-12 of it.
    @Test func aSpringAnimationPlaysTheClosedForm() throws {
        let spring = try DampedSpring(response: 0.4, dampingRatio: 0.6)
        let exact = try Self.oscillator(spring, target: 300, from: 0, velocity: 0)
        var segment = SpringSegment<Double>()
        for t in grid(0, 0.6, count: 241) {
            let offset = try #require(segment.animate(spring, tolerance: 0.001, value: 300, time: t) as Double?)
            let velocity = try #require(segment.velocity(spring, tolerance: 0.001, value: 300, time: t))
            #expect(abs(offset - exact.position(at: t)) <= 1e-12 * 300)
            #expect(abs(velocity - exact.velocity(at: t)) <= 1e-11 * 300)
        }
    }

    /// Interrupted at 0.23 s by another spring towards another value, the offset and the velocity
    /// carry over (no jump, no kink), and the motion after is the new spring's closed form from
    /// that state; it ends once within the tolerance of the distance it set out to move.
    @Test func aMergedSpringKeepsPositionAndVelocityAndFollowsTheNewSpring() throws {
        let first = DampedSpring.bouncy, second = try DampedSpring(response: 0.3, dampingRatio: 0.9)
        var segment = SpringSegment<Double>()
        var t = 0.0
        while t < 0.23 {
            _ = segment.animate(first, tolerance: 0.001, value: 300, time: t)
            t += 1.0 / 120
        }
        let before = try Self.oscillator(first, target: 300, from: 0, velocity: 0)
        let (x, v) = (before.position(at: 0.23), before.velocity(at: 0.23))
        segment.merge(under: second, toward: 100, at: 0.23)
        let after = try Self.oscillator(second, target: 100, from: x, velocity: v)
        let atMerge = try #require(segment.animate(second, tolerance: 0.001, value: 100, time: 0.23) as Double?)
        let speedAtMerge = try #require(segment.velocity(second, tolerance: 0.001, value: 100, time: 0.23))
        #expect(abs(atMerge - x) <= 1e-12 * 300 && abs(speedAtMerge - v) <= 1e-11 * 300)
        var last = (time: 0.23, offset: atMerge)
        for time in grid(0.23, 3, count: 2001) {
            guard let offset = segment.animate(second, tolerance: 0.001, value: 100, time: time) else { break }
            #expect(abs(offset - after.position(at: time - 0.23)) <= 1e-12 * 300)
            last = (time, offset)
        }
        // It ended (nil) before 3 s, within 0.001 of its energy's distance: the snap onto 100 is
        // at most 0.001 × √((x − 100)² + v²/ω0²).
        let travel = ((x - 100) * (x - 100) + v * v * second.mass / second.stiffness).squareRoot()
        #expect(last.time < 3 && abs(last.offset - 100) <= 0.001 * travel)
        #expect(segment.animate(second, tolerance: 0.001, value: 100, time: 3) == nil)
    }

    /// A merge before the running animation ever played starts from rest where it started.
    @Test func aMergeBeforeTheFirstFrameStartsFromRest() throws {
        var segment = SpringSegment<Point>()
        segment.merge(under: .smooth, toward: Point(x: 10, y: -4), at: 0)
        let exact = try Self.oscillator(.smooth, target: 10, from: 0, velocity: 0)
        let offset = try #require(
            segment.animate(.smooth, tolerance: 0.001, value: Point(x: 10, y: -4), time: 0.1) as Point?)
        #expect(abs(offset.x - exact.position(at: 0.1)) <= 1e-12 * 10)
        #expect(abs(offset.y + 0.4 * exact.position(at: 0.1)) <= 1e-12 * 10)
    }

    /// A drop from rest: the offset is value × t²/T² until it lands at T, then bounces whose
    /// apexes are e², e⁴, … of the fall, landing at T(1 + 2e + 2e² + …); it ends on the landing
    /// of the last bounce that rises at least the tolerance (e = 0.5, 0.001: four bounces).
    @Test func aDropFallsAndBouncesAsTheClosedForm() throws {
        let drop = DropMotion(duration: 0.4, restitution: 0.5, tolerance: 0.001)
        var segment = DropSegment<Double>()
        let T = 0.4, e = 0.5
        for t in grid(0, T, count: 101) {
            let offset = try #require(segment.animate(drop, value: 200, time: t) as Double?)
            #expect(abs(offset - 200 * t * t / (T * T)) <= 1e-12 * 200)
        }
        var landing = T
        for k in 1...4 {
            let flight = 2 * pow(e, Double(k)) * T  // a bounce leaving at e^k·2/T under 2/T²
            let apex = try #require(segment.animate(drop, value: 200, time: landing + flight / 2) as Double?)
            #expect(abs(apex - 200 * (1 - pow(e, 2 * Double(k)))) <= 1e-10 * 200)
            let up = try #require(segment.velocity(drop, value: 200, time: landing + flight / 4))
            #expect(up < 0)  // moving back from the target: a bounce
            landing += flight
        }
        #expect(abs(landing - T * (1 + 2 * (e + e * e + e * e * e + e * e * e * e))) <= 1e-15)
        #expect(segment.animate(drop, value: 200, time: landing - 1e-9) != nil)
        #expect(segment.animate(drop, value: 200, time: landing + 1e-9) == nil)
    }

    /// Logical completion (SwiftUI's `isLogicallyComplete`): a spring's from the first frame its
    /// energy is within 1 % of the distance, found here by bisection on the closed form; after it the
    /// value stays within 1 % of the target. A drop's at its first landing, T after the start.
    @Test func logicalCompletionComesWhenTheTargetIsReached() throws {
        let spring = try DampedSpring(response: 0.4, dampingRatio: 0.6)
        let exact = try Self.oscillator(spring, target: 300, from: 0, velocity: 0)
        let omegaSquared = spring.stiffness / spring.mass
        func energy(_ t: Double) -> Double {
            let x = exact.position(at: t) - 300, v = exact.velocity(at: t)
            return x * x + v * v / omegaSquared
        }
        // The energy never grows: bisect for where it reaches (1 % × 300)².
        var low = 0.0, high = 5.0
        for _ in 0..<200 {
            (low, high) = energy((low + high) / 2) <= 9 ? (low, (low + high) / 2) : ((low + high) / 2, high)
        }
        var segment = SpringSegment<Double>()
        _ = segment.animate(spring, tolerance: 0.001, value: 300, time: 0)
        #expect(!segment.isLogicallyComplete(tolerance: 0.001, at: low - 1e-9))
        #expect(segment.isLogicallyComplete(tolerance: 0.001, at: high + 1e-9))
        for t in grid(high, 3, count: 500) {
            #expect(abs(exact.position(at: t) - 300) <= 3 * (1 + 1e-12))
            #expect(segment.isLogicallyComplete(tolerance: 0.001, at: t))
        }
        // A tolerance wider than 1 % completes logically where it settles.
        #expect(
            segment.isLogicallyComplete(tolerance: 0.1, at: 0.5)
                == (segment.animate(spring, tolerance: 0.1, value: 300, time: 0.5) == nil))

        let drop = DropMotion(duration: 0.4, restitution: 0.5, tolerance: 0.001)
        var falling = DropSegment<Double>()
        _ = falling.animate(drop, value: 200, time: 0)
        #expect(!falling.isLogicallyComplete(at: 0.4 - 1e-12) && falling.isLogicallyComplete(at: 0.4 + 1e-12))
        #expect(falling.animate(drop, value: 200, time: 0.5) != nil)  // still bouncing
    }

    /// Merged mid-fall towards a target off the line of the fall, a drop starts from the offset
    /// shown, keeping the velocity's component along the new fall.
    @Test func aMergedDropStartsFromTheOffsetShownWithTheVelocityAlongItsFall() throws {
        let drop = DropMotion(duration: 0.5, restitution: 0.3, tolerance: 0.001)
        var segment = DropSegment<Point>()
        let first = Point(x: 100, y: 0)
        _ = segment.animate(drop, value: first, time: 0.2)
        let shown = try #require(segment.animate(drop, value: first, time: 0.3) as Point?)
        let moving = try #require(segment.velocity(drop, value: first, time: 0.3))
        #expect(abs(shown.x - 100 * 0.09 / 0.25) <= 1e-12 * 100 && abs(moving.x - 100 * 0.6 / 0.25) <= 1e-10 * 100)
        let second = Point(x: 0, y: 80)
        segment.merge(under: drop, toward: second, at: 0.3)
        let atMerge = try #require(segment.animate(drop, value: second, time: 0.3) as Point?)
        #expect((atMerge - shown).magnitudeSquared <= 1e-24 * 1e4)
        // Along the new fall (from `shown` to `second`) the velocity is the old one's projection.
        let fall = shown - second, along = (moving.x * fall.x + moving.y * fall.y) / fall.magnitudeSquared
        let v = try #require(segment.velocity(drop, value: second, time: 0.3))
        #expect(abs(v.x - along * fall.x) <= 1e-10 * 100 && abs(v.y - along * fall.y) <= 1e-10 * 100)
        // It falls along that line onto the new target, never past it, and ends there.
        var t = 0.3, lowest = 1.0, last = 1.0
        while t < 0.3 + 2 {
            t += 1e-3
            guard let offset = segment.animate(drop, value: second, time: t) else { break }
            let gap = offset - second, height = (gap.x * fall.x + gap.y * fall.y) / fall.magnitudeSquared
            #expect(abs(gap.x * fall.y - gap.y * fall.x) <= 1e-9 * fall.magnitudeSquared)  // on the line
            (lowest, last) = (min(lowest, height), height)
        }
        #expect(lowest >= -1e-12 && lowest < 0.01 && last < 0.01 && t < 2.3)
        #expect(segment.animate(drop, value: second, time: t + 10) == nil)
    }
}
