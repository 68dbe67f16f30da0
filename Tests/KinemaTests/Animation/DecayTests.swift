import Foundation
import Kinema
import KinemaTestSupport
import Testing

/// Decay in UIKit's and Android's dialects, the projection, the rubber band and the hand-off to a
/// spring at an edge, each against the formula its platform publishes, written out here.
@Suite struct DecayTests {
    @Test(arguments: [(0.998, Decay.normal), (0.99, Decay.fast)])
    func uiKitDecelerationRateIsTheFractionLeftEachMillisecond(rate: Double, decay: Decay) throws {
        #expect(abs(decay.decelerationRate - rate) <= 1e-15)
        #expect(try Decay(decelerationRate: rate) == decay)
        for milliseconds in [1, 10, 100, 1000] {
            let v = decay.velocity(2000.0, after: Double(milliseconds) / 1000)
            let expected = 2000 * pow(rate, Double(milliseconds))
            #expect(abs(v - expected) <= 1e-12 * 2000, "after \(milliseconds) ms")
        }
    }

    @Test func projectedEndIsWhereTheMotionEnds() throws {
        var rng = SplitMix64(seed: 8)
        for _ in 0..<200 {
            let decay = try Decay(rate: Double.random(in: 0.5...20, using: &rng))
            let start = Double.random(in: -500...500, using: &rng),
                velocity = Double.random(in: -5000...5000, using: &rng)
            let end = decay.projectedEnd(from: start, velocity: velocity)
            let farAway = decay.position(from: start, velocity: velocity, after: 60 / decay.rate)  // e^(−60)
            #expect(abs(farAway - end) <= 1e-12 * max(abs(end), abs(velocity / decay.rate)))
            // The 2-D flick lands at the projection of each axis.
            let flick2D = decay.projectedEnd(from: SIMD2(start, -start), velocity: SIMD2(velocity, 2 * velocity))
            #expect(flick2D == SIMD2(end, decay.projectedEnd(from: -start, velocity: 2 * velocity)))
        }
        // Apple's per-millisecond sum (WWDC 2018) differs from the integral by the documented 0.1 %.
        let wwdc = 1000.0 / 1000 * 0.998 / (1 - 0.998)
        let integral = Decay.normal.projectedEnd(from: 0.0, velocity: 1000.0)
        #expect(abs(integral / wwdc - 1 - 0.001) <= 2e-4)
    }

    @Test func decayAnimatorLandsOnItsProjection() throws {
        var fling = DecayAnimator(
            decay: .normal, value: SIMD2(10.0, 20.0), velocity: SIMD2(1500.0, -800.0), restSpeed: 1e-9)
        var frames = 0
        while !fling.advance(by: 1.0 / 120) { frames += 1 }
        let end = fling.projectedEnd
        #expect(fling.value == end && fling.velocity == .zero)
        #expect(abs(end.x - (10 + 1500 / Decay.normal.rate)) <= 1e-12 * 1000)
        #expect(frames > 0)
    }

    @Test func androidFrictionIsFlingAnimationsDragForce() throws {
        // FlingAnimation.DragForce.updateValueAndVelocity, with its friction −4.2 × scalar.
        for scalar in [0.5, 1.0, 3.0] {
            let friction = -4.2 * scalar, v0 = 1200.0, x0 = 50.0, dtMilliseconds = 250.0
            let androidVelocity = v0 * exp(dtMilliseconds / 1000 * friction)
            let androidValue = x0 - v0 / friction + v0 / friction * exp(friction * dtMilliseconds / 1000)
            let decay = try Decay(friction: scalar)
            #expect(abs(decay.velocity(v0, after: 0.25) - androidVelocity) <= 1e-12 * v0)
            #expect(abs(decay.position(from: x0, velocity: v0, after: 0.25) - androidValue) <= 1e-12 * 1000)
            #expect(abs(decay.friction - scalar) <= 1e-15)
        }
    }

    @Test func timeToReachInvertsThePosition() throws {
        let decay = try Decay(rate: 4)
        let t = try #require(decay.time(toReach: 180, from: 0, velocity: 1000))
        #expect(abs(decay.position(from: 0.0, velocity: 1000.0, after: t) - 180) <= 1e-12 * 180)
        #expect(decay.time(toReach: 300, from: 0, velocity: 1000) == nil)  // beyond the end at 250
        #expect(decay.time(toReach: -1, from: 0, velocity: 1000) == nil)  // behind
    }

    @Test func rubberBandIsUIScrollViewsFormula() throws {
        for (dimension, constant) in [(320.0, 0.55), (812.0, 0.55), (100.0, 0.3)] {
            let band = try RubberBand(dimension: dimension, constant: constant)
            for x in [0.0, 1, 10, 100, 1000, 1e6] {
                let published = (1.0 - (1.0 / ((x * constant / dimension) + 1.0))) * dimension
                #expect(abs(band.offset(x) - published) <= 1e-12 * dimension)
                #expect(band.offset(-x) == -band.offset(x))
                #expect(band.offset(x) <= dimension)
            }
            #expect(abs(band.offset(1e-6) / 1e-6 - constant) <= 1e-6)  // starts at c × the drag
            #expect(band.clamp(50, to: 0...100) == 50)
            #expect(band.clamp(130, to: 0...100) == 100 + band.offset(30))
            #expect(band.clamp(-30, to: 0...100) == -band.offset(30))
        }
        #expect(throws: KinemaError.self) { try RubberBand(dimension: 0) }
    }

    /// `unclamp` undoes `clamp` (to rounding, relative to the drag), inside, above and below the bounds.
    @Test func unclampInvertsTheRubberBand() throws {
        for (dimension, constant) in [(320.0, 0.55), (812.0, 0.55), (100.0, 0.3)] {
            let band = try RubberBand(dimension: dimension, constant: constant), bounds = -50.0...700
            for drag in [0.0, 1e-9, 0.5, 10, 100, 1000, 1e5] {
                for position in [bounds.upperBound + drag, bounds.lowerBound - drag, 200] {
                    let back = band.unclamp(band.clamp(position, to: bounds), from: bounds)
                    #expect(abs(back - position) <= 1e-9 * max(1, drag), "\(dimension) \(position)")
                }
            }
            #expect(band.unclamp(bounds.upperBound + dimension, from: bounds) == .infinity)
            #expect(band.unclamp(bounds.lowerBound - 2 * dimension, from: bounds) == -.infinity)
        }
    }

    @Test func flickPastAnEdgeHandsOverToASpringWithTheSameVelocity() throws {
        let spring = try DampedSpring(response: 0.4, dampingRatio: 1)
        var scroll = BoundedDecayAnimator(
            value: 900, velocity: 3000, bounds: 0...1000, decay: .normal, spring: spring)
        let handOff = try #require(scroll.handOffTime)
        let decay = Decay.normal
        #expect(abs(decay.position(from: 900.0, velocity: 3000.0, after: handOff) - 1000) <= 1e-9)
        let velocityAtEdge = decay.velocity(3000.0, after: handOff)
        let reference = try DampedHarmonicOscillator(
            mass: 1, stiffness: spring.stiffness, damping: spring.damping,
            target: 1000, initialPosition: 1000, initialVelocity: velocityAtEdge)
        var overshoot = 0.0
        for dt in SpringAnimatorTests.jitteredFrames(rate: 120, duration: 3, seed: 4) {
            scroll.advance(by: dt)
            let expected =
                scroll.time < handOff
                ? decay.position(from: 900.0, velocity: 3000.0, after: scroll.time)
                : reference.position(at: scroll.time - handOff)
            #expect(abs(scroll.value - expected) <= 1e-12 * 1000 || scroll.isSettled)
            overshoot = max(overshoot, scroll.value - 1000)
        }
        #expect(overshoot > 0 && scroll.isSettled && scroll.value == 1000)
    }

    @Test func flickThatStopsInsideNeverSprings() throws {
        var scroll = BoundedDecayAnimator(value: 100, velocity: 200, bounds: 0...1000)
        #expect(scroll.handOffTime == nil)
        for _ in 0..<2000 { scroll.advance(by: 1.0 / 60) }
        #expect(!scroll.isSpringing && scroll.isSettled)
        #expect(
            abs(scroll.value - Decay.normal.projectedEnd(from: 100.0, velocity: 200.0)) <= 0.01 / Decay.normal.rate
                + 1e-9)
    }

    @Test func releaseOutsideTheBoundsSpringsBackAtOnce() throws {
        var scroll = BoundedDecayAnimator(value: -60, velocity: -100, bounds: 0...1000)
        #expect(scroll.handOffTime == 0 && scroll.isSpringing)
        for _ in 0..<600 { scroll.advance(by: 1.0 / 60) }
        #expect(scroll.isSettled && scroll.value == 0)
    }
}

/// Flicks whose projected end lies just past an edge (within restSpeed/λ, where the decay alone
/// would count as settled before reaching it): the motion settles once, on the edge, inside the
/// bounds, and `advance` says so exactly once.
struct BoundedDecaySettlingTests {
    @Test func theReportedFlickSettlesOnceOnTheEdge() throws {
        // Would land 0.2 pt past the upper edge; with restSpeed 0.5 the decay alone "settles"
        // 0.5/λ = 0.25 pt before its end, short of the edge.
        let decay = Decay.normal, bounds = 0.0...1000.0, velocity = 800.0
        let start = 1000.2 - velocity / decay.rate
        try checkSettling(
            value: start, velocity: velocity, bounds: bounds, restSpeed: 0.5, frameRate: 60, label: "reported")
    }

    @Test(arguments: [60.0, 120.0])
    func randomFlicksNearEitherEdgeSettleOnceInside(_ frameRate: Double) throws {
        var rng = SplitMix64(seed: 35)
        let decay = Decay.normal, bounds = -200.0...600.0
        for restSpeed in [0.01, 0.5, 5, 46.875] {
            for _ in 0..<40 {
                let towardsUpper = rng.next() % 2 == 0
                let speed = 100 + Double(rng.next() % 4000)
                // Projected end past the edge by up to 2·restSpeed/λ, or inside it by as much.
                let past = (Double(rng.next() % 2001) / 1000 - 1) * 2 * restSpeed / decay.rate
                let end = towardsUpper ? bounds.upperBound + past : bounds.lowerBound - past
                let velocity = towardsUpper ? speed : -speed
                let start = end - velocity / decay.rate
                guard bounds.contains(start) else { continue }
                try checkSettling(
                    value: start, velocity: velocity, bounds: bounds, restSpeed: restSpeed, frameRate: frameRate,
                    label: "start \(start), velocity \(velocity), restSpeed \(restSpeed), \(frameRate) Hz")
            }
        }
    }

    func checkSettling(
        value: Double, velocity: Double, bounds: ClosedRange<Double>, restSpeed: Double, frameRate: Double,
        label: String
    ) throws {
        let tolerance = 0.001
        var scroll = BoundedDecayAnimator(
            value: value, velocity: velocity, bounds: bounds, restSpeed: restSpeed,
            tolerance: tolerance)
        var completions = 0, firstValue: Double?
        for _ in 0..<Int(30 * frameRate) {
            if scroll.advance(by: 1 / frameRate) {
                completions += 1
                firstValue = firstValue ?? scroll.value
            }
            // Never reported at rest outside the bounds.
            if scroll.isSettled {
                #expect(bounds.contains(scroll.value), "\(label): settled at \(scroll.value) at \(scroll.time) s")
            }
        }
        #expect(completions == 1, "\(label): advance returned true \(completions) times")
        let settled = try #require(firstValue, "\(label): never settled")
        #expect(bounds.contains(settled), "\(label): settled at \(settled)")
        if scroll.handOffTime != nil {
            let edge = velocity > 0 ? bounds.upperBound : bounds.lowerBound
            #expect(abs(settled - edge) <= tolerance, "\(label): settled at \(settled), edge \(edge)")
        }
    }
}
